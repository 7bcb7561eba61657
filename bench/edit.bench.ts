/**
 * The extension editor (issue 23), in Chromium on the loopback preview server of a production build:
 *  - "Edit" → editor ready, with a cold cache: a new browser context per round (its own HTTP
 *    cache, service workers blocked so nothing was precached), timed in the page from the click to
 *    the frame after CodeMirror's editable box is in the DOM. Target ≤ 1.5 s (median).
 *    For information: which requests the first screen and the Code tab made before "Edit" (none
 *    may be the editor's or the compiler's).
 *  - "Run my version" → the extension replaced and the desk shown again, once the compiler is
 *    loaded: from the click to the status line showing the edited extension's mark (the view that
 *    comes back with the swap, after `session_start`), alternating with "Back to the shipped
 *    extension". Target ≤ 300 ms (median). For information: the compile time the worker reports,
 *    and the first run with the compiler's cold download.
 *  - sizes: first screen ≤ 70 KiB and worker ≤ 40 KiB gzip (unchanged budgets), the editor's and
 *    the compiler's chunks (lazy), the .wasm, and the "Download my version" file.
 *  - offline: the service worker precaches the .wasm and every new chunk, and with the network
 *    off, "Edit" and "Run my version" still work.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import type { Browser, BrowserContext, Page } from 'playwright';
import { initialScripts, MAIN_BUDGET, measureBudgets, WORKER_BUDGET } from '../scripts/budget.mjs';
import { APP_URL, withBrowser } from './browserKit';
import { rounds, within } from './limits';
import { median, printTable, saveFigures, type Figure } from './stats';

const EDIT_ROUNDS = Math.max(rounds(5, 1), Number(process.env['EDIT_BENCH_ROUNDS'] ?? rounds(7, 1)));
const RUN_ROUNDS = Math.max(rounds(7, 2), Number(process.env['EDIT_BENCH_RUN_ROUNDS'] ?? rounds(15, 2)));
const KEY_ROUNDS = Math.max(rounds(9, 3), Number(process.env['EDIT_BENCH_KEY_ROUNDS'] ?? rounds(31, 3)));
/** One click's wait in the page: the editor's chunk, or the compiler's cold download and start. */
const STEP_LIMIT_MS = 120_000;
const EDIT_TARGET_MS = 1500;
const RUN_TARGET_MS = 300;
const RE_READ = 'const second = judge(readDesk(ctx));';
const NO_RE_READ = 'const second = first;';
const DIST = process.env['BENCH_PORT'] && process.env['BENCH_PORT'] !== '4173' ? `dist-bench-${process.env['BENCH_PORT']}` : 'dist';
/** Names of the files "Edit" and "Run my version" fetch. */
const EDITOR_CHUNK = /ExtensionEditor-.*\.js$/;
const COMPILER_FILES = /(compiler-.*\.js|esbuild-.*\.wasm|editing-.*\.js|editedModule-.*\.js|_virtual_extension-npm-bundle-.*\.js)$/;

const kib = (bytes: number) => `${(bytes / 1024).toFixed(1)} KiB`;
const ms = (value: number) => `${value.toFixed(0)} ms`;

async function openApp(context: BrowserContext): Promise<Page> {
  const page = await context.newPage();
  await page.goto(APP_URL);
  await page.getByRole('table', { name: 'Seed desk' }).waitFor();
  return page;
}

async function openCodeTab(page: Page): Promise<void> {
  await page.getByRole('tablist', { name: 'Tools' }).getByRole('tab', { name: 'Code', exact: true }).click();
  const panel = codePanel(page);
  await panel.getByRole('button', { name: 'Edit', exact: true }).waitFor();
  await panel.getByRole('figure', { name: 'extension/command.ts' }).waitFor();
}

const codePanel = (page: Page) => page.getByRole('tabpanel', { name: 'Code', exact: true });

/** Clicks "Edit" and times, in the page, until the frame after the editor's editable box exists. */
async function timeEdit(page: Page): Promise<number> {
  return within('"Edit" → the editor\'s editable box', STEP_LIMIT_MS, page.evaluate<number>(`(async () => {
    const panel = document.getElementById('tools-panel-code');
    const button = [...panel.querySelectorAll('button')].find((b) => b.textContent.trim() === 'Edit');
    const found = () => panel.querySelector('[role="textbox"][aria-label="Code editor"]');
    const start = performance.now();
    const ready = new Promise((resolve) => {
      const observer = new MutationObserver(() => { if (found()) { observer.disconnect(); resolve(); } });
      observer.observe(panel, { childList: true, subtree: true });
    });
    button.click();
    await ready;
    await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    return performance.now() - start;
  })()`));
}

