/**
 * The confirmation machine without a DOM or a worker: `prepare` and `commit` are fakes that
 * return the protocol's LineOutcome / CommitOutcomeView values, and record what they were given.
 * Where a test must observe an in-between state (reading, committing) the fake returns a promise
 * the test settles itself, so nothing depends on timing.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor, type SnapshotFrom } from 'xstate';
import type { CommitOutcomeView, DeskChange, LineOutcome } from '../protocol/messages';
import { confirmationMachine, type ConfirmationEvent, type ConfirmationStateName } from './confirmation';

const SID = '0b1c2d3e-aaaa-4bbb-8ccc-ddddeeeeffff';
const RESERVE_LINE = '/seeds reserve basil-genovese 2';
const RESERVE: DeskChange = { kind: 'reservation', action: 'reserve', id: 'basil-genovese', packets: 2 };

type CommitInput = { change: DeskChange; expectedRevision: string };
type Snap = SnapshotFrom<typeof confirmationMachine>;

interface Deferred<T> {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
}

function deferred<T>(): Deferred<T> {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

/**
 * A tiny fake worker: a current revision that "anything else on the page" may move, a prepare
 * that reads it, and a commit whose behaviour each test chooses.
 */
function harness(options: {
  prepare?: (line: string, world: { revision: string }) => LineOutcome | Promise<LineOutcome>;
  commit?: (input: CommitInput, world: { revision: string }) => CommitOutcomeView | Promise<CommitOutcomeView>;
} = {}) {
  const world = { revision: `${SID}:root` };
  const prepareCalls: string[] = [];
  const commitCalls: CommitInput[] = [];
  const prepare =
    options.prepare ??
    ((_line: string, w: { revision: string }): LineOutcome => ({
      kind: 'confirm',
      change: RESERVE,
      revision: w.revision,
      title: 'Reserve 2 basil-genovese?',
      message: `Reserve 2 basil-genovese on this branch. Decided on revision ${w.revision}.`,
    }));
  const commit =
    options.commit ??
    ((_input: CommitInput, w: { revision: string }): CommitOutcomeView => {
      w.revision = `${SID}:c0ffee01`;
      return { kind: 'committed', revision: w.revision, message: `basil-genovese: 6 available, 2 reserved\nrevision: ${w.revision}` };
    });
  const machine = confirmationMachine.provide({
    actors: {
      prepare: fromPromise<LineOutcome, { line: string }>(async ({ input }) => {
        prepareCalls.push(input.line);
        return prepare(input.line, world);
      }),
      commit: fromPromise<CommitOutcomeView, CommitInput>(async ({ input }) => {
        commitCalls.push({ change: input.change, expectedRevision: input.expectedRevision });
        return commit(input, world);
      }),
    },
  });
  const actor = createActor(machine);
  actor.start();
  const settle = (state: ConfirmationStateName): Promise<Snap> => waitFor(actor, (snapshot) => snapshot.value === state, { timeout: 2000 });
  return { actor, world, prepareCalls, commitCalls, settle };
}

const confirmOutcome = (revision: string): LineOutcome => ({
  kind: 'confirm',
  change: RESERVE,
  revision,
  title: 'Reserve 2 basil-genovese?',
  message: `Reserve 2 basil-genovese on this branch: 0 reserved, 8 available now, 2 reserved, 6 available after. Decided on revision ${revision}.`,
});

const STALE: CommitOutcomeView = { kind: 'refused', code: 'stale-revision', message: 'Refused (stale-revision): the branch moved on.' };

