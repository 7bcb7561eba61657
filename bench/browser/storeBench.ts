/**
 * Storage benchmark page, driven through Playwright by bench/browser.bench.ts and
 * bench/import.bench.ts. `?bench=` picks one: `commit` (default), `head`, `import`. The result
 * lands in `window.__benchResult` (or `__benchError`).
 */
import { commitBench } from './commitBench';
import { headBench } from './headBench';
import { importBench } from './importBench';

const benches: Record<string, () => Promise<unknown>> = { commit: commitBench, head: headBench, import: importBench };
const name = new URLSearchParams(location.search).get('bench') ?? 'commit';
const target = window as unknown as { __benchResult?: unknown; __benchError?: string };
const bench = benches[name];
(bench ? bench() : Promise.reject(new Error(`no benchmark called ${name}`)))
  .then((result) => {
    target.__benchResult = result;
    document.getElementById('state')!.textContent = 'done';
  })
  .catch((error: unknown) => {
    target.__benchError = error instanceof Error ? `${error.message}\n${error.stack ?? ''}` : String(error);
  });
