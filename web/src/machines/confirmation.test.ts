/**
 * The confirmation machine without a DOM or a worker. The page sends the line itself; when the
 * worker answers `confirm` (the extension stopped at `ctx.ui.confirm`) the page sends OPENED. The
 * machine then answers the dialog through its `answer` actor, a fake here that records what it was
 * given and returns the protocol's LineOutcome values. Where a test must observe an in-between
 * state (committing, cancelling) the fake returns a promise the test settles itself, so nothing
 * depends on timing.
 */
import { describe, expect, it, vi } from 'vitest';
import { createActor, fromPromise, waitFor, type SnapshotFrom } from 'xstate';
import type { DeskChange, LineOutcome } from '../protocol/messages';
import { confirmationMachine, type ConfirmationEvent, type ConfirmationStateName } from './confirmation';

const SID = '0b1c2d3e-aaaa-4bbb-8ccc-ddddeeeeffff';
const ROOT = `${SID}:root`;
const RESERVE: DeskChange = { kind: 'reservation', action: 'reserve', id: 'basil-genovese', packets: 2 };

type Confirm = Extract<LineOutcome, { kind: 'confirm' }>;
type AnswerInput = { dialogId: string; confirmed: boolean };
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

/** The extension's dialog for `/seeds reserve basil-genovese 2`, as the worker reports it. */
const dialog = (dialogId = 'dialog-1', text = ''): Confirm => ({
  kind: 'confirm',
  dialogId,
  title: 'Reserve 2 basil-genovese?',
  message: `This branch holds 0 of 8 basil-genovese packets (8 available). Decided on revision ${ROOT}.`,
  text,
});

const COMMITTED: LineOutcome = {
  kind: 'committed',
  text: `basil-genovese: 6 available, 2 reserved\nrevision: ${SID}:c0ffee01`,
  change: RESERVE,
  revision: `${SID}:c0ffee01`,
};
const STALE: LineOutcome = {
  kind: 'refused',
  code: 'stale-revision',
  text: `Refused (stale-revision): the branch moved on since revision ${ROOT}.`,
  change: RESERVE,
};
const CANCELLED: LineOutcome = { kind: 'cancelled', text: `Cancelled: nothing was changed. The revision is still ${ROOT}.`, change: RESERVE };
const STORAGE_FAILED: LineOutcome = { kind: 'failed', text: 'Storage failed, nothing was appended: The storage transaction was aborted. Writes are stopped until you reopen the session.' };
const EXTENSION_ERROR: LineOutcome = { kind: 'error', text: 'Extension "command:seeds" error: Writes are stopped after a storage failure (aborted).' };

/**
 * A tiny fake worker behind the `answer` actor: each call is recorded, and answered by the test's
 * `answer` function (by default: Confirm commits, Cancel cancels, as the extension does).
 */
function harness(answer: (input: AnswerInput) => LineOutcome | Promise<LineOutcome> = ({ confirmed }) => (confirmed ? COMMITTED : CANCELLED)) {
  const calls: AnswerInput[] = [];
  const machine = confirmationMachine.provide({
    actors: {
      answer: fromPromise<LineOutcome, AnswerInput>(async ({ input }) => {
        calls.push({ dialogId: input.dialogId, confirmed: input.confirmed });
        return answer(input);
      }),
    },
  });
  const actor = createActor(machine);
  actor.start();
  const settle = (state: ConfirmationStateName): Promise<Snap> => waitFor(actor, (snapshot) => snapshot.value === state, { timeout: 2000 });
  const open = (outcome: Confirm = dialog(), revision: string | null = ROOT): Snap => {
    actor.send({ type: 'OPENED', outcome, revision });
    return actor.getSnapshot();
  };
  return { actor, calls, settle, open };
}

const EMPTY_CONTEXT = { dialogId: null, title: '', message: '', revision: null, said: '', change: null, result: '', code: null };
const CONFIRM: ConfirmationEvent = { type: 'CONFIRM' };
const CANCEL: ConfirmationEvent = { type: 'CANCEL' };
const DISMISS: ConfirmationEvent = { type: 'DISMISS' };
const opened = (outcome: Confirm = dialog('dialog-9'), revision: string | null = ROOT): ConfirmationEvent => ({ type: 'OPENED', outcome, revision });

