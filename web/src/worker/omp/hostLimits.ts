/**
 * What the page's host allows extension code per run (issue 28). The real OMP has none of these:
 * it runs extensions in its own process with full access. The page is stricter on purpose: the
 * code it runs may be the learner's edit, and the journal and the page must outlive any mistake
 * in it (docs/decisions.md, "Hostile extension code").
 */
export interface HostLimits {
  /** `appendEntry` calls one run may make; the next one throws and reaches nothing. */
  readonly appendsPerRun: number;
  /** Characters of one `notify` the page shows; the rest is cut, with a notice saying so. */
  readonly noticeChars: number;
  /**
   * How long a command or tool run may leave its promise unsettled (no dialog open) before the
   * host stops waiting and ends the run with an error; null: it waits, as the real host does.
   */
  readonly settleMs: number | null;
  /** Whether the host names on its own status line what the code did wrong (the learner's edit). */
  readonly reportsOnStatusLine: boolean;
}

/**
 * The shipped extension appends one entry per run; 100 leaves room for any loop a learner means,
 * and keeps a run's writes well inside the page's 1.5 s watchdog on a loaded machine.
 */
export const APPENDS_PER_RUN = 100;

/** The real host cuts strings over this many characters when it writes the session (omp-host.md §1.6). */
export const NOTICE_CHARS = 500_000;

/**
 * Half the page's watchdog (1.5 s, connection.svelte.ts): the worker answers, with what happened,
 * well before it would be taken for hung, even on a loaded machine.
 */
export const SETTLE_MS = 750;

export const SHIPPED_LIMITS: HostLimits = { appendsPerRun: APPENDS_PER_RUN, noticeChars: NOTICE_CHARS, settleMs: null, reportsOnStatusLine: false };

export const EDITED_LIMITS: HostLimits = { appendsPerRun: APPENDS_PER_RUN, noticeChars: NOTICE_CHARS, settleMs: SETTLE_MS, reportsOnStatusLine: true };

/** The status line key the page's host writes under (an extension's own keys are its names). */
export const HOST_STATUS_KEY = 'page-host';

/** How the page's host names itself on the status line, so no one takes the text for the extension's. */
export function hostStatusText(text: string): string {
  return `Page host: ${text}`;
}

/** The error every refusal of the page's host throws: its name says who refused. */
export class PageHostError extends Error {
  override readonly name = 'PageHostError';
}

/** A notify's text, cut to `max` characters with a notice of what was cut. */
export function cutNotice(text: string, max: number): string {
  if (text.length <= max) return text;
  return `${text.slice(0, max)}\n… cut by the page's host: it shows the first ${count(max)} of ${count(text.length)} characters.`;
}

export function count(n: number): string {
  return n.toLocaleString('en-US');
}

export function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
