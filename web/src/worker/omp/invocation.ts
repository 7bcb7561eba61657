import type { NotifyLevel } from '../../../../extension/ompApi';
import type { SettleLimit } from './runPolicy';
import { valueOfAnswer, type UiAnswer, type UiRequest } from '../../protocol/uiRequests';

/**
 * One run of extension code (a command handler, a tool's execute) as the worker follows it. The
 * code is async and may stop at a UI request (`ui.confirm`, `select`, `input` are awaits): the
 * request that started it is answered then, and the run goes on when the page answers, in a
 * later request. `settle()` waits for whichever comes first: the run finishing or a request.
 */

export interface Notice {
  readonly level: NotifyLevel;
  readonly text: string;
  /** False when the host has no UI: a headless host drops notifications; the page still shows them, marked. */
  readonly shown: boolean;
}

/** What the run waits for, and how its `await` resumes. */
export interface Asked {
  readonly request: UiRequest;
  readonly resume: (value: boolean | string | undefined) => void;
}

export type RunResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

export class Invocation {
  readonly notices: Notice[] = [];
  asked: Asked | null = null;
  result: RunResult | null = null;
  /** Told when the page's answer lets the run go on (a new leg of the run starts). */
  onResume: (() => void) | null = null;
  private wake: (() => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `limit`: null waits for the run as long as it takes, as the real host does. */
  constructor(private readonly limit: SettleLimit | null = null) {}

  start(run: () => Promise<unknown>): this {
    // A handler that is not async may throw before it returns a promise: that is the run's error too.
    new Promise<unknown>((resolve) => resolve(run())).then(
      (value) => this.finish({ ok: true, value }),
      (error: unknown) => this.finish({ ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
    return this;
  }

  /** Resolves once the run has finished or waits on the UI (or the host stopped waiting: see `limit`). */
  settle(): Promise<void> {
    if (this.result !== null || this.asked !== null) return Promise.resolve();
    const limit = this.limit;
    if (limit) this.timer = setTimeout(() => this.finish({ ok: false, error: limit.gaveUp() }), limit.ms);
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  ask(asked: Asked): void {
    this.asked = asked;
    this.poke();
  }

  /** Answers what the run waits for; the run continues from its `await`. The caller has checked that the answer fits the request. */
  answer(answer: UiAnswer): void {
    const asked = this.asked;
    if (!asked) return;
    this.asked = null;
    this.onResume?.();
    asked.resume(valueOfAnswer(answer));
  }

  /**
   * What the run said since `from` (a notice count taken before). A host without UI drops
   * notifications; the page still shows them, marked, so the learner sees what was said to no one.
   */
  said(from = 0): string {
    return this.notices
      .slice(from)
      .map((notice) => (notice.shown ? notice.text : `(not shown: a host without UI drops notifications) ${notice.text}`))
      .join('\n');
  }

  private finish(result: RunResult): void {
    // A run the host stopped waiting for keeps the host's error, whatever it does later.
    if (this.result !== null) return;
    this.result = result;
    this.poke();
  }

  private poke(): void {
    clearTimeout(this.timer);
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
