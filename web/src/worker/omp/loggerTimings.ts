/**
 * `pi.logger`'s timing helpers as OMP 18.2.3 behaves with timings off (pi-utils src/logger.ts:
 * `PI_TIMING` and `PI_DEBUG_STARTUP` unset, no `startTiming`): the page records no timings, so
 * nothing here measures. `time(op, fn, ...args)` still runs `fn` and returns what it returns, so
 * code that wraps its work in a span works unchanged.
 */

/** logger.ts `time`: a point event records nothing; a span runs `fn` and returns its value. */
function time(op: string): undefined;
function time<T, A extends unknown[]>(op: string, fn: (...args: A) => T, ...args: A): T;
function time<T, A extends unknown[]>(_op: string, fn?: (...args: A) => T, ...args: A): T | undefined {
  return fn === undefined ? undefined : fn(...args);
}

export const TIMINGS_OFF = {
  time,
  /** `PI_DEBUG_STARTUP` unset: no marker is written. */
  startupMarker: (_text: string): void => undefined,
  /** `PI_TIMING` unset: no mode is on. */
  timingModeIncludes: (_option: string): boolean => false,
  shouldExitAfterTimings: (): boolean => false,
  /** Nothing recorded: OMP's own line for that, on the worker's console. */
  printTimings: (): void => console.error('\n--- Startup Timings ---\n(no markers)\n'),
  /** OMP starts recording here; the page keeps timings off, so it records nothing. */
  startTiming: (): void => undefined,
  /** Not recording: OMP ignores the span. */
  recordModuleLoadSpan: (_path: string, _start: number, _durationMs: number, _bodyMs?: number, _imports?: string[]): void => undefined,
  endTiming: (): void => undefined,
  /** No span is open. */
  openSpanPath: (): string[] => [],
};
