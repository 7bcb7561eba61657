/// <reference path="../tutorial/virtualLessons.d.ts" />
/**
 * The tutorial beside the playground: where the learner is (and the address that says so), the
 * lesson fetched when it opens, the one goal checker judging the step from the facts since it
 * began, ticks kept across visits, and the runner behind "Do it for me", "Reset lesson" and
 * "Reset this step", each acting through the page's own paths (requests to a scripted worker).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { LESSON_INDEX } from 'virtual:lessons-index';
import type { HostView, LineOutcome } from '../protocol/messages';
import { changed, FakeWorkers, hostView, type Reply } from './fakeConnection.testkit';
import { MemoryStorage, stubAddress, stubFrames, stubStorage } from './pageGlobals.testkit';
import { Playground } from './playground.svelte';
import { parseStepHash, stepHash, Tutorial } from './tutorial.svelte';
import { until } from './viewOf.testkit.svelte';

const PROGRESS_KEY = 'seed-desk:tutorial-progress';
let progress: MemoryStorage;

beforeEach(() => {
  progress = new MemoryStorage();
  stubStorage('localStorage', progress);
  stubStorage('sessionStorage');
  stubFrames();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

const first = LESSON_INDEX[0]!;
const second = LESSON_INDEX[1]!;
const last = LESSON_INDEX.at(-1)!;

/**
 * A worker that keeps the host's settings as a host would: each settings request changes the view
 * it answers with, a new session starts on a fresh desk, and `/seeds query` answers with the desk.
 */
function host(workers: FakeWorkers, start: Partial<HostView> = {}): void {
  let view = hostView(start);
  const moved = (next: Partial<HostView>) => ({ result: null, changes: changed((view = { ...view, ...next })) });
  let sessions = 1;
  let dialogs = 0;
  // Seed desk entries in the current session's journal: a commit appends one, a new session has none.
  let entries = view.seedDeskEntryCount;
  const unchanged = () => ({ by: 'shipped', deskEntries: { before: entries, after: entries } }) as const;
  const basil = { kind: 'reservation', action: 'reserve', id: 'basil-genovese', packets: 2 } as const;
  workers
    .answerWith('hello', () => ({ result: null, changes: changed(view) }))
    .answerWith('newSession', () => {
      entries = 0;
      return moved({ sessionId: `session-${++sessions}`, leafId: null, revision: `session-${sessions}:root`, entryCount: 0, seedDeskEntryCount: 0 });
    })
    .answerWith('setInteractive', (body) => moved({ interactive: body.interactive }))
    .answerWith('setApprovalPolicy', (body) => moved({ approvalPolicy: body.policy }))
    .answerWith('setApprovalMode', (body) => moved({ approvalMode: body.mode }))
    .answerWith('navigate', (body) => moved({ leafId: body.target.by === 'id' ? body.target.id : 'entry-found' }))
    .answerWith('line', (body): { result: LineOutcome } => {
      if (body.text === '/seeds query') {
        return {
          result: { kind: 'answer', text: 'basil-genovese 8 available…', query: { revision: view.revision, rows: view.rows.map(({ id, available, reserved }) => ({ id, available, reserved })) }, ...unchanged() },
        };
      }
      if (body.text.startsWith('/seeds reserve')) {
        return { result: { kind: 'asked', request: { kind: 'confirm', id: `ui-${++dialogs}`, title: 'Reserve?', message: body.text }, text: '', revision: view.revision, ...unchanged() } };
      }
      return { result: { kind: 'said', text: body.text, ...unchanged() } };
    })
    .answerWith('answerUi', (body): Reply<'answerUi'> => {
      if (body.answer.kind !== 'confirm') return { error: `This host asks only for confirmations, not for a ${body.answer.kind}.` };
      if (!body.answer.confirmed) return { result: { kind: 'cancelled', text: 'Cancelled.', change: basil, ...unchanged() } };
      const before = entries++;
      return { result: { kind: 'committed', text: 'Reserved 2 basil-genovese.', change: basil, revision: `${view.sessionId}:e${dialogs}`, by: 'shipped', deskEntries: { before, after: entries } } };
    });
}

