/**
 * The confirmation machine without a DOM or a worker. The page sends the line itself; when the
 * worker answers with an `asked` outcome for a `confirm` request (the extension stopped at
 * `ctx.ui.confirm`) the page sends OPENED. Confirm or Cancel moves the machine to `committing` or
 * `cancelling`; the page sends the answer itself and then tells the machine how the resumed run
 * ended (SETTLED) or that the answer never arrived (FAILED). The tests play the page's part by
 * sending those events: the machine invokes nothing, so there is nothing to fake and nothing to
 * wait for.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type AnyActorRef, type InspectionEvent, type SnapshotFrom } from 'xstate';
import { LineOutcomeSchema, type ConfirmAsked, type DeskChange, type LineOutcome, type RunEndKind } from '../protocol/messages';
import { confirmationMachine, type ConfirmationContext, type ConfirmationEvent, type ConfirmationStateName } from './confirmation';
import { isBusy, SETTLES_IN } from './confirmationStates';

const SID = '0b1c2d3e-aaaa-4bbb-8ccc-ddddeeeeffff';
const ROOT = `${SID}:root`;
const RESERVE: DeskChange = { kind: 'reservation', action: 'reserve', id: 'basil-genovese', packets: 2 };

type Snap = SnapshotFrom<typeof confirmationMachine>;
type Outcome<K extends RunEndKind> = Extract<LineOutcome, { kind: K }>;

/** Who ran the line and the seed desk entries around it: every outcome carries them. */
const RAN = { by: 'shipped', deskEntries: { before: 3, after: 3 } } as const;

/** The extension's dialog for `/seeds reserve basil-genovese 2`, as the worker reports it. */
const dialog = (id = 'dialog-1', text = '', revision = ROOT): ConfirmAsked => ({
  kind: 'asked',
  request: {
    kind: 'confirm',
    id,
    title: 'Reserve 2 basil-genovese?',
    message: `This branch holds 0 of 8 basil-genovese packets (8 available). Decided on revision ${revision}.`,
  },
  text,
  revision,
  ...RAN,
});

const COMMITTED: Outcome<'committed'> = {
  kind: 'committed',
  text: `basil-genovese: 6 available, 2 reserved\nrevision: ${SID}:c0ffee01`,
  change: RESERVE,
  revision: `${SID}:c0ffee01`,
  by: 'shipped',
  deskEntries: { before: 3, after: 4 },
};
const STALE: Outcome<'refused'> = {
  kind: 'refused',
  code: 'stale-revision',
  text: `Refused (stale-revision): the branch moved on since revision ${ROOT}.`,
  change: RESERVE,
  ...RAN,
};
const CANCELLED: Outcome<'cancelled'> = { kind: 'cancelled', text: `Cancelled: nothing was changed. The revision is still ${ROOT}.`, change: RESERVE, ...RAN };
const STORAGE_FAILED: Outcome<'failed'> = {
  kind: 'failed',
  text: 'Storage failed, nothing was appended: The storage transaction was aborted. Writes are stopped until you reopen the session.',
  ...RAN,
};
const EXTENSION_ERROR: Outcome<'error'> = { kind: 'error', text: 'Extension "command:seeds" error: Writes are stopped after a storage failure (aborted).', by: 'edited', deskEntries: { before: 3, after: 3 } };
const NOTICE: Outcome<'notice'> = { kind: 'notice', text: 'The extension finished without saying what happened.', ...RAN };

/**
 * One outcome of each kind a run can end with. The mapped type makes a kind without an entry (or
 * an entry of the wrong kind) a compile error, so this list grows with `RunEndKind`.
 */