/** Clicks a button of the Code tab and times until the status line does (or does not) carry the edited mark. */
async function timeSwap(page: Page, name: string, edited: boolean): Promise<number> {
  const what = `"${name}" → the status line ${edited ? 'names' : 'no longer names'} the edited extension`;
  return within(what, STEP_LIMIT_MS, page.evaluate<number>(`(async () => {
    const panel = document.getElementById('tools-panel-code');
    const button = [...panel.querySelectorAll('button')].find((b) => b.textContent.trim() === ${JSON.stringify(name)});
    const status = document.querySelector('[aria-label="Status line"]');
    const done = () => status.textContent.includes('your edited extension') === ${edited};
    const start = performance.now();
    const shown = new Promise((resolve) => {
      const observer = new MutationObserver(() => { if (done()) { observer.disconnect(); resolve(); } });
      observer.observe(status, { childList: true, subtree: true, characterData: true });
    });
    button.click();
    await shown;
    await new Promise((resolve) => requestAnimationFrame(() => resolve()));
    return performance.now() - start;
  })()`));
}

/**
 * Trusted key presses (Playwright's, through the browser's input pipeline) at the end of the file,
 * each timed in frames: from its `keydown` to the first animation frame at which the editor's
 * text holds the character (that frame draws it). Typed away again with Backspace, so the file is
 * the shipped one afterwards. Issue 27: the first key used to rebuild the editor and vanish.
 */
async function keyToCharacterFrames(page: Page): Promise<number[]> {
  const editor = codePanel(page).getByRole('textbox', { name: 'Code editor' });
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.evaluate(`(() => {
    const content = document.querySelector('#tools-panel-code [role="textbox"][aria-label="Code editor"]');
    window.__keyFrames = [];
    content.addEventListener('keydown', (event) => {
      if (!event.isTrusted || event.key !== '/') return;
      const before = content.textContent.split('/').length;
      let frames = 0;
      const tick = () => {
        frames += 1;
        if (content.textContent.split('/').length > before) window.__keyFrames.push(frames);
        else if (frames < 120) requestAnimationFrame(tick);
        else window.__keyFrames.push(Infinity);
      };
      requestAnimationFrame(tick);
    }, true);
  })()`);
  for (let key = 0; key < KEY_ROUNDS; key++) {
    // A non-word character, so no completion list opens between the keys.
    await page.keyboard.press('/');
    // A function, not a string: the page's CSP (script-src 'self', no unsafe-eval) refuses a string predicate.
    await page.waitForFunction((count) => (window as unknown as { __keyFrames: number[] }).__keyFrames.length === count, key + 1, { timeout: 10_000 });
  }
  for (let key = 0; key < KEY_ROUNDS; key++) await page.keyboard.press('Backspace');
  return page.evaluate<number[]>('window.__keyFrames');
}

/** The edit of the "Break it" lesson's first exercise, through the editor's search and replace. */
async function removeReRead(page: Page): Promise<void> {
  const panel = codePanel(page);
  await panel.getByRole('textbox', { name: 'Code editor' }).click();
  await page.keyboard.press('Control+f');
  await panel.getByRole('textbox', { name: 'Find', exact: true }).fill(RE_READ);
  await panel.getByRole('textbox', { name: 'Replace', exact: true }).fill(NO_RE_READ);
  await panel.getByRole('button', { name: 'replace all', exact: true }).click();
  await page.keyboard.press('Escape');
}

async function editorColdCache(browser: Browser): Promise<{ times: number[]; early: string[] }> {
  const times: number[] = [];
  const early = new Set<string>();
  for (let round = 0; round < EDIT_ROUNDS; round++) {
    const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1440, height: 900 } });
    const requested: string[] = [];
    context.on('request', (request) => requested.push(new URL(request.url()).pathname));
    const page = await openApp(context);
    await openCodeTab(page);
    for (const path of requested) if (EDITOR_CHUNK.test(path) || COMPILER_FILES.test(path)) early.add(path);
    times.push(await timeEdit(page));
    await context.close();
  }
  return { times, early: [...early] };
}

interface RunTimes {
  readonly firstRun: number;
  readonly runs: number[];
  readonly backs: number[];
  readonly compiles: number[];
  readonly downloadBytes: number;
  readonly keyFrames: number[];
}

