import { LESSON_INDEX, loadGoals, loadLesson } from 'virtual:lessons-index';
import type { CheckResult, Observed } from '../tutorial/facts';
import type { Lesson, LessonAction, LessonGoals, LessonIndexEntry, LessonStep } from '../../../lessons/format/lessonSchema';
import { loadProgress, saveProgress } from '../tutorial/progress';
import { settingsOf, settingsSentence, stepStartOf, type StepStart } from '../tutorial/stepStart';
import { observe } from './observe';
import type { Playground } from './playground.svelte';
import { parseStepHash, stepHash, type Position } from './stepAddress';

export { parseStepHash, stepHash, type Position };

type CheckGoal = typeof import('../tutorial/goals').checkGoal;

/**
 * The tutorial beside the playground: where the learner is, which steps have ticked, and the
 * runner behind "Do it for me", "Reset this step" and "Reset lesson". Steps tick by themselves:
 * `check` is the one goal checker reading the step's goal (data) against the page and the facts
 * since the step began.
 *
 * The first screen carries only the lessons' index (titles and step ids); the current lesson's
 * JSON (its texts, what it points at, its solutions) is fetched when it opens. The checker and the
 * lesson's goals wait for the learner's first action outside the Command box, the first fact the
 * page notes, or "Do it for me" (`startChecking`): until then there is nothing to judge.
 */
/** A Seed Desk step while the learner's own extension runs alone (issue 37). */
const OWN_RUNS = 'Not checked now: your own extension runs instead of Seed Desk, so this step has nothing to read. Choose a lesson in the list to bring Seed Desk back, or lesson 10 to practise with your own extension.';

export class Tutorial {
  position = $state<Position>({ lesson: 0, step: 0 });
  completed = $state.raw<ReadonlySet<string>>(new Set());
  running = $state(false);
  runError = $state<string | null>(null);
  /** The current lesson, once its JSON has arrived (null while it loads). */
  lesson = $state.raw<Lesson | null>(null);
  /** Why the current lesson or the checker could not be loaded, if they could not. */
  loadError = $state<string | null>(null);
  /** One sentence naming the host settings the runner just changed (a lesson's setup, "Reset this step"), if it changed any. */
  notice = $state<string | null>(null);
  /** The state the current step began from, for "Reset this step" (the edited files arrive from the worker). */
  private start: Promise<StepStart> | null = null;
  /** Whether the runner had left the playground ready for the current step when it began. */
  private startReady = false;
  /** Facts with a sequence number at or above this belong to the current step. */
  private stepStart = $state(1);
  private checkGoal = $state.raw<CheckGoal | null>(null);
  /** The goals of the lesson they belong to, once fetched. */
  private goals = $state.raw<{ readonly lesson: string; readonly goals: LessonGoals } | null>(null);
  private checking = $state(false);
  private readonly lessonsLoading = new Map<string, Promise<Lesson>>();
  private readonly goalsLoading = new Map<string, Promise<LessonGoals>>();

  readonly lessons: readonly LessonIndexEntry[] = LESSON_INDEX;

  constructor(private readonly playground: Playground) {
    this.completed = loadProgress();
    // The address's lesson, not the first one: a step address fetches only the lesson it names.
    this.position = parseStepHash(location.hash) ?? { lesson: 0, step: 0 };
    this.playground.closing.asking = this.stepId;
    void this.openLesson(this.position.lesson);
  }

  /** The current lesson's entry in the index (always there: titles and step ids are on the first screen). */
  get entry(): LessonIndexEntry {
    return LESSON_INDEX[this.position.lesson] ?? (LESSON_INDEX[0] as LessonIndexEntry);
  }

  get stepId(): string {
    return this.entry.steps[this.position.step] ?? this.entry.steps[0] ?? '';
  }

  /** The current step, once its lesson has loaded. */
  get step(): LessonStep | null {
    const lesson = this.lesson;
    if (!lesson || lesson.id !== this.entry.id) return null;
    return lesson.steps[this.position.step] ?? null;
  }