const ONE_OF_EACH: { [K in RunEndKind]: Outcome<K> } = {
  asked: dialog('dialog-2', 'The desk asks once more.', `${SID}:aaaa0002`),
  committed: COMMITTED,
  refused: STALE,
  cancelled: CANCELLED,
  failed: STORAGE_FAILED,
  error: EXTENSION_ERROR,
  answer: { kind: 'answer', text: `revision: ${ROOT}`, query: { revision: ROOT, rows: [] }, ...RAN },
  said: { kind: 'said', text: 'Added your message as entry 12345678.', ...RAN },
  usage: { kind: 'usage', text: 'Usage: /seeds query | reserve <id> <n> | release <id> <n> | agent on|off', ...RAN },
  notice: NOTICE,
};
const KINDS = Object.keys(ONE_OF_EACH) as RunEndKind[];

const EMPTY_CONTEXT: ConfirmationContext = { requestId: null, title: '', message: '', revision: null, said: '', change: null, result: '', code: null };
const CONFIRM: ConfirmationEvent = { type: 'CONFIRM' };
const CANCEL: ConfirmationEvent = { type: 'CANCEL' };
const DISMISS: ConfirmationEvent = { type: 'DISMISS' };
const opened = (outcome: ConfirmAsked = dialog('dialog-9')): ConfirmationEvent => ({ type: 'OPENED', outcome });
const settled = (outcome: LineOutcome): ConfirmationEvent => ({ type: 'SETTLED', outcome });
const failedWith = (error: string): ConfirmationEvent => ({ type: 'FAILED', error });

/** Every event the machine knows, for checking what a state refuses. */
const EVERY_EVENT: ConfirmationEvent[] = [opened(), CONFIRM, CANCEL, settled(COMMITTED), failedWith('lost'), DISMISS];

/** A started actor; `open` plays the page receiving the extension's dialog. */
function harness() {
  const actor = createActor(confirmationMachine);
  actor.start();
  const open = (outcome: ConfirmAsked = dialog()): Snap => {
    actor.send(opened(outcome));
    return actor.getSnapshot();
  };
  const send = (...events: ConfirmationEvent[]): Snap => {
    for (const event of events) actor.send(event);
    return actor.getSnapshot();
  };
  return { actor, open, send };
}

/** Asserts a snapshot refuses exactly the events not in `accepted`, and that sending them changes nothing. */
function expectOnlyAccepts(actor: ReturnType<typeof harness>['actor'], accepted: ConfirmationEvent['type'][]): void {
  const before = actor.getSnapshot();
  for (const event of EVERY_EVENT) expect(before.can(event), `${String(before.value)} on ${event.type}`).toBe(accepted.includes(event.type));
  for (const event of EVERY_EVENT.filter((candidate) => !accepted.includes(candidate.type))) actor.send(event);
  const after = actor.getSnapshot();
  expect(after.value).toBe(before.value);
  expect(after.context).toEqual(before.context);
}

describe('confirmation machine: idle and opening', () => {
  it('starts idle with an empty context, not busy; only OPENED and DISMISS are accepted there', () => {
    const { actor } = harness();
    const snapshot = actor.getSnapshot();
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context).toEqual(EMPTY_CONTEXT);
    expect(snapshot.hasTag('busy')).toBe(false);
    expectOnlyAccepts(actor, ['OPENED', 'DISMISS']);
    expect(actor.getSnapshot().context).toEqual(EMPTY_CONTEXT);
  });

  it('DISMISS in idle stays idle with the empty context', () => {
    const { send } = harness();
    const snapshot = send(DISMISS);
    expect(snapshot.value).toBe('idle');
    expect(snapshot.context).toEqual(EMPTY_CONTEXT);
  });

  it('idle → open on OPENED: the context takes the request id, title, message, what the extension said and the revision from the outcome; open is busy', () => {
    const { open } = harness();
    const snapshot = open(dialog('dialog-1', 'Checking the desk first.', `${SID}:aaaa0001`));
    expect(snapshot.value).toBe('open');
    expect(snapshot.context).toEqual({
      requestId: 'dialog-1',
      title: 'Reserve 2 basil-genovese?',
      message: `This branch holds 0 of 8 basil-genovese packets (8 available). Decided on revision ${SID}:aaaa0001.`,
      revision: `${SID}:aaaa0001`,
      said: 'Checking the desk first.',
      change: null,
      result: '',
      code: null,
    });
    expect(snapshot.hasTag('busy')).toBe(true);
  });

  it('open accepts only CONFIRM and CANCEL: another dialog cannot replace it, it cannot be dismissed unanswered, and no outcome settles it before an answer', () => {
    const { actor, open } = harness();
    open(dialog('dialog-1'));
    expectOnlyAccepts(actor, ['CONFIRM', 'CANCEL']);
    expect(actor.getSnapshot().value).toBe('open');
    expect(actor.getSnapshot().context.requestId).toBe('dialog-1');
  });
});

