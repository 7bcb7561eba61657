/**
 * The learner's own extension (issue 37) compiled from their files alone, with esbuild-wasm (the
 * package the worker runs): imports between their files work, OMP's types are erased, a package
 * the page cannot provide is refused with one sentence naming it, and the download is one ES
 * module whose default export is the factory.
 */
import * as esbuild from 'esbuild-wasm';
import { readFileSync } from 'node:fs';
import { afterAll, describe, expect, it } from 'vitest';
import { compileOwn, OWN_ENTRY, ownExtensionModule, refusedImport } from './ownCompile';

afterAll(() => esbuild.stop());

const importData = (code: string): Promise<{ default?: unknown }> => import(/* @vite-ignore */ `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
const TEMPLATE = readFileSync('extension/own/template.ts', 'utf8');
const EXAMPLES = ['hello', 'pirate', 'status-line', 'confirm-destructive'].map((name) => [name, readFileSync(`fixtures/omp-examples/${name}.ts`, 'utf8')] as const);

describe('compileOwn', { timeout: 30_000 }, () => {
  it('bundles the template and each OMP example unchanged, their type imports erased', async () => {
    for (const [name, text] of [['template', TEMPLATE] as const, ...EXAMPLES]) {
      const outcome = await compileOwn(esbuild, { [OWN_ENTRY]: text });
      expect(outcome.ok, name).toBe(true);
      if (outcome.ok) expect(outcome.code, name).not.toContain('@oh-my-pi');
    }
  });

  it("resolves relative imports between the learner's files", async () => {
    const outcome = await compileOwn(esbuild, {
      [OWN_ENTRY]: 'import { greet } from "./lib/words";\nexport default function (pi: unknown) { void pi; return greet("x"); }\n',
      'lib/words.ts': 'export const greet = (name: string) => `hi ${name}`;\n',
    });
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(outcome.code).toContain('hi ${name}');
  });

  it('refuses a package the page cannot provide with one sentence naming it, at its line', async () => {
    const outcome = await compileOwn(esbuild, { [OWN_ENTRY]: 'import chalk from "chalk";\nexport default function () { chalk.red("x"); }\n' });
    expect(outcome).toEqual({ ok: false, problems: [{ file: OWN_ENTRY, line: 1, column: 19, text: refusedImport('chalk') }] });
    expect(refusedImport('chalk')).toMatch(/^"chalk" cannot be imported here/);
  });

  it("refuses a value import from OMP's package (only its types can be imported)", async () => {
    const outcome = await compileOwn(esbuild, { [OWN_ENTRY]: 'import { SessionManager } from "@oh-my-pi/pi-coding-agent";\nexport default function () { return SessionManager; }\n' });
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.problems[0]?.text).toContain('for its types only');
  });

  it('names a missing file, a missing entry and a bad file name', async () => {
    const missing = await compileOwn(esbuild, { [OWN_ENTRY]: 'import { x } from "./nope";\nexport default function () { return x; }\n' });
    expect(missing.ok ? null : missing.problems[0]?.text).toContain('"./nope" names none of your files');
    const noEntry = await compileOwn(esbuild, { 'other.ts': 'export {};' });
    expect(noEntry.ok ? null : noEntry.problems[0]?.text).toContain(`There is no ${OWN_ENTRY}`);
    const bad = await compileOwn(esbuild, { [OWN_ENTRY]: 'export default function () {}', '../up.ts': '' });
    expect(bad.ok ? null : bad.problems[0]?.text).toContain('"../up.ts" is not a file name');
  });
});

describe('ownExtensionModule: the download', { timeout: 30_000 }, () => {
  it('is one ES module whose default export is the factory, importing nothing', async () => {
    const code = await ownExtensionModule({ [OWN_ENTRY]: TEMPLATE }, esbuild);
    const module = await importData(code);
    expect(typeof module.default).toBe('function');
    expect(code).not.toMatch(/^\s*import\b/m);
  });

  it('throws the problems as one sentence when the files do not compile', async () => {
    await expect(ownExtensionModule({ [OWN_ENTRY]: 'import chalk from "chalk";\nexport default () => chalk;' }, esbuild)).rejects.toThrow('"chalk" cannot be imported here');
  });

  it('uses the esbuild package when given none (as host-test calls it)', async () => {
    const code = await ownExtensionModule({ [OWN_ENTRY]: 'export default function (pi: unknown) { void pi; }\n' });
    expect(typeof (await importData(code)).default).toBe('function');
  });
});