describe('confirmation machine: idle and reading', () => {
  it('starts idle with an empty context, and refuses CONFIRM, CANCEL and DISMISS there', () => {
    const { actor, prepareCalls, commitCalls } = harness();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context).toEqual({ line: '', change: null, revision: null, title: '', message: '', result: '', code: null });
    expect(snapshot.can({ type: 'CONFIRM' })).toBe(false);
    expect(snapshot.can({ type: 'CANCEL' })).toBe(false);
    expect(snapshot.can({ type: 'DISMISS' })).toBe(false);
    expect(snapshot.can({ type: 'REQUEST', line: RESERVE_LINE })).toBe(true);
    actor.send({ type: 'CONFIRM' });
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('idle');
    expect(prepareCalls).toEqual([]);
    expect(commitCalls).toEqual([]);
  });

  it('idle → reading on REQUEST: remembers the line and hands it to prepare; reading refuses everything else', async () => {
    const pending = deferred<LineOutcome>();
    const { actor, prepareCalls, settle } = harness({ prepare: () => pending.promise });
    actor.send({ type: 'REQUEST', line: RESERVE_LINE });
    const reading = actor.getSnapshot();
    expect(reading.value).toBe('reading');
    expect(reading.context.line).toBe(RESERVE_LINE);
    await waitForCalls(prepareCalls, 1);
    expect(prepareCalls).toEqual([RESERVE_LINE]);
    for (const event of [{ type: 'CONFIRM' }, { type: 'CANCEL' }, { type: 'DISMISS' }, { type: 'REQUEST', line: '/seeds query' }] as ConfirmationEvent[]) {
      expect(reading.can(event)).toBe(false);
    }
    pending.resolve(confirmOutcome(`${SID}:root`));
    await settle('open');
  });

  it('reading → open on a confirm outcome: the context holds the change, the revision read BEFORE the dialog, title and message', async () => {
    const { actor, world, settle, commitCalls } = harness({ prepare: (_line, w) => confirmOutcome(w.revision) });
    world.revision = `${SID}:aaaa0001`;
    actor.send({ type: 'REQUEST', line: RESERVE_LINE });
    const open = await settle('open');
    // Something else happens on the page while the dialog waits: the context must not follow it.
    world.revision = `${SID}:bbbb0002`;
    expect(actor.getSnapshot().context).toEqual({
      line: RESERVE_LINE,
      change: RESERVE,
      revision: `${SID}:aaaa0001`,
      title: 'Reserve 2 basil-genovese?',
      message: `Reserve 2 basil-genovese on this branch: 0 reserved, 8 available now, 2 reserved, 6 available after. Decided on revision ${SID}:aaaa0001.`,
      result: '',
      code: null,
    });
    expect(open.can({ type: 'CONFIRM' })).toBe(true);
    expect(open.can({ type: 'CANCEL' })).toBe(true);
    expect(commitCalls).toEqual([]);
  });

  it('reading → refused on a refused outcome, keeping the code and the text', async () => {
    const text = 'Refused (invalid-target): "nope" is not a desk item.\nNext: Pick an id from a query result.';
    const { actor, settle, commitCalls } = harness({ prepare: () => ({ kind: 'refused', code: 'invalid-target', text }) });
    actor.send({ type: 'REQUEST', line: '/seeds reserve nope 1' });
    const refused = await settle('refused');
    expect(refused.context.code).toBe('invalid-target');
    expect(refused.context.result).toBe(text);
    expect(refused.context.change).toBeNull();
    expect(refused.context.revision).toBeNull();
    expect(commitCalls).toEqual([]);
  });

  it.each([
    {
      kind: 'answer',
      text: `basil-genovese: 8 available, 0 reserved\nrevision: ${SID}:root`,
      query: { revision: `${SID}:root`, rows: [{ id: 'basil-genovese', available: 8, reserved: 0 }] },
    },
    { kind: 'usage', text: 'Unknown subcommand "frobnicate".' },
    { kind: 'said', text: 'Added your message as entry 12345678.' },
  ] satisfies LineOutcome[])('reading → answered on a $kind outcome, with its text and no code', async (outcome) => {
    const { actor, settle, commitCalls } = harness({ prepare: () => outcome });
    actor.send({ type: 'REQUEST', line: 'whatever' });
    const answered = await settle('answered');
    expect(answered.context.result).toBe(outcome.text);
    expect(answered.context.code).toBeNull();
    expect(commitCalls).toEqual([]);
  });

  it('reading → failed when prepare throws, with the error in the result', async () => {
    const { actor, settle, commitCalls } = harness({
      prepare: () => {
        throw new Error('the worker is gone');
      },
    });
    actor.send({ type: 'REQUEST', line: RESERVE_LINE });
    const failed = await settle('failed');
    expect(failed.context.result).toBe('Failed: the worker is gone');
    expect(failed.context.code).toBeNull();
    expect(commitCalls).toEqual([]);
  });
});