async function runMyVersion(browser: Browser): Promise<RunTimes> {
  const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1440, height: 900 } });
  const page = await openApp(context);
  await openCodeTab(page);
  await codePanel(page).getByRole('button', { name: 'Edit', exact: true }).click();
  await codePanel(page).getByRole('textbox', { name: 'Code editor' }).waitFor();
  const keyFrames = await keyToCharacterFrames(page);
  await removeReRead(page);
  // The first run downloads and starts the compiler (cold cache): for information.
  const firstRun = await timeSwap(page, 'Run my version', true);
  const runs: number[] = [];
  const backs: number[] = [];
  const compiles: number[] = [];
  for (let round = 0; round < RUN_ROUNDS; round++) {
    backs.push(await timeSwap(page, 'Back to the shipped extension', false));
    runs.push(await timeSwap(page, 'Run my version', true));
    const said = (await codePanel(page).getByRole('status', { name: 'Your version' }).textContent()) ?? '';
    const compiled = /compiled in the worker in (\d+) ms/.exec(said);
    if (compiled?.[1]) compiles.push(Number(compiled[1]));
  }
  // The worker bundles the edited version (zod included) for the file: on a loaded machine that has taken over 30 s.
  const downloading = page.waitForEvent('download', { timeout: 120_000 });
  await codePanel(page).getByRole('button', { name: 'Download my version' }).click();
  const download = await downloading;
  const downloadBytes = statSync(await within('"Download my version" to finish downloading', 60_000, download.path())).size;
  await context.close();
  return { firstRun, runs, backs, compiles, downloadBytes, keyFrames };
}

/** With the service worker in charge: everything precached, then the network off; Edit and Run still work. */
async function offline(browser: Browser): Promise<{ ok: boolean; detail: string }> {
  const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
  try {
    const page = await openApp(context);
    // Wait until the service worker has installed (precache complete) and controls the page.
    await within('the service worker becoming ready', 60_000, page.evaluate(`navigator.serviceWorker.ready.then(() => true)`));
    await precachedWasm(page);
    await page.reload();
    await page.getByRole('table', { name: 'Seed desk' }).waitFor();
    await context.setOffline(true);
    await page.reload();
    await page.getByRole('table', { name: 'Seed desk' }).waitFor();
    await openCodeTab(page);
    await codePanel(page).getByRole('button', { name: 'Edit', exact: true }).click();
    await codePanel(page).getByRole('textbox', { name: 'Code editor' }).waitFor();
    await removeReRead(page);
    await timeSwap(page, 'Run my version', true);
    return { ok: true, detail: 'Edit and Run my version offline' };
  } catch (error) {
    return { ok: false, detail: error instanceof Error ? error.message.split('\n')[0] ?? '' : String(error) };
  } finally {
    await context.close();
  }
}

/**
 * Waits (up to 60 s) until the service worker's cache holds esbuild's .wasm: its precache is done.
 * Polled from Node: waitForFunction would need a string for an async check, which the page's CSP
 * refuses, and a function returning a promise is not awaited by it.
 */
