/**
 * Browser benchmark (issue 3), in headless Chromium through Playwright:
 *  - the revision-checked commit against a bare IndexedDB put+commit, same page, alternating;
 *  - the worker round trip as the page sees it (User Timing measures recorded by the app);
 *  - "command typed → answer shown" and "Confirm clicked → desk table updated", timed in the
 *    page from the input event to the DOM mutation.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { chromium, type Page } from 'playwright';
import { ensureChromium } from '../scripts/find-chromium.mjs';
import { formatMicros, percentile, printTable } from './stats';

const APP_URL = 'http://127.0.0.1:4173/';
const BENCH_URL = 'http://127.0.0.1:4174/';
const UI_ROUNDS = 40;
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function sh(command: string): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, { shell: true, stdio: 'inherit' });
    child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`${command} exited with ${code}`))));
  });
}

async function serve(command: string, url: string): Promise<ChildProcess> {
  const child = spawn(command, { shell: true, stdio: 'ignore', detached: true });
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(url)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

const ms = (values: readonly number[], p: number) => formatMicros(percentile(values, p) * 1000);

async function storeBench(page: Page): Promise<{ checked: number[]; bare: number[] }> {
  await page.goto(BENCH_URL);
  await page.waitForFunction(() => {
    const w = window as unknown as { __benchResult?: unknown; __benchError?: string };
    if (w.__benchError) throw new Error(w.__benchError);
    return w.__benchResult !== undefined;
  }, undefined, { timeout: 120_000 });
  return page.evaluate(() => (window as unknown as { __benchResult: { checked: number[]; bare: number[] } }).__benchResult);
}

async function uiBench(page: Page) {
  await page.goto(APP_URL);
  const desk = page.getByRole('table', { name: 'Seed desk' });
  await desk.waitFor();
  await page.evaluate(() => {
    const marks = { enter: [] as number[], confirm: [] as number[], output: [] as number[], table: [] as number[] };
    (window as unknown as { __marks: typeof marks }).__marks = marks;
    document.addEventListener('keydown', (event) => {
      if (event.key === 'Enter' && event.target instanceof HTMLInputElement) marks.enter.push(performance.now());
    }, true);
    document.addEventListener('click', (event) => {
      if (event.target instanceof HTMLElement && event.target.textContent === 'Confirm') marks.confirm.push(performance.now());
    }, true);
    const table = document.querySelector('table tbody');
    const output = document.querySelector('ol[aria-label="Command output"]');
    if (table) new MutationObserver(() => marks.table.push(performance.now())).observe(table, { subtree: true, childList: true, characterData: true });
    if (output) new MutationObserver(() => marks.output.push(performance.now())).observe(output, { subtree: true, childList: true, characterData: true });
  });
  const command = page.getByRole('textbox', { name: 'Command' });
  for (let i = 0; i < UI_ROUNDS; i++) {
    await command.fill('/seeds query');
    await command.press('Enter');
    await page.getByRole('list', { name: 'Command output' }).getByText(/revision:/).nth(i).waitFor();
  }
  const queryMarks = await page.evaluate(() => {
    const m = (window as unknown as { __marks: { enter: number[]; output: number[] } }).__marks;
    return { enter: [...m.enter], output: [...m.output] };
  });
  for (let i = 0; i < UI_ROUNDS; i++) {
    await command.fill(i % 2 === 0 ? '/seeds reserve basil-genovese 1' : '/seeds release basil-genovese 1');
    await command.press('Enter');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await page.getByRole('dialog').waitFor({ state: 'detached' });
    await desk.getByRole('row', { name: /basil-genovese/ }).getByRole('cell').nth(1).filter({ hasText: i % 2 === 0 ? '1' : '0' }).waitFor();
  }
  const marks = await page.evaluate(() => (window as unknown as { __marks: { confirm: number[]; table: number[] } }).__marks);
  const roundTrips = await page.evaluate(() => performance.getEntriesByName('seed-desk:worker-round-trip').map((entry) => entry.duration));
  const byType = await page.evaluate(() => performance.getEntriesByName('seed-desk:worker-round-trip').map((entry) => `${(entry as PerformanceMeasure).detail}:${entry.duration.toFixed(1)}`));
  if (process.env.BENCH_DEBUG) console.log(byType.join(' '));
  const firstAfter = (starts: number[], ends: number[]) =>
    starts.map((start) => (ends.find((end) => end >= start) ?? Number.NaN) - start).filter((value) => Number.isFinite(value));
  return {
    query: firstAfter(queryMarks.enter.slice(0, UI_ROUNDS), queryMarks.output),
    confirm: firstAfter(marks.confirm, marks.table),
    roundTrips,
  };
}

async function main(): Promise<void> {
  const found = ensureChromium();
  await sh('npx vite build --logLevel warn && npx vite build --config bench/vite.bench.config.ts');
  const servers = [
    await serve('npx vite preview --host 127.0.0.1 --port 4173 --strictPort', APP_URL),
    await serve('npx vite preview --config bench/vite.bench.config.ts', BENCH_URL),
  ];
  const browser = await chromium.launch({ executablePath: found.path, args: CHROMIUM_ARGS });
  try {
    const store = await storeBench(await browser.newPage());
    const ui = await uiBench(await browser.newPage());
    const ratio = percentile(store.checked, 50) / percentile(store.bare, 50);
    const confirmP95 = percentile(ui.confirm, 95);
    const queryP95 = percentile(ui.query, 95);
    printTable(`Browser (Chromium ${browser.version()}); ${store.checked.length} commits each; ${UI_ROUNDS} UI rounds`, ['measure', 'p50', 'p95', 'target', 'met'], [
      ['bare IndexedDB put+commit (baseline)', ms(store.bare, 50), ms(store.bare, 95), '', ''],
      ['revision-checked commit (store)', ms(store.checked, 50), ms(store.checked, 95), '', ''],
      ['checked / bare at p50', ratio.toFixed(2), (percentile(store.checked, 95) / percentile(store.bare, 95)).toFixed(2), '≤ 1.3 at p50', ratio <= 1.3 ? 'yes' : 'no'],
      ['worker round trip (page ↔ worker)', ms(ui.roundTrips, 50), ms(ui.roundTrips, 95), '', ''],
      ['/seeds query typed → answer shown', ms(ui.query, 50), ms(ui.query, 95), 'p95 ≤ 30 ms', queryP95 <= 30 ? 'yes' : 'no'],
      ['Confirm clicked → desk table updated', ms(ui.confirm, 50), ms(ui.confirm, 95), 'p95 ≤ 30 ms', confirmP95 <= 30 ? 'yes' : 'no'],
    ]);
  } finally {
    await browser.close();
    for (const server of servers) {
      try {
        if (server.pid) process.kill(-server.pid);
      } catch {
        // already gone
      }
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