  /** Fetches a lesson's module (once), from `load`; `show` keeps it when that lesson is still the current one. */
  private async fetchOnce<T>(cache: Map<string, Promise<T>>, load: (id: string) => Promise<T>, index: number, show: (id: string, value: T) => void): Promise<T | null> {
    const entry = LESSON_INDEX[index];
    if (!entry) return null;
    let loading = cache.get(entry.id);
    if (!loading) {
      loading = load(entry.id);
      cache.set(entry.id, loading);
    }
    try {
      const value = await loading;
      if (this.entry.id === entry.id) show(entry.id, value);
      return value;
    } catch {
      cache.delete(entry.id);
      this.loadError = 'The lesson could not be loaded: reload the page.';
      return null;
    }
  }

  private openLesson(index: number): Promise<Lesson | null> {
    if (this.checking) void this.fetchOnce(this.goalsLoading, loadGoals, index, (lesson, goals) => (this.goals = { lesson, goals }));
    return this.fetchOnce(this.lessonsLoading, loadLesson, index, (_id, lesson) => (this.lesson = lesson));
  }

  /** Whether the page has noted anything the learner did (the checker's cue to load). */
  get playgroundHasFacts(): boolean {
    return this.playground.facts.facts.length > 0;
  }

  /** The learner's first action (outside the Command box), the first fact, or "Do it for me": the checker and the lesson's goals are fetched now. */
  startChecking(): void {
    if (this.checking) return;
    this.checking = true;
    import('../tutorial/goals').then(
      ({ checkGoal }) => (this.checkGoal = checkGoal),
      () => (this.loadError = 'The checks could not be loaded: reload the page.'),
    );
    void this.openLesson(this.position.lesson);
  }

  observed(): Observed | null {
    return observe(this.playground, this.stepStart);
  }

  check(): CheckResult {
    const observed = this.observed();
    const step = this.step;
    if (this.loadError) return { done: false, whyNot: this.loadError };
    if (!observed) return { done: false, whyNot: 'The journal is still opening.' };
    if (!step) return { done: false, whyNot: 'The lesson is still loading.' };
    // The learner's own extension runs instead of Seed Desk: a Seed Desk step has nothing to read.
    if (observed.view.own === true && this.entry.own !== true) return { done: false, whyNot: OWN_RUNS };
    const goal = this.goals?.lesson === this.entry.id ? this.goals.goals[step.id] : undefined;
    if (!this.checkGoal || !goal) return { done: false, whyNot: this.checking ? 'Not yet: the check is loading.' : 'Not yet: follow the step above; it is checked as you act.' };
    return this.checkGoal(goal, observed);
  }

  isComplete(stepId: string): boolean {
    return this.completed.has(stepId);
  }

  /** Called by the view whenever the check may have changed; records a tick once. */
  noteCheck(result: CheckResult): void {
    // After a reload the step began when the first view arrived.
    if (!this.start) this.start = this.captureStart();
    const id = this.step?.id;
    if (!result.done || id === undefined || this.completed.has(id)) return;
    this.completed = new Set([...this.completed, id]);
    saveProgress(this.completed);
  }

  goTo(position: Position): void {
    if (position.lesson !== this.position.lesson) this.notice = null;
    this.position = position;
    this.playground.closing.asking = this.stepId;
    this.stepStart = this.playground.facts.nextSeq;
    this.start = this.captureStart();
    this.runError = null;
    void this.openLesson(position.lesson);
    if (location.hash !== stepHash(position)) history.replaceState(null, '', stepHash(position));
  }

  next(): void {
    const { lesson, step } = this.position;
    if (step + 1 < this.entry.steps.length) this.goTo({ lesson, step: step + 1 });
    else if (lesson + 1 < LESSON_INDEX.length) this.goTo({ lesson: lesson + 1, step: 0 });
  }

  previous(): void {
    const { lesson, step } = this.position;
    if (step > 0) this.goTo({ lesson, step: step - 1 });
    else if (lesson > 0) this.goTo({ lesson: lesson - 1, step: (LESSON_INDEX[lesson - 1]?.steps.length ?? 1) - 1 });
  }

  /**
   * Where the runner last left the playground ready: after "Reset lesson" at step 0, after
   * "Do it for me" at the next step. Null until the runner has prepared anything.
   */
  private readyFor: Position | null = null;

