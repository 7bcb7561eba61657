/**
 * Dependencies run one way. Each folder is a layer with the layers it may import: views import
 * app state; app state and the worker import the protocol; the worker imports the extension; the
 * extension imports the domain; the lesson format is shared by the page and the lesson compiler,
 * and scripts import no page code. Every import of every source file (type-only ones too) is read
 * and resolved, and checked against the table; and no file reaches itself through its imports.
 * Tests and testkits may reach across (a test drives what it tests); they are left out.
 */
import { readdirSync, readFileSync, statSync, existsSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { importsOf } from './imports.testkit';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');

/** The layers, by folder (longest prefix wins), and what each may import besides itself. */
const LAYERS = {
  views: { folder: 'web/src/views', mayImport: ['app', 'model', 'machines', 'tutorial', 'protocol', 'lessonFormat', 'extension', 'domain', 'page'] },
  page: { folder: 'web/src/main.ts', mayImport: ['shell', 'views', 'app', 'protocol'] },
  shell: { folder: 'web/src/App.svelte', mayImport: ['views', 'app', 'protocol'] },
  app: { folder: 'web/src/app', mayImport: ['model', 'machines', 'tutorial', 'protocol', 'lessonFormat', 'domain', 'extension'] },
  machines: { folder: 'web/src/machines', mayImport: ['protocol'] },
  /** A real model: presets, pi-ai's providers, the loop; the page's state for it is in app. */
  model: { folder: 'web/src/model', mayImport: ['protocol'] },
  tutorial: { folder: 'web/src/tutorial', mayImport: ['protocol', 'lessonFormat', 'domain', 'extension'] },
  worker: { folder: 'web/src/worker', mayImport: ['protocol', 'extension', 'domain'] },
  protocol: { folder: 'web/src/protocol', mayImport: ['extension', 'domain'] },
  extension: { folder: 'extension', mayImport: ['domain'] },
  lessonFormat: { folder: 'lessons/format', mayImport: ['extension', 'domain'] },
  domain: { folder: 'domain', mayImport: [] },
  scripts: { folder: 'scripts', mayImport: ['lessonFormat', 'domain', 'extension', 'model'] },
  /** The providers' rules for a request's tools (`providers/`): judged by tests, e2e and host-test, importing nothing of ours. */
  providers: { folder: 'providers', mayImport: [] },
} as const satisfies Record<string, { folder: string; mayImport: readonly string[] }>;
type Layer = keyof typeof LAYERS;

const SOURCE = /\.(ts|mts|mjs|svelte)$/;
const LEFT_OUT = /\.(test|testkit)\.|\.d\.m?ts$|\/paths\//;

function filesUnder(folder: string): string[] {
  const path = join(ROOT, folder);
  if (!existsSync(path)) return [];
  if (statSync(path).isFile()) return [folder];
  return readdirSync(path, { withFileTypes: true }).flatMap((entry) => {
    const child = `${folder}/${entry.name}`;
    if (entry.isDirectory()) return entry.name === 'node_modules' || entry.name === 'dist' ? [] : filesUnder(child);
    return SOURCE.test(entry.name) && !LEFT_OUT.test(child) ? [child] : [];
  });
}

function layerOf(file: string): Layer | null {
  let best: Layer | null = null;
  for (const [layer, { folder }] of Object.entries(LAYERS) as [Layer, { folder: string }][]) {
    if ((file === folder || file.startsWith(`${folder}/`)) && (best === null || folder.length > LAYERS[best].folder.length)) best = layer;
  }
  return best;
}

/** Every import from a layer to one it may not import. */
function wrongImports(imports: ReadonlyMap<string, readonly string[]>): string[] {
  const wrong: string[] = [];
  for (const [file, targets] of imports) {
    const from = layerOf(file);
    if (!from) continue;
    for (const target of targets) {
      const to = layerOf(target);
      if (to === null || to === from) continue;
      if (!(LAYERS[from].mayImport as readonly string[]).includes(to)) wrong.push(`${file} (${from}) imports ${target} (${to})`);
    }
  }
  return wrong;
}

/** Each way a file reaches itself through its imports, as `a → b → a`. */
function cyclesOf(imports: ReadonlyMap<string, readonly string[]>): string[] {
  const cycles: string[] = [];
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (file: string) => {
    state.set(file, 'open');
    stack.push(file);
    for (const next of imports.get(file) ?? []) {
      if (!imports.has(next)) continue;
      if (state.get(next) === 'open') cycles.push([...stack.slice(stack.indexOf(next)), next].join(' → '));
      else if (!state.has(next)) visit(next);
    }
    stack.pop();
    state.set(file, 'done');
  };
  for (const file of imports.keys()) if (!state.has(file)) visit(file);
  return cycles;
}

const files = Object.values(LAYERS).flatMap(({ folder }) => filesUnder(folder));
const graph = new Map(files.map((file) => [file, importsOf(ROOT, file)]));

describe('dependencies run one way', () => {
  it('reads the whole tree', () => {
    expect(files.length).toBeGreaterThan(150);
    expect(files).toContain('web/src/views/DeskTable.svelte');
    expect(files).toContain('scripts/lesson-plugin.mjs');
  });

  it('no file imports a layer above it, or beside it, that its layer may not import', () => {
    expect(wrongImports(graph)).toEqual([]);
  });

  it('no file reaches itself through its imports', () => {
    expect(cyclesOf(graph)).toEqual([]);
    // The check itself, on a made-up cycle.
    expect(cyclesOf(new Map([['a.ts', ['b.ts']], ['b.ts', ['c.ts']], ['c.ts', ['a.ts']]]))).toEqual(['a.ts → b.ts → c.ts → a.ts']);
  });

  it('the check itself: made-up upward imports are found, a downward one is not', () => {
    const madeUp = new Map([
      ['domain/desk.ts', ['web/src/views/DeskTable.svelte']],
      ['web/src/app/actions.ts', ['web/src/views/code/codeView.ts', 'web/src/protocol/messages.ts']],
      ['scripts/lesson-plugin.mjs', ['web/src/views/workspace/controls.ts']],
      ['web/src/worker/worker.ts', ['web/src/app/connection.svelte.ts']],
    ]);
    expect(wrongImports(madeUp)).toEqual([
      'domain/desk.ts (domain) imports web/src/views/DeskTable.svelte (views)',
      'web/src/app/actions.ts (app) imports web/src/views/code/codeView.ts (views)',
      'scripts/lesson-plugin.mjs (scripts) imports web/src/views/workspace/controls.ts (views)',
      'web/src/worker/worker.ts (worker) imports web/src/app/connection.svelte.ts (app)',
    ]);
  });
});
