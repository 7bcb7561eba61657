/**
 * What the page's host asks of a run of extension code beyond what the real OMP asks (issue 28):
 * the runtime calls these hooks, and only the learner's edited extension has a policy
 * (`edit/runLimits.ts`, loaded with the editor). The shipped extension runs with none, as the real
 * host runs it. The hooks live here as a type so the worker's first chunk carries no caps or words.
 */
export interface RunPolicy {
  /** A run (or a leg after a dialog's answer) begins: per-run counts start over. */
  newRun(): void;
  /** Before each `appendEntry`: throws a PageHostError to refuse it. */
  beforeAppend(): void;
  /** A notify's text as the page shows it (it may be cut). */
  notice(text: string): string;
  /** How long `what` may leave its promise unsettled with no dialog open; null: wait. */
  settleLimit(what: string): SettleLimit | null;
  /** `what` threw `error` (a handler, a tool's execute, an event handler). */
  threw(what: string, error: unknown): void;
}

/** The error every refusal of the page's host throws: its name says who refused. */
export class PageHostError extends Error {
  override readonly name = 'PageHostError';
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** How long `settle()` waits before the host gives up on the run, and what it then says. */
export interface SettleLimit {
  readonly ms: number;
  readonly gaveUp: () => string;
}