function setup(hash = '', start: Partial<HostView> = {}) {
  const address = stubAddress(hash);
  const workers = new FakeWorkers();
  host(workers, start);
  const playground = new Playground(workers.makeWorker);
  const tutorial = new Tutorial(playground);
  return { address, workers, playground, tutorial };
}

describe('step addresses', () => {
  it('`#/lesson/<n>/step/<m>` names a step of the lessons there are, 1-based; anything else names none', () => {
    expect(parseStepHash('#/lesson/1/step/2')).toEqual({ lesson: 0, step: 1 });
    expect(parseStepHash(`#/lesson/${LESSON_INDEX.length}/step/${last.steps.length}`)).toEqual({ lesson: LESSON_INDEX.length - 1, step: last.steps.length - 1 });
    expect(parseStepHash(`#/lesson/${LESSON_INDEX.length + 1}/step/1`)).toBeNull();
    expect(parseStepHash(`#/lesson/1/step/${first.steps.length + 1}`)).toBeNull();
    expect(parseStepHash('#/lesson/1/step/0')).toBeNull();
    expect(parseStepHash('#/share/abc')).toBeNull();
    expect(stepHash({ lesson: 1, step: 3 })).toBe('#/lesson/2/step/4');
    expect(parseStepHash(stepHash({ lesson: 1, step: 3 }))).toEqual({ lesson: 1, step: 3 });
  });
});

describe('Tutorial: where the learner is', () => {
  it('opens on the step the address names, and fetches that lesson', async () => {
    const { tutorial, playground } = setup('#/lesson/2/step/3');
    expect(tutorial.position).toEqual({ lesson: 1, step: 2 });
    expect(tutorial.entry.id).toBe(second.id);
    expect(tutorial.stepId).toBe(second.steps[2]);
    // The step's own question is known by its id.
    expect(playground.closing.asking).toBe(second.steps[2]);
    expect(tutorial.step).toBeNull();
    await until(() => tutorial.lesson !== null);
    expect(tutorial.lesson?.id).toBe(second.id);
    expect(tutorial.step?.id).toBe(second.steps[2]);
  });

  it('opens on the first step without an address, with the ticks kept from earlier visits', async () => {
    progress.setItem(PROGRESS_KEY, JSON.stringify([first.steps[0], 'a-step-since-removed']));
    const { tutorial } = setup();
    expect(tutorial.position).toEqual({ lesson: 0, step: 0 });
    expect(tutorial.isComplete(first.steps[0]!)).toBe(true);
    expect(tutorial.isComplete(first.steps[1]!)).toBe(false);
  });

  it('next and previous go step by step and across lessons, and the address follows', async () => {
    const { tutorial, address, playground } = setup(`#/lesson/1/step/${first.steps.length}`);
    tutorial.next();
    expect(tutorial.position).toEqual({ lesson: 1, step: 0 });
    expect(address.location.hash).toBe('#/lesson/2/step/1');
    expect(playground.closing.asking).toBe(second.steps[0]);
    tutorial.previous();
    expect(tutorial.position).toEqual({ lesson: 0, step: first.steps.length - 1 });
    tutorial.previous();
    expect(address.replaced).toEqual(['#/lesson/2/step/1', `#/lesson/1/step/${first.steps.length}`, `#/lesson/1/step/${first.steps.length - 1}`]);
  });

  it('stays put past the last step and before the first', async () => {
    const { tutorial } = setup(`#/lesson/${LESSON_INDEX.length}/step/${last.steps.length}`);
    tutorial.next();
    expect(tutorial.position).toEqual({ lesson: LESSON_INDEX.length - 1, step: last.steps.length - 1 });
    tutorial.goTo({ lesson: 0, step: 0 });
    tutorial.previous();
    expect(tutorial.position).toEqual({ lesson: 0, step: 0 });
  });
});