describe('confirmation machine: idle and opening', () => {
  it('starts idle with an empty context; CONFIRM and CANCEL are refused there and answer nothing', () => {
    const { actor, calls } = harness();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context).toEqual(EMPTY_CONTEXT);
    expect(snapshot.can(CONFIRM)).toBe(false);
    expect(snapshot.can(CANCEL)).toBe(false);
    expect(snapshot.can(opened())).toBe(true);
    actor.send(CONFIRM);
    actor.send(CANCEL);
    expect(actor.getSnapshot().value).toBe('idle');
    expect(calls).toEqual([]);
  });

  it('idle → open on OPENED: the context holds the dialog id, title, message, what the extension said and the revision the page saw; nothing is answered yet', () => {
    const { calls, open } = harness();
    const snapshot = open(dialog('dialog-1', 'Checking the desk first.'), `${SID}:aaaa0001`);
    expect(snapshot.value).toBe('open');
    expect(snapshot.context).toEqual({
      dialogId: 'dialog-1',
      title: 'Reserve 2 basil-genovese?',
      message: `This branch holds 0 of 8 basil-genovese packets (8 available). Decided on revision ${ROOT}.`,
      revision: `${SID}:aaaa0001`,
      said: 'Checking the desk first.',
      change: null,
      result: '',
      code: null,
    });
    expect(snapshot.can(CONFIRM)).toBe(true);
    expect(snapshot.can(CANCEL)).toBe(true);
    expect(calls).toEqual([]);
  });

  it('opens with a null revision when the page had no view yet', () => {
    const { open } = harness();
    expect(open(dialog(), null).context.revision).toBeNull();
  });

  it('open refuses OPENED and DISMISS: another dialog cannot replace the open one, and it cannot be dismissed unanswered', () => {
    const { actor, calls, open } = harness();
    const snapshot = open(dialog('dialog-1'));
    expect(snapshot.can(opened(dialog('dialog-2')))).toBe(false);
    expect(snapshot.can(DISMISS)).toBe(false);
    actor.send(opened(dialog('dialog-2')));
    actor.send(DISMISS);
    expect(actor.getSnapshot().value).toBe('open');
    expect(actor.getSnapshot().context.dialogId).toBe('dialog-1');
    expect(calls).toEqual([]);
  });
});