describe('confirmation machine: open, committing and the outcomes', () => {
  it('open → cancelled on CANCEL: says nothing was appended, and the commit actor is never called', async () => {
    const { actor, settle, commitCalls } = harness();
    actor.send({ type: 'REQUEST', line: RESERVE_LINE });
    await settle('open');
    actor.send({ type: 'CANCEL' });
    const cancelled = actor.getSnapshot();
    expect(cancelled.value).toBe('cancelled');
    expect(cancelled.context.result).toBe('Cancelled: nothing was appended (Reserve 2 basil-genovese did not happen).');
    expect(cancelled.context.code).toBeNull();
    // A late CONFIRM after the cancel cannot resurrect the commit.
    expect(cancelled.can({ type: 'CONFIRM' })).toBe(false);
    actor.send({ type: 'CONFIRM' });
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(commitCalls).toEqual([]);
  });

  it('open → committing → committed on CONFIRM, committing with the revision from prepare although the current one moved', async () => {
    const pending = deferred<CommitOutcomeView>();
    const { actor, world, settle, commitCalls } = harness({ commit: () => pending.promise });
    actor.send({ type: 'REQUEST', line: RESERVE_LINE });
    await settle('open');
    const prepared = actor.getSnapshot().context.revision;
    expect(prepared).toBe(`${SID}:root`);
    world.revision = `${SID}:deadbeef`; // a meanwhile action moved the branch
    actor.send({ type: 'CONFIRM' });
    expect(actor.getSnapshot().value).toBe('committing');
    await waitForCalls(commitCalls, 1);
    expect(commitCalls).toEqual([{ change: RESERVE, expectedRevision: `${SID}:root` }]);
    const message = `basil-genovese: 6 available, 2 reserved\nrevision: ${SID}:12ab34cd`;
    pending.resolve({ kind: 'committed', revision: `${SID}:12ab34cd`, message });
    const committed = await settle('committed');
    expect(committed.context.result).toBe(message);
    expect(committed.context.code).toBeNull();
    expect(commitCalls).toHaveLength(1);
  });

  it('committing refuses REQUEST, CONFIRM, CANCEL and DISMISS; CONFIRM sent twice commits exactly once', async () => {
    const pending = deferred<CommitOutcomeView>();
    const { actor, settle, commitCalls, prepareCalls } = harness({ commit: () => pending.promise });
    actor.send({ type: 'REQUEST', line: RESERVE_LINE });
    await settle('open');
    actor.send({ type: 'CONFIRM' });
    actor.send({ type: 'CONFIRM' });
    const committing = actor.getSnapshot();
    expect(committing.value).toBe('committing');
    expect(committing.can({ type: 'CONFIRM' })).toBe(false);
    expect(committing.can({ type: 'CANCEL' })).toBe(false);
    expect(committing.can({ type: 'DISMISS' })).toBe(false);
    expect(committing.can({ type: 'REQUEST', line: '/seeds reserve bean-scarlet 1' })).toBe(false);
    actor.send({ type: 'REQUEST', line: '/seeds reserve bean-scarlet 1' });
    actor.send({ type: 'CANCEL' });
    expect(actor.getSnapshot().value).toBe('committing');
    pending.resolve({ kind: 'committed', revision: `${SID}:12ab34cd`, message: 'done' });
    await settle('committed');
    expect(commitCalls).toHaveLength(1);
    expect(prepareCalls).toEqual([RESERVE_LINE]);
  });

  it('open refuses REQUEST and DISMISS: a second request cannot replace an open dialog', async () => {
    const { actor, settle, prepareCalls } = harness();
    actor.send({ type: 'REQUEST', line: RESERVE_LINE });
    const open = await settle('open');
    expect(open.can({ type: 'REQUEST', line: '/seeds reserve bean-scarlet 1' })).toBe(false);
    expect(open.can({ type: 'DISMISS' })).toBe(false);
    actor.send({ type: 'REQUEST', line: '/seeds reserve bean-scarlet 1' });
    actor.send({ type: 'DISMISS' });
    expect(actor.getSnapshot().value).toBe('open');
    expect(actor.getSnapshot().context.change).toEqual(RESERVE);
    expect(prepareCalls).toEqual([RESERVE_LINE]);
  });

  it('committing → refused on a stale-revision outcome, keeping the code', async () => {
    const { actor, world, settle, commitCalls } = harness({
      commit: (input, w) => (input.expectedRevision === w.revision ? { kind: 'committed', revision: 'never', message: 'never' } : STALE),
    });
    actor.send({ type: 'REQUEST', line: RESERVE_LINE });
    await settle('open');
    world.revision = `${SID}:feedface`;
    actor.send({ type: 'CONFIRM' });
    const refused = await settle('refused');
    expect(refused.context.code).toBe('stale-revision');
    expect(refused.context.result).toBe(STALE.message);
    expect(commitCalls).toEqual([{ change: RESERVE, expectedRevision: `${SID}:root` }]);
  });

  it('committing → failed on a failed outcome, with its message', async () => {
    const message = 'Storage failed, nothing was appended: The storage transaction was aborted.';
    const { actor, settle } = harness({ commit: () => ({ kind: 'failed', message }) });
    actor.send({ type: 'REQUEST', line: RESERVE_LINE });
    await settle('open');
    actor.send({ type: 'CONFIRM' });
    const failed = await settle('failed');
    expect(failed.context.result).toBe(message);
    expect(failed.context.code).toBeNull();
  });

  it('committing → failed when the commit actor throws', async () => {
    const { actor, settle, commitCalls } = harness({
      commit: () => {
        throw new Error('the worker crashed');
      },
    });
    actor.send({ type: 'REQUEST', line: RESERVE_LINE });
    await settle('open');
    actor.send({ type: 'CONFIRM' });
    const failed = await settle('failed');
    expect(failed.context.result).toBe('Failed: the worker crashed');
    expect(failed.context.code).toBeNull();
    expect(commitCalls).toHaveLength(1);
  });
});

