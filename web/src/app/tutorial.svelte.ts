import type { CheckResult, Observed } from '../lessons/facts';
import { LESSONS } from '../lessons/lessons';
import type { Lesson, LessonAction, LessonStep } from '../lessons/schema';
import type { Playground } from './playground.svelte';

/** Persisted name. CHANGING IT LOSES EVERY LEARNER'S PROGRESS. */
const PROGRESS_KEY = 'seed-desk:tutorial-progress';

export interface Position {
  readonly lesson: number;
  readonly step: number;
}

/** `#/lesson/<n>/step/<m>`, 1-based; anything else is not a lesson address. */
export function parseStepHash(hash: string): Position | null {
  const match = /^#\/lesson\/(\d+)\/step\/(\d+)$/.exec(hash);
  if (!match) return null;
  const lesson = Number(match[1]) - 1;
  const step = Number(match[2]) - 1;
  const found = LESSONS[lesson];
  return found && step >= 0 && step < found.steps.length ? { lesson, step } : null;
}

export function stepHash(position: Position): string {
  return `#/lesson/${position.lesson + 1}/step/${position.step + 1}`;
}

/**
 * The tutorial beside the playground: where the learner is, which steps have ticked, and the
 * runner behind "Do it for me" and "Reset lesson". Checkpoints tick by themselves: `check` is
 * derived from what the playground shows and the facts since the step began.
 */
export class Tutorial {
  position = $state<Position>({ lesson: 0, step: 0 });
  completed = $state.raw<ReadonlySet<string>>(new Set());
  running = $state(false);
  runError = $state<string | null>(null);
  /** Facts with a sequence number at or above this belong to the current step. */
  private stepStart = $state(1);
  /**
   * The checkpoints (every step's check, about a third of the page's own code) load beside the
   * first screen instead of in it: the first view never needs them before the worker's answer.
   */
  private checkStep = $state.raw<typeof import('../lessons/checkpoints').checkStep | null>(null);
  private checksMissing = $state(false);

  readonly lessons = LESSONS;

  constructor(private readonly playground: Playground) {
    this.completed = loadProgress();
    import('../lessons/checkpoints').then(
      ({ checkStep }) => (this.checkStep = checkStep),
      () => (this.checksMissing = true),
    );
  }

  get lesson(): Lesson {
    return LESSONS[this.position.lesson] ?? (LESSONS[0] as Lesson);
  }

  get step(): LessonStep {
    return this.lesson.steps[this.position.step] ?? (this.lesson.steps[0] as LessonStep);
  }

  observed(): Observed | null {
    const view = this.playground.view;
    if (!view) return null;
    return {
      view,
      facts: this.playground.facts.facts.filter((fact) => fact.seq >= this.stepStart),
      branch: this.playground.conversation.items,
      events: this.playground.events.items,
      journalFilter: this.playground.journal.filter,
      comparison: this.playground.tree.comparison,
    };
  }

  check(): CheckResult {
    const observed = this.observed();
    if (!observed) return { done: false, whyNot: 'The journal is still opening.' };
    if (!this.checkStep) return { done: false, whyNot: this.checksMissing ? 'The checks could not be loaded: reload the page.' : 'The checks are still loading.' };
    return this.checkStep(this.step, observed);
  }

  isComplete(step: LessonStep): boolean {
    return this.completed.has(step.id);
  }

  /** Called by the view whenever the check may have changed; records a tick once. */
  noteCheck(result: CheckResult): void {
    if (!result.done || this.completed.has(this.step.id)) return;
    this.completed = new Set([...this.completed, this.step.id]);
    saveProgress(this.completed);
  }

  goTo(position: Position): void {
    this.position = position;
    this.stepStart = this.playground.facts.nextSeq;
    this.runError = null;
    if (location.hash !== stepHash(position)) history.replaceState(null, '', stepHash(position));
  }

  next(): void {
    const { lesson, step } = this.position;
    if (step + 1 < this.lesson.steps.length) this.goTo({ lesson, step: step + 1 });
    else if (lesson + 1 < LESSONS.length) this.goTo({ lesson: lesson + 1, step: 0 });
  }

  previous(): void {
    const { lesson, step } = this.position;
    if (step > 0) this.goTo({ lesson, step: step - 1 });
    else if (lesson > 0) this.goTo({ lesson: lesson - 1, step: (LESSONS[lesson - 1]?.steps.length ?? 1) - 1 });
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
    return this.lesson.steps.slice(ready.step, step).every((item) => this.completed.has(item.id));
  }

  /**
   * Performs the current step the way a learner would. When the playground is not ready for this
   * step, it first resets the lesson and replays the earlier steps, so the step's own actions
   * start from the state they were written for.
   */
  async doItForMe(): Promise<void> {
    const { lesson, step } = this.position;
    if (!this.isReady()) {
      const earlier = this.lesson.steps.slice(0, step).flatMap((item) => item.doItForMe);
      await this.run([{ do: 'new-session' }, ...this.lesson.setup, ...earlier]);
      if (this.runError) return;
      this.stepStart = this.playground.facts.nextSeq;
    }
    await this.run(this.step.doItForMe);
    if (!this.runError) this.readyFor = { lesson, step: step + 1 };
  }

  /** A new session prepared as the lesson expects at its start; the lesson's ticks are cleared. */
  async resetLesson(): Promise<void> {
    const lesson = this.lesson;
    this.completed = new Set([...this.completed].filter((id) => !lesson.steps.some((step) => step.id === id)));
    saveProgress(this.completed);
    await this.run([{ do: 'new-session' }, ...lesson.setup]);
    // A failed reset keeps its message on screen, and nothing is considered prepared.
    if (this.runError) return;
    this.goTo({ lesson: this.position.lesson, step: 0 });
    this.readyFor = { lesson: this.position.lesson, step: 0 };
  }

  private async run(actions: readonly LessonAction[]): Promise<void> {
    if (this.running) return;
    this.running = true;
    this.runError = null;
    try {
      // The runner loads on first use: "Do it for me" is not on the first screen's budget.
      const { perform } = await import('./actions');
      for (const action of actions) await perform(this.playground, action);
    } catch (error) {
      this.runError = `Could not finish: ${error instanceof Error ? error.message : String(error)}`;
    } finally {
      this.running = false;
    }
  }
}

function loadProgress(): ReadonlySet<string> {
  try {
    const raw = localStorage.getItem(PROGRESS_KEY);
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return new Set(Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : []);
  } catch {
    return new Set();
  }
}

function saveProgress(completed: ReadonlySet<string>): void {
  try {
    localStorage.setItem(PROGRESS_KEY, JSON.stringify([...completed]));
  } catch {
    // Storage may be full or disabled: progress then lasts for this visit only.
  }
}