async function precachedWasm(page: Page): Promise<void> {
  const deadline = Date.now() + 60_000;
  const check = `caches.keys().then((names) => Promise.all(names.map((name) => caches.open(name).then((cache) => cache.keys())))).then((lists) => lists.flat().some((request) => /esbuild-.*\\.wasm/.test(request.url)))`;
  while (!(await page.evaluate<boolean>(check))) {
    if (Date.now() > deadline) throw new Error('the service worker did not precache esbuild\'s .wasm within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** What the service worker precaches, read from the built sw.js. */
function precached(dist: string): Set<string> {
  const sw = readFileSync(join(dist, 'sw.js'), 'utf8');
  return new Set([...sw.matchAll(/url:"([^"]+)"/g)].map((match) => (match[1] ?? '').replace(/^\//, '')));
}

const results = await withBrowser(async (browser) => {
  const edit = await editorColdCache(browser);
  const run = await runMyVersion(browser);
  const off = await offline(browser);
  return { edit, run, off };
});

const budgets = measureBudgets(DIST);
const assets = readdirSync(join(DIST, 'assets'));
const gz = (name: string) => gzipSync(readFileSync(join(DIST, 'assets', name))).length;
const editorChunks = assets.filter((name) => EDITOR_CHUNK.test(name));
const compilerFiles = assets.filter((name) => COMPILER_FILES.test(name));
const wasm = assets.find((name) => name.endsWith('.wasm')) ?? '';
const initial = initialScripts(DIST).map((path) => path.slice(DIST.length + 1));
const eager = initial.filter((path) => EDITOR_CHUNK.test(path) || COMPILER_FILES.test(path));
const cached = precached(DIST);
const newFiles = [...editorChunks, ...compilerFiles].map((name) => `assets/${name}`);
const missing = newFiles.filter((path) => !cached.has(path));

const editMedian = median(results.edit.times);
const runMedian = median(results.run.runs);
printTable(
  'Extension editor (issue 23)',
  ['measure', 'median', 'min', 'max', 'n'],
  [
    ['"Edit" → editor ready, cold cache', ms(editMedian), ms(Math.min(...results.edit.times)), ms(Math.max(...results.edit.times)), String(results.edit.times.length)],
    ['"Run my version" → replaced, desk shown', ms(runMedian), ms(Math.min(...results.run.runs)), ms(Math.max(...results.run.runs)), String(results.run.runs.length)],
    ['  of which the compile (worker)', ms(median(results.run.compiles)), ms(Math.min(...results.run.compiles)), ms(Math.max(...results.run.compiles)), String(results.run.compiles.length)],
    ['"Back to the shipped extension" → shown', ms(median(results.run.backs)), ms(Math.min(...results.run.backs)), ms(Math.max(...results.run.backs)), String(results.run.backs.length)],
    ['first "Run my version" (compiler cold)', ms(results.run.firstRun), '', '', '1'],
    ['trusted key press → character in the editor (frames)', String(median(results.run.keyFrames)), String(Math.min(...results.run.keyFrames)), String(Math.max(...results.run.keyFrames)), String(results.run.keyFrames.length)],
  ],
);

const figures: Figure[] = [
  { issue: 23, measure: '"Edit" → editor ready, cold cache (median, loopback preview)', value: ms(editMedian), target: `≤ ${ms(EDIT_TARGET_MS)}`, met: editMedian <= EDIT_TARGET_MS },
  { issue: 23, measure: '"Run my version" → extension replaced and desk shown, compiler loaded (median)', value: ms(runMedian), target: `≤ ${ms(RUN_TARGET_MS)}`, met: runMedian <= RUN_TARGET_MS },
  { issue: 23, measure: '  of which esbuild-wasm compiles in the worker (median)', value: ms(median(results.run.compiles)), target: '', met: null },
  { issue: 23, measure: 'first "Run my version", compiler downloaded and started (cold cache)', value: ms(results.run.firstRun), target: '', met: null },
  { issue: 27, measure: 'trusted key press → character in the editor, animation frames (median; every key arrives)', value: `${median(results.run.keyFrames)} frames (max ${Math.max(...results.run.keyFrames)})`, target: '≤ 1 frame', met: median(results.run.keyFrames) <= 1 && results.run.keyFrames.every(Number.isFinite) },
  {
    issue: 23,
    measure: 'first screen / worker JavaScript with the editor and compiler built, gzip',
    value: `${kib(budgets.mainTotal)} / ${kib(budgets.workerTotal)}`,
    target: `≤ ${kib(MAIN_BUDGET)} / ≤ ${kib(WORKER_BUDGET)}`,
    met: budgets.mainTotal <= MAIN_BUDGET && budgets.workerTotal <= WORKER_BUDGET,
  },
  {
    issue: 23,
    measure: 'editor and compiler files in the first screen / fetched before "Edit"',
    value: `${eager.length} / ${results.edit.early.length}`,
    target: '0 / 0',
    met: eager.length === 0 && results.edit.early.length === 0,
  },
  { issue: 23, measure: 'editor chunk (CodeMirror), gzip, on "Edit"', value: kib(editorChunks.reduce((sum, name) => sum + gz(name), 0)), target: '', met: null },
  { issue: 23, measure: 'compiler files (esbuild-wasm JS, graph, loaders), gzip, on "Run my version"', value: kib(compilerFiles.filter((name) => !name.endsWith('.wasm')).reduce((sum, name) => sum + gz(name), 0)), target: '', met: null },
  { issue: 23, measure: 'esbuild.wasm raw / gzip', value: `${kib(statSync(join(DIST, 'assets', wasm)).size)} / ${kib(gz(wasm))}`, target: '', met: null },
  { issue: 23, measure: '"Download my version" (one ES module, zod bundled)', value: kib(results.run.downloadBytes), target: '', met: null },
  { issue: 23, measure: 'new chunks and the .wasm precached by the service worker', value: `${newFiles.length - missing.length} of ${newFiles.length}${missing.length ? ` (missing ${missing.join(', ')})` : ''}`, target: 'all', met: missing.length === 0 && newFiles.length > 0 },
  { issue: 23, measure: 'offline (service worker): Edit and Run my version work', value: results.off.ok ? 'yes' : `no: ${results.off.detail}`, target: 'yes', met: results.off.ok },
];
printTable('Figures', ['measure', 'value', 'target', 'met'], figures.map((figure) => [figure.measure, figure.value, figure.target, figure.met === null ? '—' : figure.met ? 'yes' : 'NO']));
await saveFigures('edit', figures);
