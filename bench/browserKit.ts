/** Shared set-up for the browser benchmarks: build, serve, launch Chromium, stop everything. */
import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from 'playwright';
import { ensureChromium } from '../scripts/find-chromium.mjs';
import { within } from './limits';

// BENCH_PORT lets two benchmark runs share one machine: each gets its own ports and build folders.
const PORT = Number(process.env['BENCH_PORT'] ?? 4173);
const ALONE = PORT === 4173;
// Absolute: each Vite config resolves a relative outDir against its own root.
const APP_DIST = fileURLToPath(new URL(ALONE ? '../dist' : `../dist-bench-${PORT}`, import.meta.url));
const STORE_DIST = fileURLToPath(new URL(ALONE ? '../bench-dist' : `../bench-dist-${PORT}`, import.meta.url));
export const APP_URL = `http://127.0.0.1:${PORT}/`;
export const STORE_BENCH_URL = `http://127.0.0.1:${PORT + 1}/`;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function sh(command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`))));
  });
}

async function serve(command: string, url: string): Promise<ChildProcess> {
  const child = spawn(command, { shell: true, stdio: 'ignore', detached: true });
  // Up to 60 s: on a loaded two-core machine a preview server has taken more than 10 s to answer.
  for (let attempt = 0; attempt < 600; attempt++) {
    try {
      if ((await fetch(url)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

/** The app's production build (and the storage bench page's), into this port's folders. */
export async function buildAll({ storePage = true } = {}): Promise<void> {
  const minify = process.env['BENCH_MINIFY'] === '0' ? ' --minify false' : '';
  await sh(`npx vite build --bypass-lock${minify} --logLevel warn --outDir ${APP_DIST}${storePage ? ` && npx vite build --bypass-lock --config bench/vite.bench.config.ts --logLevel warn --outDir ${STORE_DIST}` : ''}`);
}

/**
 * Builds the app (and the storage bench page), serves both, and hands a browser to `work`.
 * BENCH_BUILT=1 (set by `npm run bench`, which builds once for every part) skips the build.
 */
export async function withBrowser<T>(work: (browser: Browser) => Promise<T>, { storePage = false } = {}): Promise<T> {
  const found = ensureChromium();
  if (process.env['BENCH_BUILT'] !== '1') await buildAll({ storePage });
  const servers: ChildProcess[] = [];
  // Stopped from outside (npm run bench's limit per part): the servers are in their own process groups, so stop them here.
  const stopServers = () => {
    for (const server of servers) {
      try {
        if (server.pid) process.kill(-server.pid);
      } catch {
        // already gone
      }
    }
  };
  const onTerm = () => {
    stopServers();
    process.exit(143);
  };
  process.once('SIGTERM', onTerm);
  servers.push(await serve(`npx vite preview --bypass-lock --host 127.0.0.1 --port ${PORT} --strictPort --outDir ${APP_DIST}`, APP_URL));
  if (storePage) servers.push(await serve(`npx vite preview --bypass-lock --config bench/vite.bench.config.ts --port ${PORT + 1} --outDir ${STORE_DIST}`, STORE_BENCH_URL));
  const browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS });
  // Playwright's waits have a limit (30 s unless a wait says otherwise); page.evaluate has none,
  // so each long in-page run is wrapped in `within` (limits.ts) with a sentence of its own.
  try {
    return await work(browser);
  } finally {
    await browser.close();
    stopServers();
    process.off('SIGTERM', onTerm);
  }
}

/** What scrolling a virtualised list cost: long tasks seen and the worst gap between frames. */
export interface ScrollResult {
  longestTaskMs: number;
  longTasks: number;
  worstFrameMs: number;
  frames: number;
}

/** Scrolls the element matching `selector` from its top to its bottom, one viewport per frame. */
export async function scrollCost(page: Page, selector: string): Promise<ScrollResult> {
  // A string, not a function: tsx's name-keeping helper does not exist inside the page.
  // One viewport per frame: 10k rows are about 800 frames, which took over 2 min on this loaded machine.
  return within(`scrolling ${selector} from top to bottom, one viewport per frame`, 600_000, page.evaluate<ScrollResult>(`(async () => {
    const tasks = [];
    const observer = new PerformanceObserver((list) => list.getEntries().forEach((entry) => tasks.push(entry.duration)));
    observer.observe({ type: 'longtask', buffered: false });
    const viewport = document.querySelector(${JSON.stringify(selector)});
    if (!viewport) throw new Error('nothing matches ${selector.replace(/'/g, '')}');
    // A box with no height would never reach its end: say so instead of scrolling forever.
    if (viewport.clientHeight === 0) throw new Error('${selector.replace(/'/g, '')} has no height: it cannot be scrolled');
    // From the top: the graph opens scrolled to its leaf, which is usually the last row.
    viewport.scrollTop = 0;
    await new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve)));
    let worst = 0;
    let frames = 0;
    let previous = performance.now();
    await new Promise((resolve) => {
      function step() {
        const now = performance.now();
        worst = Math.max(worst, now - previous);
        previous = now;
        frames++;
        if (viewport.scrollTop + viewport.clientHeight >= viewport.scrollHeight - 1) return resolve();
        viewport.scrollTop += viewport.clientHeight;
        requestAnimationFrame(step);
      }
      requestAnimationFrame(step);
    });
    await new Promise((resolve) => setTimeout(resolve, 100));
    observer.disconnect();
    return { longestTaskMs: tasks.length ? Math.max(...tasks) : 0, longTasks: tasks.length, worstFrameMs: worst, frames };
  })()`));
}