describe('confirmation machine: Confirm', () => {
  it('open → committing → committed: busy while the answer is out, then the extension’s text and change; what the dialog asked stays readable', () => {
    const { open, send } = harness();
    open(dialog('dialog-1', '', `${SID}:aaaa0001`));
    const committing = send(CONFIRM);
    expect(committing.value).toBe('committing');
    expect(committing.hasTag('busy')).toBe(true);
    // The answer is out: the request id stays until the run has ended.
    expect(committing.context.requestId).toBe('dialog-1');
    const committed = send(settled(COMMITTED));
    expect(committed.value).toBe('committed');
    expect(committed.hasTag('busy')).toBe(false);
    expect(committed.context).toEqual({
      requestId: null,
      title: 'Reserve 2 basil-genovese?',
      message: `This branch holds 0 of 8 basil-genovese packets (8 available). Decided on revision ${SID}:aaaa0001.`,
      revision: `${SID}:aaaa0001`,
      said: '',
      change: RESERVE,
      result: COMMITTED.text,
      code: null,
    });
  });

  it('committing accepts only SETTLED and FAILED: a second CONFIRM, a CANCEL, a DISMISS or another OPENED change nothing', () => {
    const { actor, open, send } = harness();
    open(dialog('dialog-1'));
    send(CONFIRM, CONFIRM);
    expect(actor.getSnapshot().value).toBe('committing');
    expectOnlyAccepts(actor, ['SETTLED', 'FAILED']);
    expect(actor.getSnapshot().context.requestId).toBe('dialog-1');
    expect(send(settled(COMMITTED)).value).toBe('committed');
  });

  it('committing → refused on a stale-revision outcome: the code, the text and the change the extension reported', () => {
    const { open, send } = harness();
    open();
    const refused = send(CONFIRM, settled(STALE));
    expect(refused.value).toBe('refused');
    expect(refused.context).toMatchObject({ code: 'stale-revision', result: STALE.text, change: RESERVE, requestId: null });
  });

  it('committing → refused keeps a null change when the extension reported none', () => {
    const text = 'Refused (corrupt-state): entry bad00001 holds 99 of 8.';
    const { open, send } = harness();
    open();
    const refused = send(CONFIRM, settled({ kind: 'refused', code: 'corrupt-state', text, change: null, ...RAN }));
    expect(refused.value).toBe('refused');
    expect(refused.context).toMatchObject({ code: 'corrupt-state', result: text, change: null });
  });

  it.each([
    { name: 'a failed outcome (storage)', outcome: STORAGE_FAILED },
    { name: 'an extension error', outcome: EXTENSION_ERROR },
  ])('committing → failed on $name, with its text and neither code nor change', ({ outcome }) => {
    const { open, send } = harness();
    open();
    const failed = send(CONFIRM, settled(outcome));
    expect(failed.value).toBe('failed');
    expect(failed.context).toMatchObject({ result: outcome.text, code: null, change: null, requestId: null });
  });

  it('committing → failed on FAILED (the answer never arrived), with the error in the result', () => {
    const { open, send } = harness();
    open();
    const failed = send(CONFIRM, failedWith('the worker crashed'));
    expect(failed.value).toBe('failed');
    expect(failed.hasTag('busy')).toBe(false);
    expect(failed.context).toMatchObject({ result: 'Failed: the worker crashed', code: null, change: null, requestId: null, title: 'Reserve 2 basil-genovese?' });
  });

  it.each([ONE_OF_EACH.notice, ONE_OF_EACH.usage, ONE_OF_EACH.said, ONE_OF_EACH.answer])('committing → answered on a $kind outcome, with its text and neither code nor change', (outcome) => {
    const { open, send } = harness();
    open();
    const answered = send(CONFIRM, settled(outcome));
    expect(answered.value).toBe('answered');
    expect(answered.context).toMatchObject({ result: outcome.text, code: null, change: null, requestId: null });
  });

  it('an outcome that asks for another confirmation reopens the dialog with the new id, title, words and revision; the next Confirm settles on the next outcome', () => {
    const second: ConfirmAsked = {
      kind: 'asked',
      request: { kind: 'confirm', id: 'dialog-2', title: 'Really reserve?', message: 'Second thoughts.' },
      text: 'The desk asks once more.',
      revision: `${SID}:aaaa0002`,
      ...RAN,
    };
    const { open, send } = harness();
    open(dialog('dialog-1', 'First words.', `${SID}:aaaa0001`));
    const reopened = send(CONFIRM, settled(second));
    expect(reopened.value).toBe('open');
    expect(reopened.hasTag('busy')).toBe(true);
    // Fresh: nothing of the first dialog (what it said, its revision) is left.
    expect(reopened.context).toEqual({
      requestId: 'dialog-2',
      title: 'Really reserve?',
      message: 'Second thoughts.',
      revision: `${SID}:aaaa0002`,
      said: 'The desk asks once more.',
      change: null,
      result: '',
      code: null,
    });
    expect(reopened.can(CONFIRM)).toBe(true);
    const committing = send(CONFIRM);
    expect(committing.value).toBe('committing');
    expect(committing.context.requestId).toBe('dialog-2');
    const committed = send(settled(COMMITTED));
    expect(committed.value).toBe('committed');
    expect(committed.context.result).toBe(COMMITTED.text);
  });

  it('an outcome that asks something other than a confirmation (a select) does not reopen this dialog: it settles answered with its text', () => {
    const select: LineOutcome = {
      kind: 'asked',
      request: { kind: 'select', id: 'select-1', title: 'Which seed?', options: ['basil-genovese', 'thyme'] },
      text: 'Pick one.',
      revision: ROOT,
      ...RAN,
    };
    const { open, send } = harness();
    open(dialog('dialog-1'));
    const answered = send(CONFIRM, settled(select));
    expect(answered.value).toBe('answered');
    expect(answered.context).toMatchObject({ requestId: null, result: 'Pick one.', code: null, change: null, title: 'Reserve 2 basil-genovese?' });
  });
});