describe('Tutorial: checking a step', () => {
  it('says why a step cannot be judged yet, then judges it from what the learner did since it began, and ticks it once, for good', async () => {
    const { tutorial, playground } = setup('#/lesson/1/step/1');
    expect(tutorial.check()).toEqual({ done: false, whyNot: 'The journal is still opening.' });
    await playground.start();
    await until(() => tutorial.lesson !== null);
    expect(tutorial.check()).toEqual({ done: false, whyNot: 'Not yet: follow the step above; it is checked as you act.' });

    tutorial.startChecking();
    expect(tutorial.check()).toEqual({ done: false, whyNot: 'Not yet: the check is loading.' });
    await until(() => tutorial.check().whyNot !== 'Not yet: the check is loading.');
    expect(tutorial.check()).toEqual({ done: false, whyNot: 'Not yet: no query has answered yet. Type `/seeds query` in the command line and press Enter.' });

    await playground.command.runLine('/seeds query');
    const result = tutorial.check();
    expect(result).toEqual({ done: true, whyNot: null });
    tutorial.noteCheck(result);
    expect(tutorial.isComplete('query-desk')).toBe(true);
    expect(JSON.parse(progress.getItem(PROGRESS_KEY) ?? '[]')).toEqual(['query-desk']);
  });

  it('while the learner\'s own extension runs instead of Seed Desk, a Seed Desk step is not checked, and says why and how to bring Seed Desk back', async () => {
    const { tutorial, playground } = setup('#/lesson/1/step/1', { own: true });
    await playground.start();
    await until(() => tutorial.lesson !== null);
    tutorial.startChecking();
    await until(() => tutorial.check().whyNot !== 'Not yet: the check is loading.');
    expect(tutorial.check()).toEqual({ done: false, whyNot: expect.stringMatching(/^Not checked now: your own extension runs instead of Seed Desk.*Choose a lesson in the list to bring Seed Desk back/) });
  });

  it('a step\'s facts start when the learner arrives at it: what was done before does not count', async () => {
    const { tutorial, playground } = setup('#/lesson/1/step/1');
    await playground.start();
    await playground.command.runLine('/seeds query');
    tutorial.goTo({ lesson: 0, step: 0 });
    expect(tutorial.observed()?.facts).toEqual([]);
    tutorial.startChecking();
    await until(() => tutorial.lesson !== null && tutorial.check().whyNot !== 'Not yet: the check is loading.');
    expect(tutorial.check().done).toBe(false);
  });
});

