import 'fake-indexeddb/auto';
/// <reference path="./extensionGraph.d.ts" />
/**
 * The learner's edited extension in the worker's host (issue 23), over a real JournalStore on
 * fake-indexeddb: run it, see the guarantee it broke fail on the same journal, go back, survive a
 * reload, keep the previous extension on a compile or load error, close a waiting dialog on swap.
 * The compiler is esbuild-wasm in Node (the worker's is the same package in the browser) and the
 * compiled module is imported from a data: URL (Node cannot import blob: URLs).
 */
import * as esbuild from 'esbuild-wasm';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { seededIdSource } from '$domain/ids';
import { expectProviderShape } from '$domain/tool/providerShape.testkit';
import { isConfirmAsked, type LineOutcome } from '../../protocol/messages';
import { freshDatabases } from '../databases.testkit';
import { PlaygroundHost } from '../playgroundHost';
import { EDITED_KEY } from './editedKey';
import { removeGuards } from './guards';

vi.mock('./compiler', async () => {
  const graph = await import('virtual:extension-graph');
  const npm = await import('virtual:extension-npm-bundle');
  const { makeCompiler } = await import('./compileCore');
  const node = await import('esbuild-wasm');
  const compile = makeCompiler(node, graph);
  return {
    loadCompiler: () => Promise.resolve(),
    compile: (edits: Record<string, string>, download = false) => compile(edits, download ? { kind: 'download', npm } : { kind: 'run' }),
  };
});