describe('confirmation machine: Cancel', () => {
  it('open → cancelling → cancelled: busy meanwhile, Cancel is an answer too (nothing else is accepted), then the extension’s own text and change', () => {
    const { actor, open, send } = harness();
    open(dialog('dialog-1'));
    const cancelling = send(CANCEL);
    expect(cancelling.value).toBe('cancelling');
    expect(cancelling.hasTag('busy')).toBe(true);
    expect(cancelling.context.requestId).toBe('dialog-1');
    // A late Confirm (or a second Cancel) cannot answer the dialog again.
    expectOnlyAccepts(actor, ['SETTLED', 'FAILED']);
    const cancelled = send(settled(CANCELLED));
    expect(cancelled.value).toBe('cancelled');
    expect(cancelled.hasTag('busy')).toBe(false);
    expect(cancelled.context).toMatchObject({ result: CANCELLED.text, change: RESERVE, code: null, requestId: null });
    expect(send(CONFIRM).value).toBe('cancelled');
  });

  it('cancelling settles on what the run ended with, not on the button: a failed outcome is failed, a committed one committed', () => {
    const first = harness();
    first.open();
    const failed = first.send(CANCEL, settled(STORAGE_FAILED));
    expect(failed.value).toBe('failed');
    expect(failed.context.result).toBe(STORAGE_FAILED.text);

    const second = harness();
    second.open();
    const committed = second.send(CANCEL, settled(COMMITTED));
    expect(committed.value).toBe('committed');
    expect(committed.context).toMatchObject({ result: COMMITTED.text, change: RESERVE });
  });

  it('cancelling → failed on FAILED, with the error in the result', () => {
    const { open, send } = harness();
    open();
    const failed = send(CANCEL, failedWith('That dialog is no longer open'));
    expect(failed.value).toBe('failed');
    expect(failed.context).toMatchObject({ result: 'Failed: That dialog is no longer open', requestId: null, code: null });
  });

  it('cancelling → open when the extension asks again after the Cancel; the next Cancel settles cancelled', () => {
    const again: ConfirmAsked = {
      kind: 'asked',
      request: { kind: 'confirm', id: 'dialog-2', title: 'Discard the draft?', message: 'Nothing was written yet.' },
      text: '',
      revision: ROOT,
      ...RAN,
    };
    const { open, send } = harness();
    open(dialog('dialog-1'));
    const reopened = send(CANCEL, settled(again));
    expect(reopened.value).toBe('open');
    expect(reopened.context).toMatchObject({ requestId: 'dialog-2', title: 'Discard the draft?', message: 'Nothing was written yet.', said: '' });
    const cancelling = send(CANCEL);
    expect(cancelling.value).toBe('cancelling');
    expect(cancelling.context.requestId).toBe('dialog-2');
    expect(send(settled(CANCELLED)).value).toBe('cancelled');
  });
});

