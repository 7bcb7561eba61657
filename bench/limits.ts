/**
 * Every wait in the benchmarks has a limit, and a wait that runs out fails with a sentence that
 * says what did not happen (issue 38: a part once sat idle for ten minutes in silence).
 *
 * Quick mode (`npm run bench -- --quick`, or BENCH_QUICK=1) runs every part with a few rounds, so
 * CI finds a broken part without judging any target: its figures are printed but not judged.
 */
export const QUICK = process.env['BENCH_QUICK'] === '1';

/** `full` rounds normally, `quick` in quick mode. */
export function rounds(full: number, quick: number): number {
  return QUICK ? quick : full;
}

/** Resolves with `work`, or fails with "`what` did not finish within N s" once `ms` have passed. */
export async function within<T>(what: string, ms: number, work: Promise<T>): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not finish within ${(ms / 1000).toFixed(0)} s.`)), ms);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

/**
 * In-page source of `frame()`: the next animation frame, then a task. A tab whose frames stop
 * (hidden, or its renderer hung) fails within `ms` with a sentence instead of waiting forever.
 */
export const FRAME_WITH_LIMIT = (ms = 5000) =>
  `() => new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no animation frame within ${ms / 1000} s: the tab is hidden or its page is stuck (document.visibilityState ' + document.visibilityState + ')')), ${ms});
    requestAnimationFrame(() => { clearTimeout(timer); setTimeout(resolve, 0); });
  })`;
