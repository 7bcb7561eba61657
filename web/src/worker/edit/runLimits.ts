import type { SettleLimit } from '../omp/runPolicy';
import { messageOf, PageHostError, type RunPolicy } from '../omp/runPolicy';

/**
 * What the page's host allows the learner's edited extension per run (issue 28). The real OMP has
 * none of these: it runs extensions in its own process with full access. The page is stricter on
 * purpose with code the learner wrote: the journal and the page must outlive any mistake in it
 * (docs/decisions.md, "Hostile extension code"). The shipped extension runs without a policy.
 */

/**
 * The shipped extension appends one entry per run; 100 leaves room for any loop a learner means,
 * and keeps a run's writes short on a loaded machine.
 */
export const APPENDS_PER_RUN = 100;

/** The real host cuts strings over this many characters when it writes the session (omp-host.md §1.6). */
export const NOTICE_CHARS = 500_000;

/**
 * How long the host waits for a handler's promise before it ends the run and says so. The page's
 * watchdog (watchdog.ts) sees only a worker held by a loop; a promise that never settles leaves
 * the worker answering, so the host itself must stop waiting.
 */
export const SETTLE_MS = 750;

/**
 * The same for loading the learner's module (its top-level code and its factory): longer, because
 * the import itself (parsing a bundle with zod in it) is the page's cost and is slow on a loaded machine.
 */
export const LOAD_SETTLE_MS = 5000;

/** The status line key the page's host writes under (an extension's own keys are its names). */
export const HOST_STATUS_KEY = 'page-host';

/** How the page's host names itself on the status line, so no one takes the text for the extension's. */
export function hostStatusText(text: string): string {
  return `Page host: ${text}`;
}

export interface RunLimits {
  readonly appendsPerRun: number;
  readonly noticeChars: number;
  /** Null: the host waits for a run as long as it takes. */
  readonly settleMs: number | null;
}

export const EDITED_LIMITS: RunLimits = { appendsPerRun: APPENDS_PER_RUN, noticeChars: NOTICE_CHARS, settleMs: SETTLE_MS };

/** A notify's text, cut to `max` characters with a notice of what was cut. */
export function cutNotice(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… cut by the page's host: it shows the first ${count(max)} of ${count(text.length)} characters.`;
}

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

/**
 * The edited extension's policy: `report` names on the host's status line what the code did
 * wrong (the last one stays until the next), even when the code caught the error itself.
 */
export function editedPolicy(report: (text: string) => void, limits: RunLimits = EDITED_LIMITS): RunPolicy {
  let appendsThisRun = 0;
  // The one error every append past the cap throws in a run: a loop that catches it stays cheap.
  let overCap: PageHostError | null = null;
  return {
    newRun() {
      appendsThisRun = 0;
      overCap = null;
    },
    beforeAppend() {
      const cap = limits.appendsPerRun;
      if (appendsThisRun < cap) {
        appendsThisRun++;
        return;
      }
      if (overCap === null) {
        overCap = new PageHostError(`Your extension called appendEntry more than ${count(cap)} times in one run; the page's host kept the first ${count(cap)} entries and refused the rest (the real OMP has no such cap).`);
        report(overCap.message);
      }
      throw overCap;
    },
    notice(text) {
      const max = limits.noticeChars;
      if (text.length > max) report(`Your extension's notify was ${count(text.length)} characters long; the page shows the first ${count(max)} (the real OMP shows it whole).`);
      return cutNotice(text, max);
    },
    settleLimit(what): SettleLimit | null {
      const ms = limits.settleMs;
      if (ms === null) return null;
      return {
        ms,
        gaveUp: () => {
          const text = `Your ${what} returned a promise that did not settle within ${ms} ms and opened no dialog; the page's host stopped waiting for it (the real OMP would wait).`;
          report(text);
          return text;
        },
      };
    },
    threw(what, error) {
      if (!(error instanceof PageHostError)) report(`Your ${what} threw: ${messageOf(error)}`);
    },
  };
}