describe('confirmation machine: settled states', () => {
  type Driver = (h: ReturnType<typeof harness>) => Promise<void>;
  const toOpenThen = (event: 'CONFIRM' | 'CANCEL'): Driver => async (h) => {
    h.actor.send({ type: 'REQUEST', line: RESERVE_LINE });
    await h.settle('open');
    h.actor.send({ type: event });
  };
  const cases: { state: ConfirmationStateName; prepare?: () => LineOutcome; commit?: () => CommitOutcomeView; drive: Driver }[] = [
    { state: 'committed', drive: toOpenThen('CONFIRM') },
    { state: 'refused', commit: () => STALE, drive: toOpenThen('CONFIRM') },
    { state: 'cancelled', drive: toOpenThen('CANCEL') },
    {
      state: 'answered',
      prepare: () => ({ kind: 'usage', text: 'Unknown command /foo.' }),
      drive: async (h) => h.actor.send({ type: 'REQUEST', line: '/foo' }),
    },
    { state: 'failed', commit: () => ({ kind: 'failed', message: 'quota exceeded' }), drive: toOpenThen('CONFIRM') },
  ];

  it.each(cases)('$state accepts REQUEST (→ reading, context reset) and DISMISS (→ idle), and nothing else', async ({ state, prepare, commit, drive }) => {
    // First run: reach the settled state, then DISMISS.
    const first = harness({ ...(commit ? { commit } : {}), ...(prepare ? { prepare } : {}) });
    await drive(first);
    const settled = await first.settle(state);
    expect(settled.can({ type: 'DISMISS' })).toBe(true);
    expect(settled.can({ type: 'REQUEST', line: '/seeds query' })).toBe(true);
    expect(settled.can({ type: 'CONFIRM' })).toBe(false);
    expect(settled.can({ type: 'CANCEL' })).toBe(false);
    first.actor.send({ type: 'DISMISS' });
    expect(first.actor.getSnapshot().value).toBe('idle');

    // Second run: reach it again, then REQUEST a new line straight away.
    const pending = deferred<LineOutcome>();
    let calls = 0;
    const second = harness({
      ...(commit ? { commit } : {}),
      prepare: (_line, w) => {
        calls++;
        if (calls > 1) return pending.promise;
        return prepare ? prepare() : confirmOutcome(w.revision);
      },
    });
    await drive(second);
    await second.settle(state);
    second.actor.send({ type: 'REQUEST', line: '/seeds query' });
    const reading = second.actor.getSnapshot();
    expect(reading.value).toBe('reading');
    expect(reading.context).toMatchObject({ line: '/seeds query', change: null, revision: null, result: '', code: null });
    pending.resolve({ kind: 'answer', text: `revision: ${SID}:root`, query: { revision: `${SID}:root`, rows: [] } });
    const answered = await second.settle('answered');
    expect(answered.context.result).toBe(`revision: ${SID}:root`);
    expect(second.prepareCalls.at(-1)).toBe('/seeds query');
  });
});

/** Waits until a fake has been called `count` times (the actor starts its promise asynchronously). */
async function waitForCalls(calls: readonly unknown[], count: number): Promise<void> {
  await vi.waitFor(() => expect(calls.length).toBe(count), { timeout: 2000, interval: 1 });
}