describe('confirmation machine: Confirm', () => {
  it('open → committing → committed: one answer with confirmed=true for the open dialog, then the extension’s text and change', async () => {
    const pending = deferred<LineOutcome>();
    const { actor, calls, settle, open } = harness(() => pending.promise);
    open(dialog('dialog-1'), `${SID}:aaaa0001`);
    actor.send(CONFIRM);
    expect(actor.getSnapshot().value).toBe('committing');
    await waitForCalls(calls, 1);
    expect(calls).toEqual([{ dialogId: 'dialog-1', confirmed: true }]);
    pending.resolve(COMMITTED);
    const committed = await settle('committed');
    expect(committed.context).toMatchObject({
      dialogId: null,
      result: COMMITTED.text,
      change: RESERVE,
      code: null,
      // What the dialog asked stays readable beside the outcome.
      title: 'Reserve 2 basil-genovese?',
      revision: `${SID}:aaaa0001`,
    });
    expect(calls).toHaveLength(1);
  });

  it('committing refuses CONFIRM, CANCEL, DISMISS and OPENED; CONFIRM sent twice answers exactly once', async () => {
    const pending = deferred<LineOutcome>();
    const { actor, calls, settle, open } = harness(() => pending.promise);
    open();
    actor.send(CONFIRM);
    actor.send(CONFIRM);
    const committing = actor.getSnapshot();
    expect(committing.value).toBe('committing');
    for (const event of [CONFIRM, CANCEL, DISMISS, opened()]) expect(committing.can(event), event.type).toBe(false);
    actor.send(CANCEL);
    actor.send(DISMISS);
    actor.send(opened());
    expect(actor.getSnapshot().value).toBe('committing');
    expect(actor.getSnapshot().context.dialogId).toBe('dialog-1');
    pending.resolve(COMMITTED);
    await settle('committed');
    expect(calls).toEqual([{ dialogId: 'dialog-1', confirmed: true }]);
  });

  it('committing → refused on a stale-revision outcome: the code, the text and the change the extension reported', async () => {
    const { actor, calls, settle, open } = harness(() => STALE);
    open();
    actor.send(CONFIRM);
    const refused = await settle('refused');
    expect(refused.context).toMatchObject({ code: 'stale-revision', result: STALE.text, change: RESERVE, dialogId: null });
    expect(calls).toEqual([{ dialogId: 'dialog-1', confirmed: true }]);
  });

  it('committing → refused keeps a null change when the extension reported none', async () => {
    const text = 'Refused (corrupt-state): entry bad00001 holds 99 of 8.';
    const { actor, settle, open } = harness(() => ({ kind: 'refused', code: 'corrupt-state', text, change: null }));
    open();
    actor.send(CONFIRM);
    const refused = await settle('refused');
    expect(refused.context).toMatchObject({ code: 'corrupt-state', result: text, change: null });
  });

  it.each([
    { name: 'a failed outcome (storage)', outcome: STORAGE_FAILED },
    { name: 'an extension error', outcome: EXTENSION_ERROR },
  ])('committing → failed on $name, with its text and no code', async ({ outcome }) => {
    const { actor, settle, open } = harness(() => outcome);
    open();
    actor.send(CONFIRM);
    const failed = await settle('failed');
    expect(failed.context).toMatchObject({ result: outcome.text, code: null, change: null, dialogId: null });
  });

  it('committing → failed when the answer actor throws, with the error in the result', async () => {
    const { actor, calls, settle, open } = harness(() => {
      throw new Error('the worker crashed');
    });
    open();
    actor.send(CONFIRM);
    const failed = await settle('failed');
    expect(failed.context).toMatchObject({ result: 'Failed: the worker crashed', code: null, dialogId: null });
    expect(calls).toHaveLength(1);
  });

  it('committing → failed when the page never provided the answer actor', async () => {
    const actor = createActor(confirmationMachine);
    actor.start();
    actor.send(opened(dialog('dialog-1')));
    actor.send(CONFIRM);
    const failed = await waitFor(actor, (snapshot) => snapshot.value === 'failed', { timeout: 2000 });
    expect(failed.context.result).toBe('Failed: answer is not provided');
  });

  it.each([
    { kind: 'notice', text: 'The extension finished without saying what happened.' },
    { kind: 'usage', text: 'Usage: /seeds query | reserve <id> <n> | release <id> <n> | agent on|off' },
    { kind: 'said', text: 'Added your message as entry 12345678.' },
    { kind: 'answer', text: `revision: ${ROOT}`, query: { revision: ROOT, rows: [] } },
  ] satisfies LineOutcome[])('committing → answered on a $kind outcome, with its text and neither code nor change', async (outcome) => {
    const { actor, settle, open } = harness(() => outcome);
    open();
    actor.send(CONFIRM);
    const answered = await settle('answered');
    expect(answered.context).toMatchObject({ result: outcome.text, code: null, change: null, dialogId: null });
  });

  it('an answer that is another confirm re-opens the dialog with the new id, title and words, keeping the revision the page saw; the next Confirm answers the new id', async () => {
    const second: Confirm = { kind: 'confirm', dialogId: 'dialog-2', title: 'Really reserve?', message: 'Second thoughts.', text: 'The desk asks once more.' };
    const { actor, calls, settle, open } = harness(({ dialogId }) => (dialogId === 'dialog-1' ? second : COMMITTED));
    open(dialog('dialog-1'), `${SID}:aaaa0001`);
    actor.send(CONFIRM);
    const reopened = await settle('open');
    expect(reopened.context).toEqual({
      dialogId: 'dialog-2',
      title: 'Really reserve?',
      message: 'Second thoughts.',
      revision: `${SID}:aaaa0001`,
      said: 'The desk asks once more.',
      change: null,
      result: '',
      code: null,
    });
    expect(reopened.can(CONFIRM)).toBe(true);
    actor.send(CONFIRM);
    const committed = await settle('committed');
    expect(committed.context.result).toBe(COMMITTED.text);
    expect(calls).toEqual([
      { dialogId: 'dialog-1', confirmed: true },
      { dialogId: 'dialog-2', confirmed: true },
    ]);
  });
});

