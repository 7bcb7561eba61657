import { Session } from 'node:inspector/promises';

/**
 * Which of the repository's files a piece of work runs code in, measured by V8's own call counts
 * (precise coverage): everything before `trace` is called (loading, warming up) is not counted,
 * only the functions that ran while `work` ran, and while the answer it waited for came back.
 */
export async function filesRunBy(work: () => Promise<void>, root: string): Promise<string[]> {
  const session = new Session();
  session.connect();
  try {
    await session.post('Profiler.enable');
    await session.post('Profiler.startPreciseCoverage', { callCount: true, detailed: false });
    // A take resets the counts: what ran before this line does not count.
    await session.post('Profiler.takePreciseCoverage');
    await work();
    const { result } = await session.post('Profiler.takePreciseCoverage');
    const files = new Set<string>();
    for (const script of result) {
      if (!script.url.startsWith(`file://${root}/`) || script.url.includes('/node_modules/')) continue;
      // The first range of a function is its whole body; a count above 0 means it ran.
      const ran = script.functions.some((fn) => (fn.ranges[0]?.count ?? 0) > 0);
      if (ran) files.add(script.url.slice(`file://${root}/`.length).replace(/\?.*$/, ''));
      if (ran && process.env['TRACE_FUNCTIONS']) console.log(script.url, script.functions.filter((fn) => (fn.ranges[0]?.count ?? 0) > 0).map((fn) => fn.functionName || '(anonymous)').join(', '));
    }
    return [...files].sort();
  } finally {
    await session.post('Profiler.stopPreciseCoverage').catch(() => undefined);
    session.disconnect();
  }
}
