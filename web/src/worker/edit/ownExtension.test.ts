import 'fake-indexeddb/auto';
/**
 * The learner's own extension in the worker's host (issue 37), over a real JournalStore on
 * fake-indexeddb: it runs alone on a session of its own (Seed Desk's session untouched), each
 * branch keeps its own note, a reload runs it again on its session, "back to Seed Desk" returns
 * to the session Seed Desk was on, a refused import or a load error changes nothing, and a
 * replaced own extension hears `session_shutdown` before the next one starts.
 * Compiled with esbuild-wasm in Node; the module imported from a data: URL.
 */
import * as esbuild from 'esbuild-wasm';
import { readFileSync } from 'node:fs';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { asEntryId, seededIdSource } from '$domain/ids';
import { freshDatabases } from '../databases.testkit';
import { PlaygroundHost } from '../playgroundHost';
import { handle } from '../requestHandlers';
import { removeGuards } from './guards';
import { OWN_ENTRY } from './ownCompile';
import { leaveOwn, restoreOwn, runOwn, storedOwn } from './ownExtension';

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
const databases = freshDatabases('own-test');
afterEach(() => removeGuards());
const progress = () => undefined;

/**
 * The template without its tool: `pi.zod` is not in the page's host until the API work lands
 * (apiSupport.ts says "not yet"), and the rest is what this file tests.
 */
const TEMPLATE = readFileSync('extension/own/template.ts', 'utf8');
const NOTES = TEMPLATE.slice(0, TEMPLATE.indexOf('\tpi.registerTool(')) + '}\n';
const notes = { [OWN_ENTRY]: NOTES };

describe('the own extension in the host', { timeout: 90_000 }, () => {
  it('runs alone on a new session; Seed Desk and its session are untouched; each branch keeps its note', async () => {
    const { host } = await databases.freshHost(37);
    await host.runLine('/seeds query');
    const seedDesk = host.sessionId;
    const deskEntries = host.view().entryCount;

    expect(await runOwn(host.core, notes, 'template', progress)).toMatchObject({ kind: 'running', extension: 'own' });
    expect(host.view().own).toBe(true);
    expect(host.sessionId).not.toBe(seedDesk);
    expect(host.view().status).toBe('No note on this branch');
    // Seed Desk is not loaded: its command is nobody's.
    expect((await host.runLine('/seeds query')).text).toContain('No extension registered /seeds (the loaded ones registered /note)');

    expect(await host.runLine('/note sow the beans')).toMatchObject({ text: 'Noted on this branch: sow the beans' });
    const beans = host.view().leafId;
    host.moveLeaf(null);
    expect(host.view().status).toBe('No note on this branch');
    await host.runLine('/note sow the peas');
    expect(host.view().status).toBe('Note: sow the peas');
    host.navigate(asEntryId(beans ?? ''));
    expect(host.view().status).toBe('Note: sow the beans');

    const own = host.sessionId;
    await leaveOwn(host.core, host.shipped);
    expect(host.view()).toMatchObject({ extension: 'shipped', own: false });
    expect(host.sessionId).toBe(seedDesk);
    expect(host.view().entryCount).toBe(deskEntries);
    expect(host.view().status).toContain('Seed desk');
    expect(await storedOwn(host.core)).toMatchObject({ files: notes, start: 'template', active: false });

    // Run again: the own extension is back on its own session, which kept both branches.
    await runOwn(host.core, notes, 'template', progress);
    expect(host.sessionId).toBe(own);
    expect(host.view().status).toBe('Note: sow the peas');
  });

  it('survives a reload: the page is told it waits, and it runs again on its session with its note', async () => {
    const { host, store } = await databases.freshHost(38);
    await runOwn(host.core, notes, 'template', progress);
    await host.runLine('/note water at dusk');
    const own = host.sessionId;
    removeGuards();

    const reloaded = await PlaygroundHost.start(store, seededIdSource(39));
    expect(reloaded.view()).toMatchObject({ ownWaiting: true, editedWaiting: false, sessionId: own });
    expect(await handle(reloaded, { type: 'restoreOwn' }, { progress, watches: null as never })).toMatchObject({ kind: 'running', extension: 'own' });
    expect(reloaded.view()).toMatchObject({ own: true, ownWaiting: false, sessionId: own, status: 'Note: water at dusk' });
  });

  it('a refused import, or a factory that throws, changes nothing', async () => {
    const { host } = await databases.freshHost(40);
    const seedDesk = host.sessionId;
    const refused = await runOwn(host.core, { [OWN_ENTRY]: 'import chalk from "chalk";\nexport default function () { chalk.red(""); }\n' }, 'template', progress);
    expect(refused).toMatchObject({ kind: 'rejected', problems: [{ file: OWN_ENTRY, line: 1, text: expect.stringContaining('"chalk" cannot be imported here') as unknown }] });
    const threw = await runOwn(host.core, { [OWN_ENTRY]: 'export default function () { throw new Error("not today"); }\n' }, 'template', progress);
    expect(threw).toMatchObject({ kind: 'rejected', problems: [{ text: expect.stringContaining('not today') as unknown }] });
    expect(host.view()).toMatchObject({ extension: 'shipped', own: false, sessionId: seedDesk });
    expect(await storedOwn(host.core)).toBeNull();
  });

  it('restores a Seed Desk edit that was running when the learner went to their own extension', async () => {
    const { host, store } = await databases.freshHost(41);
    await store.setMeta('editedExtension', JSON.stringify({ version: 1, files: {}, code: '', hash: '', active: true }));
    await runOwn(host.core, notes, 'template', progress);
    expect(host.view().editedWaiting).toBe(false);
    await leaveOwn(host.core, host.shipped);
    expect(host.view().editedWaiting).toBe(true);
  });
});

// `session_shutdown` when the page ends the running extension's host by replacing it: OMP 18.2.3
// loads other extension code only in a new process, after the old one's dispose fires
// `session_shutdown` (agent-session.ts `dispose`).

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
