/**
 * Looks at and measures the session graph on its development page, in Chromium:
 * - screenshots at 1440×900 and 1280×800, light and dark, into screenshots/graph-demo/;
 * - axe on each of them;
 * - the keyboard and the three actions, asserted through roles and accessible names;
 * - first render of 10k rows (median of 3 loads) and the longest task while scrolling them.
 * Run: npx tsx bench/graph-demo/harness.ts [--no-perf]   (serves on 127.0.0.1:4183; Chromium from CHROMIUM_PATH or /usr/bin/chromium)
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import AxeBuilder from '@axe-core/playwright';
import { chromium, type Page } from 'playwright';
import { ensureChromium } from '../../scripts/find-chromium.mjs';
import { scrollCost } from '../browserKit';
import { median, printTable } from '../stats';

const URL_BASE = 'http://127.0.0.1:4183/';
const SHOTS = fileURLToPath(new URL('../../screenshots/graph-demo/', import.meta.url));
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

function fail(what: string): never {
  throw new Error(`graph demo: ${what}`);
}

async function serve(): Promise<ChildProcess> {
  const child = spawn('npx vite preview --config bench/vite.graph-demo.config.ts', { shell: true, stdio: 'ignore', detached: true });
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      if ((await fetch(URL_BASE)).ok) return child;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  fail(`${URL_BASE} did not come up`);
}

async function open(page: Page, query: string): Promise<void> {
  await page.goto(`${URL_BASE}?${query}`);
  await page.waitForFunction(() => document.body.dataset['ready'] === 'true');
}

async function measure(page: Page, name: string): Promise<number> {
  return page.evaluate((n) => performance.getEntriesByName(n).at(-1)?.duration ?? Number.NaN, name);
}

async function checkInteractions(page: Page): Promise<void> {
  const tree = page.getByRole('tree', { name: 'Session tree' });
  const selected = tree.getByRole('treeitem', { selected: true });
  const lastAction = page.getByRole('status').or(page.getByLabel('Last action'));
  if (!(await selected.textContent())?.includes('← leaf')) fail('the leaf is not the first tab stop');
  await selected.focus();
  await page.keyboard.press('Home');
  if ((await selected.getAttribute('data-lane')) !== '0') fail('Home did not land on lane 0');
  // Right until a node in another lane is reached.
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowRight');
  const lane = Number(await selected.getAttribute('data-lane'));
  if (!(lane >= 1)) fail(`ArrowRight stayed in lane ${lane}`);
  await page.keyboard.press('ArrowLeft');
  if (Number(await selected.getAttribute('data-lane')) !== lane - 1) fail('ArrowLeft did not go back one lane');
  const id = await selected.getAttribute('data-id');
  await page.keyboard.press('Enter');
  if ((await lastAction.textContent()) !== `branch ${id}`) fail('Enter did not branch from the selected node');
  await page.getByRole('button', { name: 'Fork from here' }).click();
  if ((await lastAction.textContent()) !== `fork ${id}`) fail('"Fork from here" did not fork at the selected node');
  await page.getByRole('button', { name: 'Compare with selected' }).click();
  if ((await lastAction.textContent()) !== `compare ${id}`) fail('"Compare with selected" did not compare');
  if ((await tree.locator('[data-lane]').count()) > 80) fail('more rows in the DOM than the window holds');
}

async function main(): Promise<void> {
  const built = spawnSync('npx vite build --config bench/vite.graph-demo.config.ts', { shell: true, stdio: 'inherit' });
  if (built.status !== 0) fail('build failed');
  mkdirSync(SHOTS, { recursive: true });
  const server = await serve();
  const browser = await chromium.launch({ executablePath: ensureChromium().path, args: CHROMIUM_ARGS });
  try {
    const rows: string[][] = [];
    for (const [width, height] of [[1440, 900], [1280, 800]] as const) {
      for (const theme of ['light', 'dark'] as const) {
        const context = await browser.newContext({ viewport: { width, height }, colorScheme: theme });
        const page = await context.newPage();
        await open(page, `n=90&every=7&branch=1&theme=${theme}`);
        // The leaf opens in view; compare it with a seed desk entry off its branch, then select
        // the leaf so the actions show.
        const tree = page.getByRole('tree', { name: 'Session tree' });
        await tree.locator('[role="treeitem"][data-kind="seed-desk"]:not([data-lane="0"])').last().click();
        await page.getByRole('button', { name: 'Compare with selected' }).click();
        await tree.getByRole('treeitem').filter({ hasText: '← leaf' }).click();
        await page.screenshot({ path: `${SHOTS}${width}x${height}-${theme}.png` });
        const axe = await new AxeBuilder({ page }).analyze();
        const violations = axe.violations.map((v) => `${v.id} (${v.nodes.length}): ${v.nodes[0]?.failureSummary ?? ''}`);
        rows.push([`${width}×${height} ${theme}`, violations.length === 0 ? 'clean' : violations.join('; ')]);
        await context.close();
      }
    }
    // A filtered view (edges collapse across hidden entries) and an empty session, for axe and a look.
    for (const [name, query] of [['1440x900-seed-desk-filter', 'n=90&every=7&branch=1&filter=seed-desk'], ['1440x900-empty', 'n=0']] as const) {
      const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
      const page = await context.newPage();
      await open(page, query);
      await page.screenshot({ path: `${SHOTS}${name}.png` });
      const axe = await new AxeBuilder({ page }).analyze();
      rows.push([name, axe.violations.length === 0 ? 'clean' : axe.violations.map((v) => `${v.id} (${v.nodes.length})`).join('; ')]);
      await context.close();
    }
    printTable('Screenshots and axe', ['view', 'axe'], rows);

    const context = await browser.newContext({ viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    await open(page, 'n=300&branch=1');
    await checkInteractions(page);
    console.log('keyboard and actions: ok');

    if (process.argv.includes('--no-perf')) return;
    // The graph and the old tree's rows, interleaved so both see the same machine load.
    const f = (ms: number) => `${ms.toFixed(0)} ms`;
    const figures = { graph: { renders: [] as number[], longest: [] as number[], long: [] as number[] }, baseline: { renders: [] as number[], longest: [] as number[], long: [] as number[] } };
    let layouts: number[] = [];
    let parses: number[] = [];
    let domRows = 0;
    for (let run = 0; run < 3; run++) {
      for (const variant of ['graph', 'baseline'] as const) {
        await open(page, `n=10000${variant === 'baseline' ? '&baseline=1' : ''}`);
        figures[variant].renders.push(await measure(page, 'graph:first-render'));
        if (variant === 'graph') {
          layouts = [...layouts, await measure(page, 'graph:layout')];
          parses = [...parses, await measure(page, 'graph:parse')];
          domRows = await page.locator('[role="treeitem"]').count();
        }
        const scroll = await scrollCost(page, '.graph-viewport');
        figures[variant].longest.push(scroll.longestTaskMs);
        figures[variant].long.push(scroll.longTasks);
      }
    }
    const line = (variant: 'graph' | 'baseline') => figures[variant];
    printTable(`Session graph at 10k rows (Chromium ${browser.version()}); targets: first render ≤ 200 ms, no task over 50 ms while scrolling`, ['measure', 'graph', 'old tree rows (baseline)'], [
      ['first render (mount → next frame), median of 3', f(median(line('graph').renders)), f(median(line('baseline').renders))],
      ['first renders', line('graph').renders.map(f).join(', '), line('baseline').renders.map(f).join(', ')],
      ['longest task scrolling a page per frame, median of 3', f(median(line('graph').longest)), f(median(line('baseline').longest))],
      ['tasks over 50 ms per scroll run', line('graph').long.join(', '), line('baseline').long.join(', ')],
      ['layout (worker side, measured in the page)', f(median(layouts)), ''],
      ['schema parse of the rows (page side)', f(median(parses)), ''],
      ['treeitems in the DOM', String(domRows), ''],
    ]);
    await context.close();
  } finally {
    await browser.close();
    try {
      if (server.pid) process.kill(-server.pid);
    } catch {
      // already gone
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
