import 'fake-indexeddb/auto';
/**
 * The simulated host over a real JournalStore on fake-indexeddb: the lesson's observed behaviours
 * (cancel, confirm, the race, the latch, reopen, restart) driven the way the worker drives them.
 * Every test opens its own database; stores are closed and databases deleted afterwards.
 */
import { describe, expect, it } from 'vitest';
import { asEntryId, asSessionId, seededIdSource } from '$domain/ids';
import { customEntry, sessionHeader, userMessageEntry } from '$domain/journal/entry';
import { SEED_DESK_CUSTOM_TYPE } from '$domain/snapshot';
import type { DeskChange, HostView, LineOutcome } from '../protocol/messages';
import { CHANGED_EVENT, isConfirmAsked, type ConfirmAsked } from '../protocol/messages';
import { PlaygroundHost } from './playgroundHost';
import { freshDatabases } from './databases.testkit';
import { storedEntries } from './storeReads.testkit';

const databases = freshDatabases('host-test');
const freshHost = (seed = 7) => databases.freshHost(seed);

type Confirm = ConfirmAsked;
type Committed = Extract<LineOutcome, { kind: 'committed' }>;

function asConfirm(outcome: LineOutcome): Confirm {
  if (!isConfirmAsked(outcome)) throw new Error(`expected a confirm outcome, got ${JSON.stringify(outcome)}`);
  return outcome;
}

/** Runs a line that must stop at the extension's `ctx.ui.confirm`. */
async function prepare(host: PlaygroundHost, line: string): Promise<Confirm> {
  return asConfirm(await host.runLine(line));
}

/** The learner's answer to the dialog: the extension's code goes on from its `await`. */
function answer(host: PlaygroundHost, dialog: Confirm, confirmed = true): Promise<LineOutcome> {
  return host.answerUi({ kind: 'confirm', id: dialog.request.id, confirmed: confirmed });
}

/** Prepare, then confirm at once: a human change that nothing raced. */
async function confirmLine(host: PlaygroundHost, line: string): Promise<Committed> {
  const outcome = await answer(host, await prepare(host, line));
  if (outcome.kind !== 'committed') throw new Error(`expected a commit for ${line}, got ${JSON.stringify(outcome)}`);
  return outcome;
}

/** The current leaf, which the test knows is an entry. */
function leafOf(host: PlaygroundHost) {
  const leaf = host.view().leafId;
  if (leaf === null) throw new Error('expected a leaf');
  return asEntryId(leaf);
}