describe('confirmation machine: where each kind of run end lands (SETTLES_IN)', () => {
  it('the fixtures are real protocol outcomes, one of each kind', () => {
    for (const kind of KINDS) {
      expect(ONE_OF_EACH[kind].kind).toBe(kind);
      expect(LineOutcomeSchema.safeParse(ONE_OF_EACH[kind]).success, kind).toBe(true);
    }
    expect(KINDS.toSorted()).toEqual(Object.keys(SETTLES_IN).toSorted());
  });

  const cases = KINDS.flatMap((kind) => (['CONFIRM', 'CANCEL'] as const).map((answer) => ({ kind, answer, state: SETTLES_IN[kind] })));

  it.each(cases)('$answer, then a $kind outcome → $state', ({ kind, answer, state }) => {
    const { open, send } = harness();
    open(dialog('dialog-1'));
    const outcome = ONE_OF_EACH[kind];
    const snapshot = send({ type: answer }, settled(outcome));
    expect(snapshot.value).toBe(state);
    expect(snapshot.hasTag('busy')).toBe(isBusy(state));
    if (state === 'open') {
      // Asked again: the dialog is the new one, nothing is remembered as a result.
      expect(snapshot.context).toMatchObject({ requestId: 'dialog-2', said: outcome.text, result: '' });
    } else {
      expect(snapshot.context).toMatchObject({ requestId: null, result: outcome.text, code: outcome.kind === 'refused' ? outcome.code : null });
    }
  });
});