describe('Tutorial: Do it for me, and the resets', () => {
  it('Do it for me, where the playground is not ready: a fresh session, the lesson\'s setup (named), then the step\'s own actions', async () => {
    const { tutorial, playground, workers } = setup('#/lesson/1/step/1', { approvalMode: 'always-ask', interactive: false });
    await playground.start();
    await tutorial.doItForMe();

    expect(tutorial.runError).toBeNull();
    expect(workers.sent().slice(1)).toEqual([
      { type: 'newSession', fresh: true },
      { type: 'setInteractive', interactive: true },
      { type: 'setApprovalPolicy', policy: null },
      { type: 'setApprovalMode', mode: 'yolo' },
      { type: 'line', text: '/seeds query' },
    ]);
    expect(tutorial.notice).toBe('This lesson\'s setup changed the host: "Approval mode" set to yolo, OMP\'s default; "Interactive UI" switched on.');
    expect(tutorial.running).toBe(false);
    // The step is done, judged by the same checker as the learner's own actions.
    await until(() => tutorial.check().done);
  });

  it('after Do it for me the playground is ready for the next step: only that step\'s actions run', async () => {
    const { tutorial, playground, workers } = setup('#/lesson/1/step/1');
    await playground.start();
    await tutorial.doItForMe();
    const done = workers.sent().length;
    tutorial.next();
    await tutorial.doItForMe();
    expect(tutorial.runError).toBeNull();
    // Step 2: type the reservation, then Cancel in its dialog.
    expect(workers.sent().slice(done)).toEqual([
      { type: 'line', text: '/seeds reserve basil-genovese 2' },
      { type: 'answerUi', answer: { kind: 'confirm', id: 'ui-1', confirmed: false } },
    ]);
    expect(playground.command.output.at(-1)).toMatchObject({ kind: 'cancelled', text: 'Cancelled.' });
  });

  it('a step reached by jumping ahead: the lesson\'s setup and the earlier steps\' actions first, then its own', async () => {
    const { tutorial, playground, workers } = setup('#/lesson/1/step/1');
    await playground.start();
    tutorial.goTo({ lesson: 0, step: 2 });
    await tutorial.doItForMe();
    expect(tutorial.runError).toBeNull();
    expect(workers.sentTypes().slice(1)).toEqual(['newSession', 'setInteractive', 'setApprovalPolicy', 'setApprovalMode', 'line', 'line', 'answerUi', 'line', 'answerUi']);
    expect(workers.sentOf('answerUi').map((body) => body.answer)).toEqual([
      { kind: 'confirm', id: 'ui-1', confirmed: false },
      { kind: 'confirm', id: 'ui-2', confirmed: true },
    ]);
    // The step's facts are its own actions' alone: the earlier steps' Cancel is not among them.
    expect(tutorial.observed()?.facts.map((fact) => fact.kind)).toEqual(['dialog-opened', 'committed']);
  });

  it('a step that cannot be done says why, and stops there', async () => {
    const { tutorial, playground, workers } = setup('#/lesson/1/step/1');
    await playground.start();
    workers.answerWith('setApprovalPolicy', { error: 'The storage is full.' });
    await tutorial.doItForMe();
    expect(tutorial.runError).toBe('Could not finish: The storage is full.');
    expect(workers.sentTypes().slice(1)).toEqual(['newSession', 'setInteractive', 'setApprovalPolicy']);
    expect(tutorial.running).toBe(false);
  });

  it('Reset lesson: a fresh session with the lesson\'s setup, the lesson\'s ticks cleared (others kept), back at its first step', async () => {
    progress.setItem(PROGRESS_KEY, JSON.stringify([first.steps[0], first.steps[1], second.steps[0]]));
    const { tutorial, playground, workers, address } = setup('#/lesson/1/step/3');
    await playground.start();
    await tutorial.resetLesson();
    expect(workers.sentTypes().slice(1)).toEqual(['newSession', 'setInteractive', 'setApprovalPolicy', 'setApprovalMode']);
    expect(tutorial.position).toEqual({ lesson: 0, step: 0 });
    expect(address.location.hash).toBe('#/lesson/1/step/1');
    expect([...tutorial.completed]).toEqual([second.steps[0]]);
    expect(JSON.parse(progress.getItem(PROGRESS_KEY) ?? '[]')).toEqual([second.steps[0]]);

    // Ready for its first step: Do it for me runs only that step's actions.
    await tutorial.doItForMe();
    expect(workers.sentTypes().slice(5)).toEqual(['line']);
  });

  it('Reset this step puts back the host settings the step began with, and says which', async () => {
    const { tutorial, playground, workers } = setup('#/lesson/1/step/1');
    await playground.start();
    tutorial.goTo({ lesson: 0, step: 0 });
    await playground.tool.setApprovalMode('always-ask');
    await playground.tool.setInteractive(false);
    const sentBefore = workers.sent().length;

    await tutorial.resetStep();

    expect(tutorial.runError).toBeNull();
    expect(workers.sent().slice(sentBefore)).toEqual([
      { type: 'setApprovalMode', mode: 'yolo' },
      { type: 'setInteractive', interactive: true },
    ]);
    expect(tutorial.notice).toBe(
      'This step starts again from where it began; the journal keeps what you did, and earlier ticks stay. Reset this step put back: "Approval mode" set to yolo, OMP\'s default; "Interactive UI" switched on.',
    );
    // The step's facts start again from here.
    expect(tutorial.observed()?.facts).toEqual([]);
  });
});