  /**
   * The playground is ready for the current step when the runner left it there, or when the
   * learner ticked every step between where the runner left it and here (they did them by hand).
   */
  private isReady(): boolean {
    const ready = this.readyFor;
    const { lesson, step } = this.position;
    if (!ready || ready.lesson !== lesson || ready.step > step) return false;
    return this.entry.steps.slice(ready.step, step).every((id) => this.completed.has(id));
  }

  /**
   * Performs the current step the way a learner would. When the playground is not ready for this
   * step, it first resets the lesson and replays the earlier steps' solutions, so the step's own
   * actions start from the state they were written for.
   */
  async doItForMe(): Promise<void> {
    const { lesson: index, step } = this.position;
    const lesson = await this.openLesson(index);
    const current = lesson?.steps[step];
    if (!lesson || !current) return;
    if (!this.isReady()) {
      await this.runSetup(lesson);
      if (this.runError) return;
      await this.run(lesson.steps.slice(0, step).flatMap((item) => item.solution));
      if (this.runError) return;
      this.stepStart = this.playground.facts.nextSeq;
      this.start = this.captureStart();
    }
    await this.run(current.solution);
    if (!this.runError) this.readyFor = { lesson: index, step: step + 1 };
  }

  /** A new session prepared as the lesson expects at its start; the lesson's ticks are cleared. */
  async resetLesson(): Promise<void> {
    const index = this.position.lesson;
    const lesson = await this.openLesson(index);
    if (!lesson) return;
    this.completed = new Set([...this.completed].filter((id) => !lesson.steps.some((step) => step.id === id)));
    saveProgress(this.completed);
    await this.runSetup(lesson);
    // A failed reset keeps its message on screen, and nothing is considered prepared.
    if (this.runError) return;
    this.goTo({ lesson: index, step: 0 });
    this.readyFor = { lesson: index, step: 0 };
  }

  /** A new session and the lesson's setup; the host settings it changed are named in the lesson panel. */
  private async runSetup(lesson: Lesson): Promise<void> {
    const before = this.playground.view;
    await this.run([{ do: 'new-session', fresh: true }, ...lesson.setup]);
    const after = this.playground.view;
    this.notice = before && after ? settingsSentence(settingsOf(before), settingsOf(after), 'setup') : null;
  }

  /**
   * "Reset this step": the session, the leaf, the host settings and the running extension as the
   * step began (lessons/stepStart.ts); the journal keeps everything, the lesson keeps its ticks,
   * and the step's facts start again from here.
   */
  async resetStep(): Promise<void> {
    const start = await this.start;
    if (!start) return;
    let notice: string | null = null;
    await this.runWith(async ({ resetStepTo }) => {
      notice = await resetStepTo(this.playground, start);
    });
    if (this.runError) return;
    this.notice = `This step starts again from where it began; the journal keeps what you did, and earlier ticks stay.${notice ? ` ${notice}` : ''}`;
    this.stepStart = this.playground.facts.nextSeq;
    // The runner's preparation of a later step no longer holds: the playground is back at this one.
    if (this.startReady) this.readyFor = this.position;
    else if (this.readyFor && this.readyFor.lesson === this.position.lesson && this.readyFor.step > this.position.step) this.readyFor = null;
  }

  /** What the current step began from: the view now, and the edited files the worker runs (asked in order, so they are the ones of this moment). */
  private captureStart(): Promise<StepStart> | null {
    const view = this.playground.view;
    if (!view) return null;
    this.startReady = this.isReady();
    const branch = this.playground.conversation.items;
    const edited = settingsOf(view).extension === 'edited';
    const files = edited ? this.playground.connection.call({ type: 'storedEdits' }).then((stored) => stored?.files ?? null) : Promise.resolve(null);
    return files.then((editedFiles) => stepStartOf(view, branch, editedFiles));
  }

  private run(actions: readonly LessonAction[]): Promise<void> {
    return this.runWith(async ({ perform }) => {
      for (const action of actions) await perform(this.playground, action);
    });
  }

  private async runWith(work: (runner: typeof import('./actions')) => Promise<void>): Promise<void> {
    if (this.running) return;
    this.startChecking();
    this.running = true;
    this.runError = null;
    try {
      // The runner loads on first use: "Do it for me" is not on the first screen's budget.
      await work(await import('./actions'));
    } catch (error) {
      this.runError = `Could not finish: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.running = false;
    }
  }
}