describe('confirmation machine: settled states', () => {
  const cases: { state: ConfirmationStateName; answer: 'CONFIRM' | 'CANCEL'; outcome: LineOutcome | null }[] = [
    { state: 'committed', answer: 'CONFIRM', outcome: COMMITTED },
    { state: 'refused', answer: 'CONFIRM', outcome: STALE },
    { state: 'cancelled', answer: 'CANCEL', outcome: CANCELLED },
    { state: 'answered', answer: 'CONFIRM', outcome: NOTICE },
    { state: 'failed', answer: 'CONFIRM', outcome: EXTENSION_ERROR },
    // Reached through FAILED rather than an outcome.
    { state: 'failed', answer: 'CANCEL', outcome: null },
  ];

  /** A fresh actor brought to `state` the way the case says. */
  function reach({ state, answer, outcome }: (typeof cases)[number]) {
    const run = harness();
    run.open();
    const snapshot = run.send({ type: answer }, outcome ? settled(outcome) : failedWith('gone'));
    expect(snapshot.value).toBe(state);
    return run;
  }

  it.each(cases)('$state (after $answer) is not busy and accepts only OPENED and DISMISS; DISMISS → idle', (settledCase) => {
    const { actor, send } = reach(settledCase);
    expect(actor.getSnapshot().hasTag('busy')).toBe(false);
    expectOnlyAccepts(actor, ['OPENED', 'DISMISS']);
    expect(actor.getSnapshot().value).toBe(settledCase.state);
    expect(send(DISMISS).value).toBe('idle');
  });

  it.each(cases)('$state (after $answer) → open on the next OPENED, with a context of the new dialog only', (settledCase) => {
    const { open } = reach(settledCase);
    const next: ConfirmAsked = {
      kind: 'asked',
      request: { kind: 'confirm', id: 'dialog-7', title: 'Switch the agent on?', message: 'The agent may then reserve.' },
      text: '',
      revision: `${SID}:bbbb0002`,
      ...RAN,
    };
    const reopened = open(next);
    expect(reopened.value).toBe('open');
    expect(reopened.context).toEqual({
      requestId: 'dialog-7',
      title: 'Switch the agent on?',
      message: 'The agent may then reserve.',
      revision: `${SID}:bbbb0002`,
      said: '',
      change: null,
      result: '',
      code: null,
    });
  });
});

describe('confirmation machine: sends nothing itself', () => {
  it('has no actors to provide, and no state invokes an actor or waits on a timer', () => {
    expect(confirmationMachine.implementations.actors).toEqual({});
    for (const [name, node] of Object.entries(confirmationMachine.root.states)) {
      expect(node.invoke, name).toEqual([]);
      expect(node.after, name).toEqual([]);
    }
  });

  it('through a whole dialog (asked again, failed, reopened, committed) the only actor is the machine, every event it receives is one the page sent, and it sends none', () => {
    const inspected: InspectionEvent[] = [];
    const actor = createActor(confirmationMachine, { inspect: (event) => inspected.push(event) });
    actor.start();
    const sent: ConfirmationEvent[] = [opened(dialog('dialog-1')), CONFIRM, settled(ONE_OF_EACH.asked), CANCEL, failedWith('lost'), opened(dialog('dialog-3')), CONFIRM, settled(COMMITTED)];
    const states: string[] = [];
    for (const event of sent) {
      actor.send(event);
      const snapshot = actor.getSnapshot();
      states.push(String(snapshot.value));
      // Nothing is spawned while the answer is out.
      expect(Object.keys(snapshot.children)).toEqual([]);
    }
    expect(states).toEqual(['open', 'committing', 'open', 'cancelling', 'failed', 'open', 'committing', 'committed']);

    const actors: AnyActorRef[] = inspected.flatMap((event) => (event.type === '@xstate.actor' ? [event.actorRef as AnyActorRef] : []));
    expect(actors).toEqual([actor]);
    const received = inspected.flatMap((event) => (event.type === '@xstate.event' ? [event] : []));
    for (const event of received) {
      expect(event.actorRef).toBe(actor);
      expect(event.sourceRef).toBeUndefined();
    }
    expect(received.map((event) => event.event.type)).toEqual(['xstate.init', ...sent.map((event) => event.type)]);
    // Only assignments run (XState reports no action for them): no sendTo, raise, emit or spawn, which it would report.
    expect(inspected.filter((event) => event.type === '@xstate.action')).toEqual([]);
  });
});
