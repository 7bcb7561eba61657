import 'fake-indexeddb/auto';
/**
 * Lessons are data: they validate, every step points at a real checkpoint, the texts are our
 * own words, and every lesson's "Do it for me" reaches each checkpoint when replayed against the
 * real host (worker logic on fake-indexeddb), with the page's fact recording mirrored here.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor, type SnapshotFrom } from 'xstate';
import { seededIdSource } from '$domain/ids';
import { confirmationMachine } from '../machines/confirmation';
import { ChangesSchema, type ComparisonView, type EntryTarget, type LineOutcome, type ToolCallOutcome } from '../protocol/messages';
import { PlaygroundHost } from '../worker/host';
import { JournalStore } from '../worker/store';
import { Watches } from '../worker/watches';
import { checkStep, CHECKPOINTS } from './checkpoints';
import type { Fact, Observed, StampedFact } from './facts';
import { LESSONS, validateLessons } from './lessons';
import { LessonSchema, type Lesson, type LessonAction } from './schema';
import { REFUSAL_CODES } from '$domain/refusal';

describe('lessons as data', () => {
  it('has six lessons of three to nine steps, each valid against LessonSchema', () => {
    expect(LESSONS).toHaveLength(6);
    for (const lesson of LESSONS) {
      expect(LessonSchema.safeParse(lesson).success, lesson.id).toBe(true);
      expect(lesson.steps.length, lesson.id).toBeGreaterThanOrEqual(3);
      expect(lesson.steps.length, lesson.id).toBeLessThanOrEqual(9);
    }
  });

  it('names the lesson and the step when one is invalid', () => {
    const broken = { id: 'broken', title: 't', summary: 's', setup: [], steps: [{ id: 'bad-step', title: 't', instruction: 'i', why: 'w', expected: 'e', checkpoint: 'c', doItForMe: [{ do: 'dance' }] }] };
    expect(() => validateLessons([broken])).toThrow(/lesson "broken", step "bad-step"/);
    const twice = { ...broken, steps: [{ ...broken.steps[0], doItForMe: [{ do: 'confirm' }] }, { ...broken.steps[0], doItForMe: [{ do: 'confirm' }] }] };
    expect(() => validateLessons([twice])).toThrow(/used twice/);
  });

  it('has unique lesson ids and unique step ids (progress is stored by step id)', () => {
    const lessonIds = LESSONS.map((lesson) => lesson.id);
    expect(new Set(lessonIds).size).toBe(lessonIds.length);
    const stepIds = LESSONS.flatMap((lesson) => lesson.steps.map((step) => step.id));
    expect(new Set(stepIds).size).toBe(stepIds.length);
  });

  it('points every step at a registered checkpoint, and uses every registered checkpoint', () => {
    const used = LESSONS.flatMap((lesson) => lesson.steps.map((step) => step.checkpoint));
    for (const key of used) expect(Object.keys(CHECKPOINTS), key).toContain(key);
    for (const key of Object.keys(CHECKPOINTS)) expect(used, key).toContain(key);
  });

  it('has non-empty texts and a non-empty "Do it for me" for every step', () => {
    for (const lesson of LESSONS) {
      expect(lesson.title.trim(), lesson.id).not.toBe('');
      expect(lesson.summary.trim(), lesson.id).not.toBe('');
      for (const step of lesson.steps) {
        for (const text of [step.title, step.instruction, step.why, step.expected]) expect(text.trim(), step.id).not.toBe('');
        expect(step.doItForMe.length, step.id).toBeGreaterThan(0);
        // An odd number of backticks would leave the rest of the text rendered as code.
        for (const text of [step.instruction, step.why, step.expected]) expect(text.split('`').length % 2, `${step.id}: ${text}`).toBe(1);
      }
    }
  });

  /** Distinctive sentences of the source lesson: ours must be written in our own words. */
  const SOURCE_SENTENCES = [
    'Cancellation before commit is not a release.',
    'Reusing the old one is a refusal, not a second reservation.',
    'A successful action returns a new revision.',
    'Ordinary conversation does not stale the domain revision.',
    "A sibling state snapshot cannot be reused as the current branch's revision.",
    'A new session has a distinct identity.',
    'A branch inherits the reservations and grants in its ancestry.',
    'Before commit, cancellation changes nothing.',
    'After commit, cancellation cannot undo a reservation.',
    'Query before retrying.',
    'Status notifications and bus events do not start an agent turn.',
    'It would need a shared authoritative store, atomic stock operations, durable request identity and coordination across users and processes.',
    'This stage deliberately teaches fictional branch-local reservations.',
    'A confirmation dialog is an await.',
    'During that wait, another action or a session-tree movement may occur.',
    'Do not retry blindly.',
    'Storage failures can be latched and surfaced by the host.',
    'A sibling revision token was rejected.',
    'Rewinding before a reservation showed zero reserved.',
    'A fresh session had no carried reservation and agent authority was off.',
    'Cancellation appended no state entry.',
    'She does not want the tool to grant itself that authority.',
    'Seed Desk refuses both grant and revoke commands without UI.',
    'This also asks for confirmation and appends a new snapshot.',
  ];

  const words = (text: string): string[] =>
    text
      .toLowerCase()
      .replace(/[’']/g, "'")
      .split(/[^a-z0-9'-]+/)
      .filter((word) => word.length > 0);

  const allTexts = (): { where: string; text: string }[] =>
    LESSONS.flatMap((lesson) => [
      { where: `${lesson.id} title`, text: lesson.title },
      { where: `${lesson.id} summary`, text: lesson.summary },
      ...lesson.steps.flatMap((step) => [step.title, step.instruction, step.why, step.expected].map((text) => ({ where: step.id, text }))),
    ]);

  it('copies no sentence of the source lesson', () => {
    for (const { where, text } of allTexts()) {
      const ours = words(text).join(' ');
      for (const sentence of SOURCE_SENTENCES) expect(ours.includes(words(sentence).join(' ')), `${where} contains "${sentence}"`).toBe(false);
    }
  });

  it('shares no run of six words with those sentences', () => {
    const RUN = 6;
    const runs = new Set<string>();
    for (const sentence of SOURCE_SENTENCES) {
      const w = words(sentence);
      for (let i = 0; i + RUN <= w.length; i++) runs.add(w.slice(i, i + RUN).join(' '));
    }
    for (const { where, text } of allTexts()) {
      const w = words(text);
      for (let i = 0; i + RUN <= w.length; i++) {
        const run = w.slice(i, i + RUN).join(' ');
        expect(runs.has(run), `${where} repeats "${run}"`).toBe(false);
      }
    }
  });

  it('uses revision placeholders only where a revision goes, and only after a tool result exists', () => {
    for (const lesson of LESSONS) {
      let toolResults = 0;
      for (const action of [...lesson.setup, ...lesson.steps.flatMap((step) => step.doItForMe)]) {
        if (action.do !== 'tool') continue;
        for (const [key, value] of Object.entries(action.args)) {
          if (value === '$latest' || value === '$previous') {
            expect(key, lesson.id).toBe('expectedRevision');
            expect(toolResults, `${lesson.id}: ${value} before enough tool results`).toBeGreaterThanOrEqual(value === '$latest' ? 1 : 2);
          }
        }
        toolResults++;
      }
    }
  });
});

// ---- replaying "Do it for me" against the real host ----

let dbCounter = 0;
const opened: { store: JournalStore; name: string }[] = [];

afterEach(async () => {
  const names = new Set(opened.map((entry) => entry.name));
  for (const { store } of opened.splice(0)) store.close();
  for (const name of names) {
    await new Promise<void>((resolve) => {
      const request = indexedDB.deleteDatabase(name);
      request.onsuccess = () => resolve();
      request.onerror = () => resolve();
      request.onblocked = () => resolve();
    });
  }
});

type DialogSnapshot = SnapshotFrom<typeof confirmationMachine>;

/**
 * The page, reduced to what the tutorial sees: it performs lesson actions through the host the
 * way `app/actions.ts` does, records facts where the page's features record them, and holds the
 * comparison the way the page does: a watched topic, updated from the changes that follow every
 * request (parsed with the page's schema). Dialogs go through the page's own confirmation machine,
 * its `answer` actor calling the host's `answerDialog` as the worker's handler does.
 */
class SimulatedPage {
  private facts: StampedFact[] = [];
  private seq = 0;
  private readonly dialog;
  /** Seed desk entries when the open dialog was answered (the page's `dialogBefore`). */
  private dialogBefore = 0;
  private pendingApproval: { callId: string; args: string } | null = null;
  private readonly watches = new Watches();
  private comparison: ComparisonView | null = null;
  private compareMissing: string | null = null;
  private journalFilter = '';

  constructor(
    private readonly host: PlaygroundHost,
    private readonly store: JournalStore,
  ) {
    this.dialog = createActor(
      confirmationMachine.provide({
        actors: { answer: fromPromise(({ input }) => this.host.answerDialog(input.dialogId, input.confirmed)) },
      }),
    );
    let previous = this.dialog.getSnapshot().value;
    this.dialog.subscribe((snapshot) => {
      if (snapshot.value !== previous) this.reportDialog(snapshot);
      previous = snapshot.value;
    });
    this.dialog.start();
  }

  /** What `CommandLine.reportDialog` records when the dialog's machine reaches a state. */
  private reportDialog(snapshot: DialogSnapshot): void {
    const { change, code, result, title } = snapshot.context;
    switch (snapshot.value) {
      case 'open':
        this.note({ kind: 'dialog-opened', title });
        return;
      case 'committed':
        this.note({ kind: 'committed', change, via: 'dialog' });
        return;
      case 'refused':
        if (code) this.note({ kind: 'refused', code, via: 'dialog', change, deskEntries: this.since(this.dialogBefore) });
        return;
      case 'cancelled':
        if (change) this.note({ kind: 'cancelled', change });
        return;
      case 'failed':
        this.note({ kind: 'storage-failed', text: result });
        return;
    }
  }

  private dialogBusy(): boolean {
    return ['open', 'committing', 'cancelling'].includes(String(this.dialog.getSnapshot().value));
  }

  /** Confirm or Cancel in the open dialog, then wait until the extension's run has ended (as `actions.ts`). */
  private async answerDialog(confirmed: boolean): Promise<void> {
    if (this.dialog.getSnapshot().value !== 'open') throw new Error('No dialog is open.');
    this.dialogBefore = this.deskEntries();
    this.dialog.send({ type: confirmed ? 'CONFIRM' : 'CANCEL' });
    await waitFor(this.dialog, (snapshot) => !['committing', 'cancelling'].includes(String(snapshot.value)), { timeout: 10_000 });
  }

  get nextSeq(): number {
    return this.seq + 1;
  }

  private note(fact: Fact): void {
    this.facts.push({ ...fact, seq: ++this.seq } as StampedFact);
  }

  async observed(from: number): Promise<Observed> {
    await this.sync();
    return {
      view: this.host.view(),
      facts: this.facts.filter((fact) => fact.seq >= from),
      branch: this.host.branch(),
      events: this.host.events(),
      journalFilter: this.journalFilter,
      comparison: this.comparison,
    };
  }

  /** What the worker sends after a request, as the page folds it in (here only the comparison matters). */
  private async sync(): Promise<void> {
    const changes = ChangesSchema.parse(await this.watches.changes(this.host.core));
    for (const update of changes.updates) {
      if (update.topic !== 'compare') continue;
      this.comparison = update.comparison;
      this.compareMissing = update.missing;
    }
  }

  private toolRevisions(): string[] {
    const revisions: string[] = [];
    for (const fact of this.facts) {
      if (fact.kind !== 'tool' || fact.outcome.kind !== 'result') continue;
      const revision = fact.outcome.details?.revision;
      if (revision && revisions.at(-1) !== revision) revisions.push(revision);
    }
    return revisions;
  }

  private deskEntries(): number {
    return this.host.view().seedDeskEntryCount;
  }

  private since(before: number): { before: number; after: number } {
    return { before, after: this.deskEntries() };
  }

  private async callTool(args: string): Promise<ToolCallOutcome> {
    const before = this.deskEntries();
    const outcome = await this.host.callTool(args, false);
    if (outcome.kind === 'approval') this.pendingApproval = { callId: outcome.callId, args };
    else this.note({ kind: 'tool', args, outcome, deskEntries: this.since(before) });
    return outcome;
  }

  async perform(action: LessonAction): Promise<void> {
    await this.act(action);
    await this.sync();
  }

  private async act(action: LessonAction): Promise<void> {
    const before = this.deskEntries();
    switch (action.do) {
      case 'line': {
        // The page turns a line away while its dialog waits; a lesson that tried would be wrong.
        if (this.dialogBusy()) throw new Error(`A dialog is still open when the lesson types ${action.text}.`);
        const outcome = await this.host.runLine(action.text);
        if (outcome.kind === 'confirm') {
          this.dialog.send({ type: 'OPENED', outcome, revision: this.host.view().revision });
          return;
        }
        if (outcome.kind === 'answer') this.note({ kind: 'answer', text: outcome.text, query: outcome.query });
        if (outcome.kind === 'said') this.note({ kind: 'said', text: action.text });
        if (outcome.kind === 'refused') this.note({ kind: 'refused', code: outcome.code, via: 'line', change: outcome.change, deskEntries: this.since(before) });
        return;
      }
      case 'confirm':
      case 'cancel':
        await this.answerDialog(action.do === 'confirm');
        return;
      case 'meanwhile-reserve': {
        const outcome = await this.host.meanwhileReserve('marigold-french', 1);
        this.note({ kind: 'meanwhile', what: 'reserve' });
        if (outcome.kind === 'committed') this.note({ kind: 'committed', change: outcome.change, via: 'meanwhile' });
        return;
      }
      case 'meanwhile-step-back':
        this.host.stepBack();
        this.note({ kind: 'meanwhile', what: 'step-back' });
        return;
      case 'step-back':
        this.host.stepBack();
        this.note({ kind: 'navigated', entryId: this.host.view().leafId });
        return;
      case 'corrupt-demo':
        await this.host.appendCorruptSnapshot();
        return;
      case 'tool': {
        const revisions = this.toolRevisions();
        const fill = (value: unknown): unknown => (value === '$latest' ? (revisions.at(-1) ?? value) : value === '$previous' ? (revisions.at(-2) ?? value) : value);
        await this.callTool(JSON.stringify(Object.fromEntries(Object.entries(action.args).map(([key, value]) => [key, fill(value)]))));
        return;
      }
      case 'approve':
      case 'deny': {
        const pending = this.pendingApproval;
        if (!pending) throw new Error('No approval prompt is waiting.');
        this.pendingApproval = null;
        const outcome = await this.host.answerApproval(pending.callId, action.do === 'approve');
        this.note({ kind: 'tool', args: pending.args, outcome, deskEntries: this.since(before) });
        return;
      }
      case 'policy':
        this.host.setApprovalPolicy(action.value);
        this.note({ kind: 'policy', value: action.value });
        return;
      case 'approval-mode':
        this.host.setApprovalMode(action.value);
        this.note({ kind: 'approval-mode', value: action.value });
        return;
      case 'interactive':
        this.host.setInteractive(action.value);
        this.note({ kind: 'interactive', value: action.value });
        return;
      case 'filter-journal':
        this.journalFilter = action.text;
        return;
      case 'reopen': {
        const { leafId: from, leafBehind: behind } = this.host.view();
        await this.host.reopen();
        this.note({ kind: 'reopened', from, to: this.host.view().leafId, behind });
        return;
      }
      case 'branch-from':
        this.branchFrom({ by: 'text', text: action.text });
        return;
      case 'branch-before-last-reservation':
        this.branchFrom({ by: 'before-last-reservation' });
        return;
      case 'compare-with-other-branch': {
        this.watches.watch({ topic: 'compare', other: { by: 'newest-off-branch' } }, this.host.core);
        await this.sync();
        if (this.compareMissing !== null) throw new Error(this.compareMissing);
        return;
      }
      case 'try-other-revision': {
        // As `SessionTree.tryOtherRevision`: only the agent's act carries a revision of its own choosing.
        const { comparison } = await this.observed(this.nextSeq);
        if (!comparison) throw new Error('Nothing is being compared.');
        const revision = comparison.right.revision;
        const outcome = await this.callTool(JSON.stringify({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: revision }));
        if (outcome.kind === 'result' && outcome.details?.code) this.note({ kind: 'refused', code: outcome.details.code, via: 'compare', change: null, deskEntries: this.since(before) });
        return;
      }
      case 'new-session':
        await this.host.newSession();
        this.note({ kind: 'new-session' });
        return;
      case 'twin-tab':
        await this.twinTab();
        return;
      case 'fail-next-write':
        this.host.injectFault('abort');
        return;
      case 'closing-answer':
        this.note({ kind: 'closing-answer', value: action.value });
        return;
    }
  }

  /** A second host on the same database, standing before this tab's last reservation (as `runTwinTab`). */
  private async twinTab(): Promise<void> {
    await this.store.setLastSession(this.host.sessionId);
    const twin = await PlaygroundHost.start(this.store, seededIdSource(4242 + dbCounter));
    twin.onAppended = (sessionId, entries) => {
      if (this.host.adoptForeign(sessionId, entries)) this.note({ kind: 'foreign-append' });
    };
    // Throws when the branch holds no reservation: every lesson that opens a twin tab has one.
    twin.navigate({ by: 'before-last-reservation' });
    // The other tab's human types the command and confirms its dialog (as `runTwinTab`).
    let outcome: LineOutcome = await twin.runLine('/seeds reserve marigold-french 3');
    if (outcome.kind === 'confirm') outcome = await twin.answerDialog(outcome.dialogId, true);
    if (outcome.kind !== 'committed') throw new Error(`The twin tab could not reserve: ${JSON.stringify(outcome)}`);
    this.note({ kind: 'committed', change: outcome.change, via: 'twin' });
  }

  /** The tree's "Branch from here": the worker finds the entry; the fact records where the leaf went. */
  private branchFrom(target: EntryTarget): void {
    this.host.navigate(target);
    this.note({ kind: 'navigated', entryId: this.host.view().leafId });
  }
}

async function openPage(): Promise<SimulatedPage> {
  const name = `lessons-test-${++dbCounter}`;
  const store = await JournalStore.open(name);
  opened.push({ store, name });
  const host = await PlaygroundHost.start(store, seededIdSource(100 + dbCounter));
  return new SimulatedPage(host, store);
}

/** "Reset lesson", then every step: not done before its actions, done after them. */
async function replay(page: SimulatedPage, lesson: Lesson): Promise<void> {
  for (const action of [{ do: 'new-session' } as const, ...lesson.setup]) await page.perform(action);
  for (const step of lesson.steps) {
    const start = page.nextSeq;
    const before = checkStep(step, await page.observed(start));
    expect(before.done, `${lesson.id}/${step.id} ticks before anything was done`).toBe(false);
    expect(before.whyNot, `${lesson.id}/${step.id}`).toMatch(/\S/);
    for (const action of step.doItForMe) await page.perform(action);
    const after = checkStep(step, await page.observed(start));
    expect(after, `${lesson.id}/${step.id}: ${after.whyNot ?? ''}`).toEqual({ done: true, whyNot: null });
  }
}

/** The refusal codes each step met, and how: through the tool (the desk's answer to seed_desk) or a refusal the page saw (command line, dialog, compare). */
async function refusalsByStep(page: SimulatedPage): Promise<Map<string, Set<string>>> {
  const met = new Map<string, Set<string>>();
  for (const lesson of LESSONS) {
    for (const action of [{ do: 'new-session' } as const, ...lesson.setup]) await page.perform(action);
    for (const step of lesson.steps) {
      const start = page.nextSeq;
      for (const action of step.doItForMe) await page.perform(action);
      const codes = new Set<string>();
      for (const fact of (await page.observed(start)).facts) {
        if (fact.kind === 'refused') codes.add(`${fact.code} via ${fact.via}`);
        if (fact.kind === 'tool' && fact.outcome.kind === 'result' && fact.outcome.stage === 'domain' && fact.outcome.details?.code) codes.add(`${fact.outcome.details.code} via tool`);
      }
      met.set(step.id, codes);
    }
  }
  return met;
}

describe('the refusal table, met in the lessons', () => {
  it('every refusal code of the lesson is met by the learner in some step, each on the path the lesson shows it', async () => {
    const met = await refusalsByStep(await openPage());
    const all = new Set([...met.values()].flatMap((codes) => [...codes].map((code) => code.split(' via ')[0])));
    expect([...all].sort()).toEqual([...REFUSAL_CODES].sort());
    // The paths issue 11 names: agent-disabled through seed_desk before the grant and after the revoke;
    // an excess release through the tool and through /seeds; ui-required for a headless grant and revoke.
    expect(met.get('act-before-grant')).toContain('agent-disabled via tool');
    expect(met.get('act-after-revoke')).toContain('agent-disabled via tool');
    expect(met.get('excess-release')).toEqual(new Set(['insufficient-reservation via tool', 'insufficient-reservation via line']));
    expect(met.get('race-refused')).toEqual(new Set(['stale-revision via dialog']));
    expect(met.get('headless-ui-required')).toContain('ui-required via line');
    expect(met.get('headless-revoke-refused')).toEqual(new Set(['ui-required via line']));
    expect(met.get('corrupt-branch')).toContain('corrupt-state via line');
  });
});

describe('"Do it for me" reaches every checkpoint', () => {
  it('lesson 1 ends where the lesson text ends: basil 6 available, 2 reserved; bean 5 available, 0 reserved', async () => {
    const page = await openPage();
    const first = LESSONS[0] as Lesson;
    await replay(page, first);
    const { view } = await page.observed(page.nextSeq);
    const held = Object.fromEntries(view.rows.map((row) => [row.id, [row.available, row.reserved]]));
    expect(held['basil-genovese']).toEqual([6, 2]);
    expect(held['bean-scarlet']).toEqual([5, 0]);
  });

  it('replays all six lessons in order in one playground', async () => {
    const page = await openPage();
    for (const lesson of LESSONS) await replay(page, lesson);
  });

  it.each(LESSONS.map((lesson) => [lesson.id, lesson] as const))('replays %s after another lesson left the host headless with approval denied', async (_id, lesson) => {
    const page = await openPage();
    await page.perform({ do: 'interactive', value: false });
    await page.perform({ do: 'policy', value: 'deny' });
    await replay(page, lesson);
  });
});