vi.mock('./editedModule', async (importOriginal) => {
  const real = await importOriginal<typeof import('./editedModule')>();
  const importData = (code: string) => import(/* @vite-ignore */ `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  return { ...real, loadFactory: (code: string) => real.loadFactory(code, importData) };
});

afterAll(() => esbuild.stop());

const databases = freshDatabases('edit-test');
// Each host here shares this process's globals; in the page each runs in a worker of its own, and a
// reload is a new worker with its globals whole again.
// Registered after the databases' own cleanup, so it runs before it (hooks run as a stack).
afterEach(() => removeGuards());
const newWorker = removeGuards;
const graph = await import('virtual:extension-graph');
const COMMAND = 'extension/command.ts';
const RE_READ = 'const second = judge(readDesk(ctx));';
const NO_RE_READ = { [COMMAND]: (graph.files[COMMAND] ?? '').replace(RE_READ, 'const second = first;') };
const progress = () => undefined;

function dialogOf(outcome: LineOutcome): string {
  if (!isConfirmAsked(outcome)) throw new Error(`expected a dialog, got ${JSON.stringify(outcome)}`);
  return outcome.request.id;
}

/** The lesson's race: bean 2 asked, marigold 1 reserved meanwhile, then Confirm. */
async function race(host: PlaygroundHost): Promise<LineOutcome> {
  const dialog = dialogOf(await host.runLine('/seeds reserve bean-scarlet 2'));
  await host.meanwhileReserve('marigold-french', 1);
  return host.answerUi({ kind: 'confirm', id: dialog, confirmed: true });
}

const reserved = (host: PlaygroundHost, id: string) => host.view().rows.find((row) => row.id === id)?.reserved;

// Each test compiles with esbuild-wasm (its first load alone is over a second): the default 5 s is too short on two busy cores.
describe('an edited extension in the host', { timeout: 30_000 }, () => {
  it('runs in place of the shipped one on the same journal: without the re-read, the race commits a stale reservation; back to the shipped one, it is refused again', async () => {
    const { host } = await databases.freshHost(23);
    await host.runLine('/seeds query');
    const entries = host.view().entryCount;
    expect(host.view().extension).toBe('shipped');

    const run = await host.runEdited(NO_RE_READ, progress);
    expect(run).toMatchObject({ kind: 'running', extension: 'edited' });
    const view = host.view();
    expect(view.extension).toBe('edited');
    expect(view.entryCount).toBe(entries);
    // The new extension heard session_start and set its status on the same branch.
    expect(view.status).toContain('Seed desk');
    expect(host.events().map((item) => ('text' in item ? item.text : ''))).toContain('The host now runs your edited extension (seed-desk-edited.js) on this session.');

    // Each outcome says which extension ran it; the journal's seed desk entries: marigold meanwhile, then bean.
    const stale = await race(host);
    expect(stale).toMatchObject({ kind: 'committed', by: 'edited', deskEntries: { before: 1, after: 2 } });
    expect(reserved(host, 'bean-scarlet')).toBe(2);
    // The stale snapshot overwrote the meanwhile reservation: marigold is back to 0.
    expect(reserved(host, 'marigold-french')).toBe(0);

    await host.useShipped();
    expect(host.view().extension).toBe('shipped');
    const refused = await race(host);
    expect(refused).toMatchObject({ kind: 'refused', code: 'stale-revision', by: 'shipped', deskEntries: { before: 3, after: 3 } });
    expect(reserved(host, 'bean-scarlet')).toBe(2);
  });

  it('offers a model the running extension\'s tools: the edited description while it runs, the shipped one after (issue 30)', async () => {
    const { host } = await databases.freshHost(30);
    const TOOL = 'extension/tool.ts';
    const edited = { [TOOL]: (graph.files[TOOL] ?? '').replace('description: SEED_DESK_TOOL_DESCRIPTION,', "description: 'An edited seed desk.',") };
    expect(edited[TOOL]).toContain('An edited seed desk.');
    const shipped = (await host.modelTools()).map((tool) => tool.description);
    expect(shipped).not.toContain('An edited seed desk.');

    expect(await host.runEdited(edited, progress)).toMatchObject({ kind: 'running', extension: 'edited' });
    const offered = await host.modelTools();
    expect(offered.map((tool) => [tool.name, tool.description])).toEqual([['seed_desk', 'An edited seed desk.']]);
    // The schema as the extension registers it: one object, op a string enum (issue 35).
    expectProviderShape(offered[0]?.parameters as Record<string, unknown>);

    await host.useShipped();
    expect((await host.modelTools()).map((tool) => tool.description)).toEqual(shipped);
  });

  it('follows an edit back to exactly the shipped text: run again, the edited extension is the shipped code and the race is refused again', { timeout: 60_000 }, async () => {
    const { host } = await databases.freshHost(29);
    await host.runEdited(NO_RE_READ, progress);
    expect((await race(host)).kind).toBe('committed');
    // Typed back: the page sends no drafts for a file equal to its shipped text.
    const run = await host.runEdited({}, progress);
    expect(run).toMatchObject({ kind: 'running', extension: 'edited' });
    expect(host.view().extension).toBe('edited');
    expect(await race(host)).toMatchObject({ kind: 'refused', code: 'stale-revision' });
    // And away from it again: the edit runs again.
    await host.runEdited(NO_RE_READ, progress);
    expect((await race(host)).kind).toBe('committed');
  });

  it('keeps the previous extension running when the edit does not compile, and says where', async () => {
    const { host } = await databases.freshHost(24);
    await host.runEdited(NO_RE_READ, progress);
    const broken = { [COMMAND]: (graph.files[COMMAND] ?? '').replace(RE_READ, 'const second = judge(readDesk(ctx);') };
    const run = await host.runEdited(broken, progress);
    expect(run).toMatchObject({ kind: 'rejected', problems: [{ file: COMMAND, line: expect.any(Number), column: expect.any(Number), text: 'Expected ")" but found ";"' }] });
    // Still the previous (edited) one: the race still goes through.
    expect(host.view().extension).toBe('edited');
    expect((await race(host)).kind).toBe('committed');
  });

  it('keeps the previous extension when the edited module throws while loading, and names the failure', async () => {
    const { host } = await databases.freshHost(25);
    const throwing = { 'extension/seed-desk.ts': `${graph.files['extension/seed-desk.ts'] ?? ''}\nthrow new Error('boom at load');\n` };
    const run = await host.runEdited(throwing, progress);
    expect(run).toMatchObject({ kind: 'rejected', problems: [{ file: null, text: expect.stringContaining('boom at load') }] });
    expect(host.view().extension).toBe('shipped');
    expect((await host.runLine('/seeds query')).kind).toBe('answer');
  });

  it('stops waiting for a module that never settles while it loads, and keeps the previous extension (the watchdog cannot see it: the worker still answers)', async () => {
    const { host } = await databases.freshHost(45);
    const stuck = { 'extension/seed-desk.ts': `${graph.files['extension/seed-desk.ts'] ?? ''}\nawait new Promise(() => {});\n` };
    const run = await host.runEdited(stuck, progress);
    expect(run).toMatchObject({ kind: 'rejected', problems: [{ file: null, text: expect.stringContaining('did not settle within 5 s') }] });
    expect(host.view().extension).toBe('shipped');
    expect((await host.runLine('/seeds query')).kind).toBe('answer');
  });

  it('shows a handler that throws as the host shows an extension error', async () => {
    const { host } = await databases.freshHost(26);
    const throwing = { [COMMAND]: (graph.files[COMMAND] ?? '').replace('const command = parseSeedsArgs(args);', "throw new Error('my bug'); const command = parseSeedsArgs(args);") };
    expect(await host.runEdited(throwing, progress)).toMatchObject({ kind: 'running' });
    expect(await host.runLine('/seeds query')).toEqual({ kind: 'error', text: 'Extension "command:seeds" error: my bug', by: 'edited', version: { text: 'changed', editedFrom: 'shipped' }, deskEntries: { before: 0, after: 0 } });
  });

  it('closes a dialog the replaced extension still waits on, says so, and an answer to it changes nothing', async () => {
    const { host } = await databases.freshHost(27);
    const dialog = dialogOf(await host.runLine('/seeds reserve basil-genovese 1'));
    const entries = host.view().entryCount;
    await host.runEdited(NO_RE_READ, progress);
    expect(host.events().map((item) => ('text' in item ? item.text : ''))).toContain('The dialog "Reserve 1 basil-genovese?" was closed unanswered: the extension that asked it was replaced. Nothing was changed.');
    expect(await host.answerUi({ kind: 'confirm', id: dialog, confirmed: true })).toMatchObject({ kind: 'usage', text: expect.stringContaining('no longer open') });
    expect(host.view().entryCount).toBe(entries);
  });

  it('survives a reload: the stored version waits for the page, runs again from the stored code, and is kept (not run) after going back', async () => {
    const { store } = await databases.freshHost(28).then(async ({ host, store }) => {
      await host.runEdited(NO_RE_READ, progress);
      return { store };
    });
    newWorker();
    const stored = JSON.parse((await store.getMeta(EDITED_KEY)) ?? '{}') as { active: boolean; files: Record<string, string>; hash: string };
    expect(stored).toMatchObject({ active: true, files: NO_RE_READ, hash: graph.hash });

    const reloaded = await PlaygroundHost.start(store, seededIdSource(29));
    await reloaded.finishOpening();
    expect(reloaded.view()).toMatchObject({ extension: 'shipped', editedWaiting: true });
    const phases: string[] = [];
    expect(await reloaded.restoreEdited((phase) => phases.push(phase))).toEqual({ kind: 'running', extension: 'edited', compileMs: null });
    expect(phases).toEqual(['load']);
    expect(reloaded.view()).toMatchObject({ extension: 'edited', editedWaiting: false });
    expect((await race(reloaded)).kind).toBe('committed');
    expect(await reloaded.storedEdits()).toEqual({ files: NO_RE_READ, active: true });

    await reloaded.useShipped();
    expect(await reloaded.storedEdits()).toEqual({ files: NO_RE_READ, active: false });
    const again = await PlaygroundHost.start(store, seededIdSource(30));
    expect(again.view().editedWaiting).toBe(false);
  });

  it('compiles the stored files again when the shipped files changed since they were stored', async () => {
    const { host, store } = await databases.freshHost(31);
    await host.runEdited(NO_RE_READ, progress);
    const stored = JSON.parse((await store.getMeta(EDITED_KEY)) ?? '{}') as Record<string, unknown>;
    await store.setMeta(EDITED_KEY, JSON.stringify({ ...stored, hash: 'an-older-build', code: 'this is not JavaScript' }));
    newWorker();
    const reloaded = await PlaygroundHost.start(store, seededIdSource(32));
    await reloaded.finishOpening();
    expect(await reloaded.restoreEdited(progress)).toMatchObject({ kind: 'running', extension: 'edited', compileMs: expect.any(Number) });
    expect(JSON.parse((await store.getMeta(EDITED_KEY)) ?? '{}')).toMatchObject({ hash: graph.hash, active: true });
  });

  it('downloads the edited version as one module, running none of it', async () => {
    const { host } = await databases.freshHost(33);
    const download = await host.downloadEdited(NO_RE_READ);
    expect(download).toMatchObject({ kind: 'bundle', fileName: 'seed-desk-edited.js' });
    if (download.kind === 'bundle') expect(download.code).toContain('const second = first');
    expect(host.view().extension).toBe('shipped');
  });
});

// Each test compiles with esbuild-wasm in Node: seconds apiece on a shared machine.
describe('hostile code in an edited extension (issue 28)', { timeout: 30_000 }, () => {
  const HANDLER_START = 'const command = parseSeedsArgs(args);';
  const inHandler = (code: string) => ({ [COMMAND]: (graph.files[COMMAND] ?? '').replace(HANDLER_START, `${code} ${HANDLER_START}`) });
  const FETCH = "Your extension called fetch(); the page's host does not let extension code reach the network.";

  it('fetch in a handler: the run fails with the named refusal, the status line names it, and the journal is untouched', async () => {
    const { host } = await databases.freshHost(40);
    const entries = host.view().entryCount;
    expect(await host.runEdited(inHandler("await fetch('https://example.org/');"), progress)).toMatchObject({ kind: 'running' });
    expect(await host.runLine('/seeds query')).toEqual({ kind: 'error', text: `Extension "command:seeds" error: ${FETCH}`, by: 'edited', version: { text: 'changed', editedFrom: 'shipped' }, deskEntries: { before: 0, after: 0 } });
    expect(host.view().status).toContain(`Page host: ${FETCH}`);
    expect(host.view().entryCount).toBe(entries);
  });

  it('a refusal the module swallows while it loads is still named once it runs', async () => {
    const { host } = await databases.freshHost(41);
    const swallowing = { 'extension/seed-desk.ts': `${graph.files['extension/seed-desk.ts'] ?? ''}\ntry { postMessage({ kind: 'notice', text: 'forged' }); } catch {}\n` };
    expect(await host.runEdited(swallowing, progress)).toMatchObject({ kind: 'running' });
    expect(host.view().status).toContain("Page host: Your extension called postMessage(); only the page's host speaks to the page");
    expect(host.view().status).toContain('Seed desk');
  });

  it('back to the shipped extension: the real globals again, and the host says nothing more', async () => {
    const realFetch = globalThis.fetch;
    const { host } = await databases.freshHost(42);
    await host.runEdited(inHandler("await fetch('https://example.org/');"), progress);
    expect(globalThis.fetch).not.toBe(realFetch);
    await host.runLine('/seeds query');
    await host.useShipped();
    expect(globalThis.fetch).toBe(realFetch);
    expect(host.view().status).not.toContain('Page host');
    expect((await host.runLine('/seeds query')).kind).toBe('answer');
  });

  it('a module that fails to load leaves the globals as they were', async () => {
    const realFetch = globalThis.fetch;
    const { host } = await databases.freshHost(43);
    const throwing = { 'extension/seed-desk.ts': `${graph.files['extension/seed-desk.ts'] ?? ''}\nthrow new Error('boom at load');\n` };
    expect(await host.runEdited(throwing, progress)).toMatchObject({ kind: 'rejected' });
    expect(globalThis.fetch).toBe(realFetch);
  });

  it('100,000 appends in one handler: the first 100 are stored in one write and stay, the desk is the same, the run ends named', async () => {
    const { host, store } = await databases.freshHost(44);
    const before = host.view();
    const flood = inHandler("for (let i = 0; i < 100000; i++) pi.appendEntry('flood', { i });");
    expect(await host.runEdited(flood, progress)).toMatchObject({ kind: 'running' });
    const writes = vi.spyOn(store, 'append');
    const outcome = await host.runLine('/seeds query');
    // The run's appends chain, so they are one write (one transaction), not a hundred.
    expect(writes.mock.calls.map((call) => call[2].length)).toEqual([100]);
    expect(outcome).toMatchObject({ kind: 'error', text: expect.stringContaining('appendEntry more than 100 times in one run') });
    expect(host.view().entryCount).toBe(before.entryCount + 100);
    expect(host.view().rows).toEqual(before.rows);
    await host.useShipped();
    newWorker();
    const reloaded = await PlaygroundHost.start(store, seededIdSource(45));
    await reloaded.finishOpening();
    expect(reloaded.view().entryCount).toBe(before.entryCount + 100);
    expect(reloaded.view().rows).toEqual(before.rows);
  });
});
