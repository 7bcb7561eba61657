import 'fake-indexeddb/auto';
/**
 * `session_shutdown` when the page ends the running extension's host by replacing it (issue 37):
 * OMP 18.2.3 loads other extension code only in a new process, after the old one's dispose fires
 * `session_shutdown` (agent-session.ts `dispose`). Own extensions compiled with esbuild-wasm in
 * Node, the module imported from a data: URL, as ownExtension.test.ts does.
 */
import * as esbuild from 'esbuild-wasm';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { freshDatabases } from '../databases.testkit';
import type { PlaygroundHost } from '../playgroundHost';
import { removeGuards } from './guards';
import { OWN_ENTRY } from './ownCompile';
import { leaveOwn, runOwn } from './ownExtension';

vi.mock('./compiler', async () => {
  const { compileOwn } = await import('./ownCompile');
  const node = await import('esbuild-wasm');
  return { loadCompiler: () => Promise.resolve(), compileOwnFiles: (files: Record<string, string>, download = false) => compileOwn(node, files, { download }) };
});

vi.mock('./editedModule', async (importOriginal) => {
  const real = await importOriginal<typeof import('./editedModule')>();
  const importData = (code: string) => import(/* @vite-ignore */ `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  return { ...real, loadFactory: (code: string) => real.loadFactory(code, importData) };
});

afterAll(() => esbuild.stop());
const databases = freshDatabases('own-shutdown-test');
afterEach(() => removeGuards());
const progress = () => undefined;

/** An own extension that says when it starts and when its host ends, under its own name. */
function version(name: string) {
  return {
    [OWN_ENTRY]: `export default function (pi) {
  pi.on('session_start', (_event, ctx) => ctx.ui.notify('${name} started'));
  pi.on('session_shutdown', (_event, ctx) => ctx.ui.notify('${name} shut down'));
}
`,
  };
}

const said = (host: PlaygroundHost) => host.events().flatMap((item) => (item.kind === 'notification' && / (started|shut down)$/.test(item.text) ? [item.text] : []));

describe('session_shutdown when the extension is replaced', { timeout: 90_000 }, () => {
  it('Run my version again: the old version hears it before the new one starts; back to Seed Desk: the own one hears it', async () => {
    const { host } = await databases.freshHost(38);
    expect(await runOwn(host.core, version('first'), 'template', progress)).toMatchObject({ kind: 'running', extension: 'own' });
    expect(await runOwn(host.core, version('second'), 'template', progress)).toMatchObject({ kind: 'running', extension: 'own' });
    await leaveOwn(host.core, host.shipped);
    expect(said(host)).toEqual(['first started', 'first shut down', 'second started', 'second shut down']);
  });
});
