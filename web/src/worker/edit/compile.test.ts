/// <reference path="./extensionGraph.d.ts" />
/**
 * The compile path of "Run my version" (issue 23), in Node with esbuild-wasm, the package and
 * version the worker runs: the virtual file system is exactly the shipped extension's import
 * graph (nothing resolves to another copy), every import resolves in it, a syntax error says file,
 * line and column, npm names come from the worker's own modules (run) or are bundled in (download).
 */
import { build as nativeBuild } from 'esbuild';
import * as esbuild from 'esbuild-wasm';
import { readFileSync } from 'node:fs';
import ts from 'typescript';
import { afterAll, describe, expect, it } from 'vitest';
import * as graph from 'virtual:extension-graph';
import * as npmBundle from 'virtual:extension-npm-bundle';
import { graphHash, npmModules } from 'virtual:extension-npm';
import { codeFiles } from '../../../../scripts/code-view-plugin.mjs';
import { bundleExtension } from '../../../../scripts/build-extension.mjs';
import type { ExtensionAPI } from '../../../../extension/ompApi';
import { compileExtension, makeCompiler, NPM_GLOBAL, resolveRelative, utf16Column, type CompileOutcome } from './compileCore';
import { loadFactory } from './editedModule';

afterAll(() => esbuild.stop());

const COMMAND = 'extension/command.ts';
const RE_READ = 'const second = judge(readDesk(ctx));';