const row = (view: HostView, id: string) => {
  const found = view.rows.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no row ${id}`);
  return { reserved: found.reserved, available: found.available };
};

const changedEvents = (host: PlaygroundHost) => host.events().filter((event) => event.kind === 'event' && event.channel === CHANGED_EVENT);

const emptyQuery = (revision: string) =>
  ['basil-genovese: 8 available, 0 reserved', 'bean-scarlet: 5 available, 0 reserved', 'marigold-french: 3 available, 0 reserved', `revision: ${revision}`].join('\n');

/** What a run by the shipped extension reports besides its end, when it leaves the journal's `count` seed desk entries as they were. */
const unchanged = (count: number) => ({ by: 'shipped', deskEntries: { before: count, after: count } }) as const;

/** The answer to `/seeds query` on an empty desk (the journal holding `deskEntries` seed desk entries): the text, and the same facts as data. */
const emptyAnswer = (revision: string, deskEntries = 0): LineOutcome => ({
  kind: 'answer',
  text: emptyQuery(revision),
  query: {
    revision,
    rows: [
      { id: 'basil-genovese', available: 8, reserved: 0 },
      { id: 'bean-scarlet', available: 5, reserved: 0 },
      { id: 'marigold-french', available: 3, reserved: 0 },
    ],
  },
  ...unchanged(deskEntries),
});

const reservation = (action: 'reserve' | 'release', id: string, packets: number | string): DeskChange => ({ kind: 'reservation', action, id, packets });

describe('PlaygroundHost: start, query and conversation', () => {
  it('start on an empty database creates a session with an empty desk at <sid>:root', async () => {
    const { host, store } = await freshHost();
    const view = host.view();
    expect(await store.getSession(host.sessionId)).toBeDefined();
    expect(await store.lastSessionId()).toBe(host.sessionId);
    expect(await store.countEntries(host.sessionId)).toBe(0);
    expect(view).toMatchObject({
      sessionId: host.sessionId,
      entryCount: 0,
      leafId: null,
      revision: `${host.sessionId}:root`,
      agentEnabled: false,
      interactive: true,
      writeFailure: null,
      transientLeaf: false,
      corrupt: null,
    });
    expect(view.rows.map((r) => [r.id, r.reserved, r.available])).toEqual([
      ['basil-genovese', 0, 8],
      ['bean-scarlet', 0, 5],
      ['marigold-french', 0, 3],
    ]);
  });

  it("'/seeds query' answers with the exact desk text and revision <sid>:root", async () => {
    const { host } = await freshHost();
    expect(await host.runLine('/seeds query')).toEqual(emptyAnswer(`${host.sessionId}:root`));
    expect(await host.runLine('/seeds query bean')).toEqual({
      kind: 'answer',
      text: `bean-scarlet: 5 available, 0 reserved\nrevision: ${host.sessionId}:root`,
      query: { revision: `${host.sessionId}:root`, rows: [{ id: 'bean-scarlet', available: 5, reserved: 0 }] },
      ...unchanged(0),
    });
    expect(host.view().entryCount).toBe(0);
  });

  it("a plain line appends a user message and leaves the revision unchanged", async () => {
    const { host, store } = await freshHost();
    const before = host.view().revision;
    const outcome = await host.runLine('hello');
    expect(outcome.kind).toBe('said');
    const view = host.view();
    expect(view.entryCount).toBe(1);
    expect(view.revision).toBe(before);
    const branch = host.branch();
    expect(branch).toEqual([expect.objectContaining({ role: 'user', text: 'hello', revision: null })]);
    expect(view.leafId).toBe(branch[0]!.id);
    const stored = await storedEntries(store, host.sessionId);
    expect(stored.map((r) => r.id)).toEqual([view.leafId]);
    expect(stored[0]!.entry).toMatchObject({ type: 'message', parentId: null, message: { role: 'user', content: [{ type: 'text', text: 'hello' }] } });
    expect(changedEvents(host)).toEqual([]);
  });

  it('an empty line and a /seeds line the extension cannot parse answer with usage and append nothing', async () => {
    const { host } = await freshHost();
    expect((await host.runLine('')).kind).toBe('usage');
    expect((await host.runLine('   ')).kind).toBe('usage');
    const bare = await host.runLine('/seeds');
    expect(bare).toEqual({ kind: 'usage', text: expect.stringMatching(/^\/seeds needs a subcommand\.\nUsage:\n/), ...unchanged(0) });
    expect((await host.runLine('/seeds reserve basil-genovese')).kind).toBe('usage');
    expect(host.view().entryCount).toBe(0);
    // The extension said it as a warning, through ctx.ui.notify.
    expect(host.events().some((event) => event.kind === 'notification' && event.level === 'warning' && event.text === bare.text)).toBe(true);
  });

  it('a command no extension registered goes to the model as an ordinary user message, as in the host', async () => {
    const { host, store } = await freshHost();
    const before = host.view().revision;
    const outcome = await host.runLine('/foo some args');
    expect(outcome.kind).toBe('said');
    expect(outcome.kind === 'said' && outcome.text).toMatch(/^No extension registered \/foo \(the loaded ones registered \/seeds\), so the host sent the line to the model as an ordinary message\. Added your message as entry /);
    expect(host.branch()).toEqual([expect.objectContaining({ role: 'user', text: '/foo some args' })]);
    expect(host.view().revision).toBe(before);
    expect(await store.countEntries(host.sessionId)).toBe(1);
  });
});

describe('PlaygroundHost: a confirmed human reservation', () => {
  it("'/seeds reserve basil-genovese 2' asks for confirmation, decided on the current revision, and appends nothing", async () => {
    const { host, store } = await freshHost();
    await host.runLine('hello');
    const before = host.view();
    const dialog = await prepare(host, '/seeds reserve basil-genovese 2');
    expect(dialog.request.id).toEqual(expect.any(String));
    expect(dialog.request.title).toBe('Reserve 2 basil-genovese?');
    expect(dialog.request.message).toBe(`This branch holds 0 of 8 basil-genovese packets (8 available). Decided on revision ${before.revision}.`);
    expect(dialog.text).toBe('');
    expect(host.view().entryCount).toBe(before.entryCount);
    expect(await store.countEntries(host.sessionId)).toBe(before.entryCount);
    expect(changedEvents(host)).toEqual([]);
  });

  it('cancelling: the extension says nothing changed, nothing is appended, and a later query shows the same desk', async () => {
    const { host } = await freshHost();
    const root = `${host.sessionId}:root`;
    const dialog = await prepare(host, '/seeds reserve basil-genovese 2');
    expect(await answer(host, dialog, false)).toEqual({
      kind: 'cancelled',
      text: `Cancelled: nothing was changed. The revision is still ${root}.`,
      change: reservation('reserve', 'basil-genovese', 2),
      ...unchanged(0),
    });
    expect(host.view().entryCount).toBe(0);
    expect(await host.runLine('/seeds query')).toEqual(emptyAnswer(root));
    expect(changedEvents(host)).toEqual([]);
  });

  it('confirming commits: basil 6/2, a new revision, the status line, and a changed event', async () => {
    const { host, store } = await freshHost();
    const root = host.view().revision;
    const dialog = await prepare(host, '/seeds reserve basil-genovese 2');
    const outcome = await answer(host, dialog);
    const view = host.view();
    expect(outcome).toEqual({
      kind: 'committed',
      text: ['basil-genovese: 6 available, 2 reserved', 'bean-scarlet: 5 available, 0 reserved', 'marigold-french: 3 available, 0 reserved', `revision: ${view.revision}`].join('\n'),
      change: reservation('reserve', 'basil-genovese', 2),
      revision: view.revision,
      by: 'shipped',
      deskEntries: { before: 0, after: 1 },
    });
    expect(view.revision).not.toBe(root);
    expect(view.revision).toBe(`${host.sessionId}:${view.leafId}`);
    expect(row(view, 'basil-genovese')).toEqual({ reserved: 2, available: 6 });
    expect(view.entryCount).toBe(1);
    const stored = await storedEntries(store, host.sessionId);
    expect(stored.map((r) => r.entry)).toEqual([
      expect.objectContaining({ type: 'custom', customType: 'seed-desk-state-v1', data: { version: 1, agentEnabled: false, quantities: { 'basil-genovese': 2 } } }),
    ]);
    const events = changedEvents(host);
    expect(events).toHaveLength(1);
    const payload = events[0]!.kind === 'event' ? JSON.parse(events[0]!.payload) : null;
    expect(payload).toEqual({ reason: 'reserve', revision: view.revision, agentEnabled: false, quantities: { 'basil-genovese': 2 } });
    expect(view.status).toContain('2 basil-genovese');
    expect(view.status).toContain(view.revision);
  });

  it('a dialog is answered once: a second answer to the same id changes nothing', async () => {
    const { host, store } = await freshHost();
    const dialog = await prepare(host, '/seeds reserve basil-genovese 2');
    expect((await answer(host, dialog)).kind).toBe('committed');
    const before = host.view();
    const again = await answer(host, dialog);
    expect(again).toEqual({ kind: 'usage', text: expect.stringMatching(/^That request is no longer open/), ...unchanged(1) });
    expect(host.view().entryCount).toBe(before.entryCount);
    expect(host.view().revision).toBe(before.revision);
    expect(row(host.view(), 'basil-genovese')).toEqual({ reserved: 2, available: 6 });
    expect(await store.countEntries(host.sessionId)).toBe(1);
    expect(changedEvents(host)).toHaveLength(1);
    // An id no dialog ever had is refused the same way.
    expect((await host.answerUi({ kind: 'confirm', id: 'dialog-never', confirmed: true })).kind).toBe('usage');
  });

  it('the race: a reservation lands while the bean dialog waits, so confirming bean is refused stale-revision and bean stays 0', async () => {
    const { host, store } = await freshHost();
    const bean = await prepare(host, '/seeds reserve bean-scarlet 1');
    const meanwhile = await host.meanwhileReserve('basil-genovese', 1);
    expect(meanwhile).toMatchObject({ kind: 'committed', change: reservation('reserve', 'basil-genovese', 1) });
    const outcome = await answer(host, bean);
    expect(outcome).toMatchObject({ kind: 'refused', code: 'stale-revision', change: reservation('reserve', 'bean-scarlet', 1) });
    expect(outcome.kind === 'refused' && outcome.text).toMatch(/^Refused \(stale-revision\)/);
    const view = host.view();
    expect(row(view, 'bean-scarlet')).toEqual({ reserved: 0, available: 5 });
    expect(row(view, 'basil-genovese')).toEqual({ reserved: 1, available: 7 });
    expect(view.entryCount).toBe(1);
    expect(await store.countEntries(host.sessionId)).toBe(1);
  });

  it('a tree move during the dialog (stepBack across a desk entry) makes the commit stale', async () => {
    const { host, store } = await freshHost();
    await confirmLine(host, '/seeds reserve basil-genovese 2');
    const bean = await prepare(host, '/seeds reserve bean-scarlet 1');
    host.stepBack();
    expect(host.view().revision).toBe(`${host.sessionId}:root`);
    const outcome = await answer(host, bean);
    expect(outcome.kind === 'refused' && outcome.code).toBe('stale-revision');
    expect(host.view().entryCount).toBe(1);
    expect(await store.countEntries(host.sessionId)).toBe(1);
    expect(row(host.view(), 'bean-scarlet')).toEqual({ reserved: 0, available: 5 });
  });

  it('ordinary conversation during the dialog does not stale it', async () => {
    const { host } = await freshHost();
    const dialog = await prepare(host, '/seeds reserve marigold-french 3');
    expect((await host.runLine('still thinking')).kind).toBe('said');
    const outcome = await answer(host, dialog);
    expect(outcome.kind).toBe('committed');
    expect(row(host.view(), 'marigold-french')).toEqual({ reserved: 3, available: 0 });
    expect(host.view().entryCount).toBe(2);
  });

  it("'/seeds reserve nope 1' is refused invalid-target before any dialog, appending nothing", async () => {
    const { host } = await freshHost();
    const outcome = await host.runLine('/seeds reserve nope 1');
    expect(outcome).toMatchObject({ kind: 'refused', code: 'invalid-target', change: reservation('reserve', 'nope', 1) });
    expect(host.view().entryCount).toBe(0);
  });

  it("'/seeds reserve basil-genovese 0' is refused invalid-quantity before any dialog; the count stays as typed", async () => {
    const { host } = await freshHost();
    for (const count of ['0', '-1', '1.5', 'two']) {
      const outcome = await host.runLine(`/seeds reserve basil-genovese ${count}`);
      expect(outcome.kind === 'refused' && outcome.code, count).toBe('invalid-quantity');
      expect(outcome.kind === 'refused' && outcome.change?.kind === 'reservation' && String(outcome.change.packets), count).toBe(String(Number.isNaN(Number(count)) ? count : Number(count)));
    }
    expect(host.view().entryCount).toBe(0);
  });

  it('more than available and more than held are refused before any dialog', async () => {
    const { host } = await freshHost();
    const tooMany = await host.runLine('/seeds reserve bean-scarlet 6');
    expect(tooMany.kind === 'refused' && tooMany.code).toBe('insufficient-availability');
    const tooFew = await host.runLine('/seeds release bean-scarlet 1');
    expect(tooFew.kind === 'refused' && tooFew.code).toBe('insufficient-reservation');
    expect(host.view().entryCount).toBe(0);
  });

  it("the grant: '/seeds agent on' asks for confirmation, and confirming it switches the agent on", async () => {
    const { host } = await freshHost();
    const root = host.view().revision;
    const dialog = await prepare(host, '/seeds agent on');
    expect(dialog.request.title).toBe('Switch the agent on?');
    expect(dialog.request.message).toMatch(/^The agent may then reserve and release/);
    expect(host.view().agentEnabled).toBe(false);
    expect(host.view().entryCount).toBe(0);
    const outcome = await answer(host, dialog);
    expect(outcome).toMatchObject({ kind: 'committed', change: { kind: 'grant', enabled: true } satisfies DeskChange });
    const view = host.view();
    expect(view.agentEnabled).toBe(true);
    expect(view.revision).not.toBe(root);
    const payload = changedEvents(host).map((event) => (event.kind === 'event' ? JSON.parse(event.payload) : null));
    expect(payload).toEqual([expect.objectContaining({ reason: 'agent-on', agentEnabled: true })]);
    // Revoke goes through the same path.
    expect((await confirmLine(host, '/seeds agent off')).change).toEqual({ kind: 'grant', enabled: false });
    expect(host.view().agentEnabled).toBe(false);
  });
});

describe('PlaygroundHost: headless', () => {
  it('setInteractive(false) refuses human reservations and the grant with ui-required, before any dialog; queries still answer', async () => {
    const { host } = await freshHost();
    host.setInteractive(false);
    expect(host.view().interactive).toBe(false);
    for (const line of ['/seeds reserve basil-genovese 2', '/seeds release basil-genovese 1', '/seeds agent on', '/seeds agent off']) {
      const outcome = await host.runLine(line);
      expect(outcome.kind === 'refused' && outcome.code, line).toBe('ui-required');
    }
    // The answer's data is the same; its text says no UI showed it.
    const query = await host.runLine('/seeds query');
    const expected = emptyAnswer(`${host.sessionId}:root`);
    expect(query).toMatchObject({ kind: 'answer', query: expected.kind === 'answer' ? expected.query : null });
    expect(query.kind === 'answer' && query.text).toContain(emptyQuery(`${host.sessionId}:root`));
    expect(host.view().entryCount).toBe(0);
  });

  it('one headless line (the Refusals demo) runs without a UI, and the host keeps its UI after it', async () => {
    const { host } = await freshHost();
    const outcome = await host.runLine('/seeds reserve basil-genovese 2', true);
    expect(outcome.kind === 'refused' && outcome.code).toBe('ui-required');
    expect(host.view().interactive).toBe(true);
    expect((await host.runLine('/seeds reserve basil-genovese 2')).kind).toBe('asked');
  });
});

describe('PlaygroundHost: what an outcome says besides its end (the extension that ran, the seed desk entries before and after)', () => {
  it('a committed reservation: one seed desk entry more after than before; a message and a request count none', async () => {
    const { host } = await freshHost(8);
    expect(await host.runLine('hello')).toMatchObject({ kind: 'said', by: 'shipped', deskEntries: { before: 0, after: 0 } });
    const basil = await prepare(host, '/seeds reserve basil-genovese 2');
    expect(basil).toMatchObject({ by: 'shipped', deskEntries: { before: 0, after: 0 } });
    expect(await answer(host, basil)).toMatchObject({ kind: 'committed', by: 'shipped', deskEntries: { before: 0, after: 1 } });
    const bean = await prepare(host, '/seeds reserve bean-scarlet 1');
    expect(bean).toMatchObject({ by: 'shipped', deskEntries: { before: 1, after: 1 } });
    expect(await answer(host, bean)).toMatchObject({ kind: 'committed', by: 'shipped', deskEntries: { before: 1, after: 2 } });
    // The journal's entries, every branch: back at the start the desk is empty, and the journal still holds both.
    host.moveLeaf(null);
    expect(host.view().rows.every((candidate) => candidate.reserved === 0)).toBe(true);
    expect(await confirmLine(host, '/seeds reserve marigold-french 1')).toMatchObject({ by: 'shipped', deskEntries: { before: 2, after: 3 } });
    expect(host.view().seedDeskEntryCount).toBe(3);
  });

  it('a refusal: as many seed desk entries after as before, refused at once or after the dialog; a cancel the same', async () => {
    const { host } = await freshHost(9);
    await confirmLine(host, '/seeds reserve basil-genovese 2');
    expect(await host.runLine('/seeds reserve basil-genovese 99')).toMatchObject({ kind: 'refused', code: 'insufficient-availability', by: 'shipped', deskEntries: { before: 1, after: 1 } });
    expect(await host.runLine('/seeds agent on', true)).toMatchObject({ kind: 'refused', code: 'ui-required', by: 'shipped', deskEntries: { before: 1, after: 1 } });
    // The race: the reservation made meanwhile is one entry more; the stale confirmation adds none.
    const bean = await prepare(host, '/seeds reserve bean-scarlet 1');
    expect(await host.meanwhileReserve('marigold-french', 1)).toMatchObject({ kind: 'committed', by: 'shipped', deskEntries: { before: 1, after: 2 } });
    expect(await answer(host, bean)).toMatchObject({ kind: 'refused', code: 'stale-revision', by: 'shipped', deskEntries: { before: 2, after: 2 } });
    expect(await answer(host, await prepare(host, '/seeds agent on'), false)).toMatchObject({ kind: 'cancelled', by: 'shipped', deskEntries: { before: 2, after: 2 } });
    expect(host.view().seedDeskEntryCount).toBe(2);
  });

  it('the corrupt-snapshot demo counts the entries it appends', async () => {
    const { host } = await freshHost(10);
    expect(await host.appendCorruptSnapshot()).toMatchObject({ kind: 'notice', by: 'shipped', deskEntries: { before: 0, after: 1 } });
    expect(await host.appendCorruptSnapshot('valid')).toMatchObject({ kind: 'notice', by: 'shipped', deskEntries: { before: 1, after: 3 } });
  });
});

describe('PlaygroundHost: storage failure latch', () => {
  it.each(['abort', 'quota'] as const)("injectFault('%s'): the confirmed change fails, the latch is set, nothing is stored; queries still work", async (fault) => {
    const { host, store } = await freshHost();
    await host.runLine('hello');
    const dialog = await prepare(host, '/seeds reserve basil-genovese 2');
    const before = host.view();
    host.injectFault(fault);
    const outcome = await answer(host, dialog);
    // The append the store did not keep is gone from memory too: no seed desk entry after it either.
    expect(outcome).toEqual({ kind: 'failed', text: expect.stringMatching(/^Storage failed, nothing was appended: /), ...unchanged(0) });
    const view = host.view();
    expect(view.writeFailure).toMatch(fault === 'abort' ? /abort/i : /quota/i);
    expect(view.entryCount).toBe(before.entryCount);
    expect(view.revision).toBe(before.revision);
    expect(row(view, 'basil-genovese')).toEqual({ reserved: 0, available: 8 });
    expect(await store.countEntries(host.sessionId)).toBe(before.entryCount);
    expect(host.events().some((event) => event.kind === 'notification' && event.level === 'error')).toBe(true);

    // Latched: the next write fails without reaching the store, though no fault is armed any more.
    const said = await host.runLine('x');
    expect(said.kind).toBe('failed');
    // The extension's own append throws now: the host reports it as the extension's error.
    const next = await prepare(host, '/seeds reserve basil-genovese 2');
    const refused = await answer(host, next);
    expect(refused.kind).toBe('error');
    expect(refused.kind === 'error' && refused.text).toMatch(/^Extension "command:seeds" error: Writes are stopped after a storage failure/);
    expect(host.view().entryCount).toBe(before.entryCount);
    expect(await store.countEntries(host.sessionId)).toBe(before.entryCount);
    // Reads still answer.
    expect(await host.runLine('/seeds query')).toEqual(emptyAnswer(before.revision));
  });

  it('after a failed write, the status line is the desk as stored, not the lost change', async () => {
    const { host } = await freshHost();
    const dialog = await prepare(host, '/seeds reserve basil-genovese 2');
    host.injectFault('abort');
    expect((await answer(host, dialog)).kind).toBe('failed');
    const view = host.view();
    expect(view.status).toBe(`Seed desk: nothing reserved; agent off; revision ${view.revision}`);
  });

  it('reopen() clears the latch, and a confirmed change then succeeds', async () => {
    const { host, store } = await freshHost();
    const root = host.view().revision;
    host.injectFault('abort');
    expect((await answer(host, await prepare(host, '/seeds reserve basil-genovese 2'))).kind).toBe('failed');
    expect(host.view().writeFailure).not.toBeNull();
    await host.reopen();
    expect(host.view().writeFailure).toBeNull();
    const again = await prepare(host, '/seeds reserve basil-genovese 2');
    expect(again.request.message).toContain(`Decided on revision ${root}.`);
    expect((await answer(host, again)).kind).toBe('committed');
    expect(row(host.view(), 'basil-genovese')).toEqual({ reserved: 2, available: 6 });
    expect(await store.countEntries(host.sessionId)).toBe(1);
    expect((await host.runLine('x')).kind).toBe('said');
  });
});

describe('PlaygroundHost: leaf moves, reopen and restart', () => {
  it('navigate and moveLeaf make the leaf transient with a notice; appending nothing', async () => {
    const { host } = await freshHost();
    await host.runLine('first');
    const first = leafOf(host);
    await confirmLine(host, '/seeds reserve basil-genovese 2');
    const desk = leafOf(host);

    host.moveLeaf(first);
    let view = host.view();
    expect(view.leafId).toBe(first);
    expect(view.transientLeaf).toBe(true);
    expect(view.notice).toMatch(/without appending/);
    expect(view.revision).toBe(`${host.sessionId}:root`);
    expect(row(view, 'basil-genovese')).toEqual({ reserved: 0, available: 8 });

    // /tree on the entry that is already the leaf changes nothing, as in the host.
    host.navigate(first);
    expect(host.view().leafId).toBe(first);

    // /tree on a user message puts the leaf on its parent (here: before the first entry).
    host.moveLeaf(desk);
    host.navigate(first);
    view = host.view();
    expect(view.leafId).toBeNull();
    expect(view.transientLeaf).toBe(true);
    expect(view.notice).toMatch(/start of the session/);

    // Back onto the last appended entry: no longer transient, and the notice goes.
    host.navigate(desk);
    view = host.view();
    expect(view.leafId).toBe(desk);
    expect(view.transientLeaf).toBe(false);
    expect(view.notice).toBeNull();
    expect(view.entryCount).toBe(2);
  });

  it('reopen puts the leaf back on the last appended entry and says the move did not survive', async () => {
    const { host } = await freshHost();
    await host.runLine('first');
    await confirmLine(host, '/seeds reserve basil-genovese 2');
    const last = host.view();
    host.moveLeaf(null);
    expect(host.view().transientLeaf).toBe(true);
    await host.reopen();
    const view = host.view();
    expect(view.leafId).toBe(last.leafId);
    expect(host.currentJournal().lastAppendedId()).toBe(last.leafId);
    expect(view.transientLeaf).toBe(false);
    expect(view.revision).toBe(last.revision);
    expect(view.notice).toMatch(/did not survive/);
    expect(row(view, 'basil-genovese')).toEqual({ reserved: 2, available: 6 });
  });

  it('a sibling branch made after a move survives reopen, and holds its own reservation', async () => {
    const { host } = await freshHost();
    await host.runLine('first');
    const first = leafOf(host);
    const basil = await confirmLine(host, '/seeds reserve basil-genovese 2');
    host.moveLeaf(first);
    const sibling = await confirmLine(host, '/seeds reserve basil-genovese 1');
    expect(sibling.revision).not.toBe(basil.revision);
    expect(host.view().transientLeaf).toBe(false);
    await host.reopen();
    const view = host.view();
    expect(view.revision).toBe(sibling.revision);
    expect(row(view, 'basil-genovese')).toEqual({ reserved: 1, available: 7 });
    expect(view.notice).not.toMatch(/did not survive/);
    // The original branch keeps its own desk and revision.
    host.moveLeaf(asEntryId(basil.revision.split(':')[1]!));
    expect(host.view().revision).toBe(basil.revision);
    expect(row(host.view(), 'basil-genovese')).toEqual({ reserved: 2, available: 6 });
  });

  it('a restart on the same database restores the session, revision and rows', async () => {
    const { host, store, name } = await freshHost(7);
    await host.runLine('hello');
    await confirmLine(host, '/seeds reserve basil-genovese 2');
    await confirmLine(host, '/seeds agent on');
    const before = host.view();
    const beforeBranch = host.branch();
    const query = await host.runLine('/seeds query');
    store.close();

    const reopened = await databases.openStore(name);
    const restarted = await PlaygroundHost.start(reopened, seededIdSource(99));
    const after = restarted.view();
    expect(restarted.sessionId).toBe(host.sessionId);
    expect(after.revision).toBe(before.revision);
    expect(after.rows).toEqual(before.rows);
    expect(after.agentEnabled).toBe(true);
    expect(after.entryCount).toBe(before.entryCount);
    expect(after.leafId).toBe(before.leafId);
    expect(restarted.branch()).toEqual(beforeBranch);
    expect(await restarted.runLine('/seeds query')).toEqual(query);
    // The restored revision is the live one: a change decided on it goes through.
    const prepared = await prepare(restarted, '/seeds release basil-genovese 1');
    expect(prepared.request.message).toContain(`Decided on revision ${before.revision}.`);
    expect((await answer(restarted, prepared)).kind).toBe('committed');
    expect(row(restarted.view(), 'basil-genovese')).toEqual({ reserved: 1, available: 7 });
  });

  it('a restart puts a transient leaf back on the last appended entry', async () => {
    const { host, store, name } = await freshHost(7);
    await host.runLine('one');
    await host.runLine('two');
    const last = host.view().leafId;
    host.stepBack();
    expect(host.view().transientLeaf).toBe(true);
    store.close();
    const restarted = await PlaygroundHost.start(await databases.openStore(name), seededIdSource(99));
    expect(restarted.view().leafId).toBe(last);
    expect(restarted.view().transientLeaf).toBe(false);
  });
});

describe('PlaygroundHost: what it finds in the database', () => {
  const SID = asSessionId('c0ffee00-1111-4222-8333-444455556666');
  const at = (id: string, parentId: string | null) => ({ id: asEntryId(id), parentId: parentId === null ? null : asEntryId(parentId), timestamp: '2026-05-01T12:00:00.000Z' });

  it('a corrupt desk entry on the stored branch: the view says so, desk commands are refused corrupt-state, an earlier point still works', async () => {
    const store = await databases.openStore();
    await store.createSession(sessionHeader(SID, '2026-05-01T12:00:00.000Z', '/test'), [
      userMessageEntry('before', at('m0000001', null)),
      customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: false, quantities: { 'basil-genovese': 9 } }, at('c0000001', 'm0000001')),
      customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: true, quantities: {} }, at('d0000002', 'c0000001')),
    ]);
    await store.setLastSession(SID);
    const host = await PlaygroundHost.start(store, seededIdSource(3));
    const view = host.view();
    expect(host.sessionId).toBe(SID);
    expect(view.revision).toBe(`${SID}:d0000002`);
    expect(view.corrupt).toEqual({ entryId: 'c0000001', problem: expect.stringContaining('basil-genovese') });
    expect(view.agentEnabled).toBe(false); // the later valid entry does not launder the corrupt one
    for (const line of ['/seeds query', '/seeds reserve bean-scarlet 1', '/seeds agent on']) {
      const outcome = await host.runLine(line);
      expect(outcome.kind === 'refused' && outcome.code, line).toBe('corrupt-state');
    }
    expect(await store.countEntries(SID)).toBe(3);
    // Conversation still appends on a corrupt branch.
    expect((await host.runLine('what now?')).kind).toBe('said');
    // Stepping back above the corrupt entry gives a usable desk again.
    host.moveLeaf(asEntryId('m0000001'));
    expect(await host.runLine('/seeds query')).toEqual(emptyAnswer(`${SID}:root`, 2));
    expect((await confirmLine(host, '/seeds reserve bean-scarlet 1')).kind).toBe('committed');
    expect(row(host.view(), 'bean-scarlet')).toEqual({ reserved: 1, available: 4 });
    expect(host.view().corrupt).toBeNull();
  });

  it('a last-session pointer to a session that is gone starts a fresh session instead', async () => {
    const store = await databases.openStore();
    await store.setLastSession(SID);
    const host = await PlaygroundHost.start(store, seededIdSource(5));
    expect(host.sessionId).not.toBe(SID);
    expect(await store.lastSessionId()).toBe(host.sessionId);
    expect(await store.getSession(host.sessionId)).toBeDefined();
    expect(host.view()).toMatchObject({ entryCount: 0, revision: `${host.sessionId}:root` });
  });
});