describe('confirmation machine: Cancel', () => {
  it('open → cancelling → cancelled: one answer with confirmed=false, then the extension’s own text and the change it reported', async () => {
    const pending = deferred<LineOutcome>();
    const { actor, calls, settle, open } = harness(() => pending.promise);
    open(dialog('dialog-1'));
    actor.send(CANCEL);
    const cancelling = actor.getSnapshot();
    expect(cancelling.value).toBe('cancelling');
    // Cancel is an answer too: a late Confirm (or a second Cancel) cannot answer the dialog again.
    for (const event of [CONFIRM, CANCEL, DISMISS, opened()]) expect(cancelling.can(event), event.type).toBe(false);
    actor.send(CONFIRM);
    actor.send(CANCEL);
    expect(actor.getSnapshot().value).toBe('cancelling');
    await waitForCalls(calls, 1);
    pending.resolve(CANCELLED);
    const cancelled = await settle('cancelled');
    expect(cancelled.context).toMatchObject({ result: CANCELLED.text, change: RESERVE, code: null, dialogId: null });
    expect(cancelled.can(CONFIRM)).toBe(false);
    actor.send(CONFIRM);
    expect(actor.getSnapshot().value).toBe('cancelled');
    expect(calls).toEqual([{ dialogId: 'dialog-1', confirmed: false }]);
  });

  it('cancelling settles on what the run ended with, not on the button: a failed answer is failed', async () => {
    const { actor, calls, settle, open } = harness(() => STORAGE_FAILED);
    open();
    actor.send(CANCEL);
    const failed = await settle('failed');
    expect(failed.context.result).toBe(STORAGE_FAILED.text);
    expect(calls).toEqual([{ dialogId: 'dialog-1', confirmed: false }]);
  });

  it('cancelling → failed when the answer actor throws', async () => {
    const { actor, settle, open } = harness(() => Promise.reject(new Error('That dialog is no longer open')));
    open();
    actor.send(CANCEL);
    const failed = await settle('failed');
    expect(failed.context.result).toBe('Failed: That dialog is no longer open');
  });

  it('cancelling → open when the extension asks again after the Cancel', async () => {
    const again: Confirm = { kind: 'confirm', dialogId: 'dialog-2', title: 'Discard the draft?', message: 'Nothing was written yet.', text: '' };
    const { actor, calls, settle, open } = harness(({ dialogId }) => (dialogId === 'dialog-1' ? again : CANCELLED));
    open(dialog('dialog-1'));
    actor.send(CANCEL);
    const reopened = await settle('open');
    expect(reopened.context).toMatchObject({ dialogId: 'dialog-2', title: 'Discard the draft?', message: 'Nothing was written yet.' });
    actor.send(CANCEL);
    await settle('cancelled');
    expect(calls).toEqual([
      { dialogId: 'dialog-1', confirmed: false },
      { dialogId: 'dialog-2', confirmed: false },
    ]);
  });
});

describe('confirmation machine: settled states', () => {
  const cases: { state: ConfirmationStateName; event: 'CONFIRM' | 'CANCEL'; outcome: LineOutcome }[] = [
    { state: 'committed', event: 'CONFIRM', outcome: COMMITTED },
    { state: 'refused', event: 'CONFIRM', outcome: STALE },
    { state: 'cancelled', event: 'CANCEL', outcome: CANCELLED },
    { state: 'answered', event: 'CONFIRM', outcome: { kind: 'notice', text: 'Done, somehow.' } },
    { state: 'failed', event: 'CONFIRM', outcome: EXTENSION_ERROR },
  ];

  it.each(cases)('$state accepts OPENED (→ open, fresh context) and DISMISS (→ idle), and nothing else', async ({ state, event, outcome }) => {
    // First run: reach the settled state, then DISMISS.
    const first = harness(() => outcome);
    first.open();
    first.actor.send({ type: event });
    const settled = await first.settle(state);
    expect(settled.can(DISMISS)).toBe(true);
    expect(settled.can(opened())).toBe(true);
    expect(settled.can(CONFIRM)).toBe(false);
    expect(settled.can(CANCEL)).toBe(false);
    first.actor.send(CONFIRM);
    first.actor.send(CANCEL);
    expect(first.actor.getSnapshot().value).toBe(state);
    expect(first.calls).toHaveLength(1);
    first.actor.send(DISMISS);
    expect(first.actor.getSnapshot().value).toBe('idle');

    // Second run: reach it again, then the extension opens the next dialog straight away.
    const second = harness(() => outcome);
    second.open();
    second.actor.send({ type: event });
    await second.settle(state);
    const next: Confirm = { kind: 'confirm', dialogId: 'dialog-7', title: 'Switch the agent on?', message: 'The agent may then reserve.', text: '' };
    const reopened = second.open(next, `${SID}:bbbb0002`);
    expect(reopened.value).toBe('open');
    expect(reopened.context).toEqual({
      dialogId: 'dialog-7',
      title: 'Switch the agent on?',
      message: 'The agent may then reserve.',
      revision: `${SID}:bbbb0002`,
      said: '',
      change: null,
      result: '',
      code: null,
    });
    expect(second.calls).toHaveLength(1);
  });
});

/** Waits until a fake has been called `count` times (the actor starts its promise asynchronously). */
async function waitForCalls(calls: readonly unknown[], count: number): Promise<void> {
  await vi.waitFor(() => expect(calls.length).toBe(count), { timeout: 2000, interval: 1 });
}