/** Imports compiled code in Node (the worker imports a blob: URL, which Node cannot). */
const importData = (code: string): Promise<unknown> => import(/* @vite-ignore */ `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);

function codeOf(outcome: CompileOutcome): string {
  if (!outcome.ok) throw new Error(`expected a compiled module, got ${JSON.stringify(outcome.problems)}`);
  return outcome.code;
}

/** What a factory registers, through a recording `pi`. */
async function registrations(factory: (pi: ExtensionAPI) => void | Promise<void>) {
  const commands: string[] = [];
  const tools: string[] = [];
  const events: string[] = [];
  const pi = {
    typebox: { Type: { Unsafe: (schema: unknown) => schema } },
    events: { on: () => () => undefined, emit: () => undefined },
    on: (event: string) => void events.push(event),
    registerCommand: (name: string) => void commands.push(name),
    registerTool: (tool: { name: string }) => void tools.push(tool.name),
    appendEntry: () => undefined,
  } as unknown as ExtensionAPI;
  await factory(pi);
  return { commands, tools, events };
}

describe('the virtual file system is the extension import graph', () => {
  const paths = Object.keys(graph.files);

  it('holds each file as it is on disk, starting from extension/seed-desk.ts', () => {
    expect(graph.entry).toBe('extension/seed-desk.ts');
    for (const path of paths) expect(graph.files[path], path).toBe(readFileSync(path, 'utf8'));
  });

  it('is closed and minimal: every relative import (type-only too) of a file in it resolves in it, and every file is reached from the entry', () => {
    const reached = new Set<string>([graph.entry]);
    const queue = [graph.entry];
    for (let path = queue.shift(); path !== undefined; path = queue.shift()) {
      if (path.endsWith('.json')) continue;
      for (const { fileName } of ts.preProcessFile(graph.files[path] ?? '', true, true).importedFiles) {
        if (!fileName.startsWith('.')) {
          expect(Object.keys(graph.npm), `${path} imports ${fileName}`).toContain(fileName);
          continue;
        }
        const target = resolveRelative(graph.files, path, fileName);
        expect(target, `${path} imports ${fileName}`).not.toBeNull();
        if (target && !reached.has(target)) {
          reached.add(target);
          queue.push(target);
        }
      }
    }
    expect([...reached].sort()).toEqual([...paths].sort());
  });

  it('holds every repository file the real build (build:extension, esbuild on disk) bundles, and every file the Code tab offers for editing', async () => {
    const result = await nativeBuild({ entryPoints: ['extension/seed-desk.ts'], bundle: true, format: 'esm', platform: 'neutral', mainFields: ['module', 'main'], write: false, metafile: true, logLevel: 'silent' });
    const ownInputs = Object.keys(result.metafile.inputs).filter((input) => !input.split('/').includes('node_modules'));
    expect(ownInputs.length).toBeGreaterThan(10);
    expect(paths).toEqual(expect.arrayContaining(ownInputs));
    // The rest are files only types are imported from: a learner who imports a value from one still finds it.
    for (const extra of paths.filter((path) => !ownInputs.includes(path))) expect(['extension/ompApi.ts', 'extension/outcome.ts']).toContain(extra);
    expect(paths).toEqual(expect.arrayContaining(codeFiles()));
  });

  it('lists the npm names the shipped files use, and the worker provides each of them', () => {
    expect(Object.keys(graph.npm).sort()).toEqual(['zod/mini', 'zod/v4/locales/en.js']);
    expect(graph.npm['zod/mini']).toEqual(expect.arrayContaining(['strictObject', 'string', 'optional', 'literal', 'config']));
    // Types and comments do not count: `z.infer` is a type, `z.toJSONSchema` is named in a comment only.
    expect(graph.npm['zod/mini']).not.toContain('infer');
    expect(graph.npm['zod/mini']).not.toContain('toJSONSchema');
    for (const [specifier, names] of Object.entries(graph.npm)) {
      for (const name of names) expect(npmModules[specifier]?.[name], `${specifier} ${name}`).toBeDefined();
    }
    expect(graphHash).toBe(graph.hash);
  });
});

// Each test builds with esbuild; on two busy cores a build can take several seconds.
describe('compiling from the virtual file system', { timeout: 30_000 }, () => {
  it('bundles the shipped files with no npm code; loaded with the worker\'s own zod, it registers what the shipped extension registers', async () => {
    const code = codeOf(await compileExtension(esbuild, graph, {}, { kind: 'run' }));
    expect(code).not.toMatch(/^import\s/m);
    expect(code).toContain(NPM_GLOBAL);
    // zod is the worker's: none of its code is in the bundle.
    expect(code).not.toContain('$ZodType');
    const factory = await loadFactory(code, importData);
    expect(await registrations(factory)).toEqual({ commands: ['seeds'], tools: ['seed_desk'], events: ['session_start', 'session_switch', 'session_branch', 'session_tree'] });
  });

  it('uses the learner\'s text for an edited file, and the shipped text again once the edit is gone (the incremental context keeps nothing stale)', async () => {
    const compile = makeCompiler(esbuild, graph);
    const shipped = codeOf(await compile({}, { kind: 'run' }));
    const edited = codeOf(await compile({ [COMMAND]: (graph.files[COMMAND] ?? '').replace(RE_READ, 'const second = first;') }, { kind: 'run' }));
    const again = codeOf(await compile({}, { kind: 'run' }));
    expect(shipped).toContain('judge(readDesk(ctx))');
    expect(edited).not.toContain('const second = judge(readDesk(ctx))');
    expect(edited).toContain('const second = first');
    expect(again).toBe(shipped);
  });

  it('gives a syntax error its file, line and column (1-based, in characters even after non-ASCII text) and compiles nothing', async () => {
    const text = graph.files[COMMAND] ?? '';
    const broken = text.replace(RE_READ, "const note = '…'; const second = judge(readDesk(ctx);");
    const lineIndex = broken.split('\n').findIndex((line) => line.includes("const note = '…'"));
    const outcome = await compileExtension(esbuild, graph, { [COMMAND]: broken }, { kind: 'run' });
    expect(outcome.ok).toBe(false);
    if (outcome.ok) return;
    const [problem] = outcome.problems;
    const line = broken.split('\n')[lineIndex] ?? '';
    expect(problem).toEqual({ file: COMMAND, line: lineIndex + 1, column: line.indexOf('ctx);') + 5, text: 'Expected ")" but found ";"' });
  });

  it('says where an import names no file of the extension, and where a zod name the worker does not provide is used', async () => {
    const withImport = `import { nothing } from './nowhere';\n${graph.files[COMMAND] ?? ''}\nexport const probe = nothing;`;
    const missing = await compileExtension(esbuild, graph, { [COMMAND]: withImport }, { kind: 'run' });
    expect(missing).toMatchObject({ ok: false, problems: [{ file: COMMAND, line: 1, column: 25, text: expect.stringContaining('"./nowhere" names none of the extension\'s files') }] });

    const bare = await compileExtension(esbuild, graph, { [COMMAND]: `import 'left-pad';\n${graph.files[COMMAND] ?? ''}` }, { kind: 'run' });
    expect(bare).toMatchObject({ ok: false, problems: [{ file: COMMAND, line: 1, text: expect.stringContaining('"left-pad" cannot be imported here') }] });

    const snapshot = 'domain/snapshot.ts';
    const email = `${graph.files[snapshot] ?? ''}\nexport const probe = z.email();\n`;
    const undefinedName = await compileExtension(esbuild, graph, { [snapshot]: email }, { kind: 'run' });
    expect(undefinedName).toMatchObject({ ok: false, problems: [{ file: snapshot, text: expect.stringContaining('Import "email" will always be undefined') }] });
  });

  it('refuses a file that is not in the graph, since nothing would import it', async () => {
    const outcome = await compileExtension(esbuild, graph, { 'extension/new.ts': 'export {};' }, { kind: 'run' });
    expect(outcome).toMatchObject({ ok: false, problems: [{ file: 'extension/new.ts', text: expect.stringContaining('not one of the extension') }] });
  });

  it('downloads one self-contained module with zod bundled in, about the size of build:extension\'s', async () => {
    const download = codeOf(await compileExtension(esbuild, graph, { [COMMAND]: (graph.files[COMMAND] ?? '').replace(RE_READ, 'const second = first;') }, { kind: 'download', npm: npmBundle }));
    expect(download).not.toMatch(/^import\s/m);
    expect(download).not.toContain(NPM_GLOBAL);
    expect(download.split('\n')[0]).toContain('YOUR EDITED VERSION');
    expect(download).toContain('const second = first');
    const shipped = await bundleExtension();
    expect(download.length).toBeGreaterThan(shipped.length * 0.8);
    expect(download.length).toBeLessThan(shipped.length * 1.25);
    // It stands alone: with no worker globals at all, it loads and registers.
    delete (globalThis as Record<symbol, unknown>)[Symbol.for(NPM_GLOBAL)];
    const module = (await importData(download)) as { default: (pi: ExtensionAPI) => void };
    expect((await registrations(module.default)).commands).toEqual(['seeds']);
  });

  it('counts columns in UTF-16 units from esbuild\'s UTF-8 bytes', () => {
    expect(utf16Column('abc', 2)).toBe(2);
    expect(utf16Column('…x', 3)).toBe(1);
    expect(utf16Column('😀x', 4)).toBe(2);
  });
});
