#!/usr/bin/env node
// `npm run bench`: every benchmark part in turn (each prints its own table with medians and
// ratios against a baseline measured in the same run: timings on these machines are noisy),
// then one table with every figure, its target, and whether it was met.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { initialScripts, lazyScripts, MAIN_BUDGET, measureBudgets, WORKER_BUDGET } from './budget.mjs';

const parts = [
  { name: 'domain (Node)', file: 'domain', args: ['tsx', 'bench/domain.bench.ts'] },
  { name: 'storage and page (Chromium)', file: 'browser', args: ['tsx', 'bench/browser.bench.ts'] },
  { name: 'reopen, page load → desk shown (Chromium)', file: 'reopen', args: ['tsx', 'bench/reopen.bench.ts'] },
  { name: 'session tree, import, reopen (Chromium)', file: 'tree', args: ['tsx', 'bench/tree.bench.ts'] },
  { name: 'import against the real host (Chromium, Bun)', file: 'import', args: ['tsx', 'bench/import.bench.ts'] },
  { name: 'one message per action (Chromium)', file: 'protocol', args: ['tsx', 'bench/protocol.bench.ts'] },
  { name: 'the extension editor: Edit, Run my version, sizes, offline (Chromium)', file: 'edit', args: ['tsx', 'bench/edit.bench.ts'] },
  { name: 'JavaScript before the first interaction (Chromium)', file: 'first-interaction', args: ['tsx', 'bench/firstInteraction.bench.ts'] },
  { name: 'a real model: its code, first token → text (Chromium, scripted provider)', file: 'model', args: ['tsx', 'bench/model.bench.ts'] },
  { name: 'load: tabs on one session, and a race for the last marigold (Chromium)', file: 'load', args: ['tsx', 'bench/load.bench.ts'] },
];

rmSync('bench-results', { recursive: true, force: true });
let failed = false;
for (const part of parts) {
  console.log(`\n=== Benchmark: ${part.name} ===`);
  const run = spawnSync('npx', part.args, { stdio: 'inherit', env: process.env });
  if (run.status !== 0) {
    failed = true;
    console.error(`Benchmark part "${part.name}" failed with exit code ${run.status}.`);
  }
}

const figures = parts.flatMap((part) => {
  const path = `bench-results/${part.file}.json`;
  return existsSync(path) ? JSON.parse(readFileSync(path, 'utf8')) : [{ issue: 0, measure: `${part.name}: no figures (the part failed)`, value: '', target: '', met: false }];
});
if (existsSync('dist/index.html')) {
  const budgets = measureBudgets();
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  figures.push(
    { issue: 7, measure: 'first-screen JavaScript, gzip', value: kib(budgets.mainTotal), target: `≤ ${kib(MAIN_BUDGET)}`, met: budgets.mainTotal <= MAIN_BUDGET },
    { issue: 7, measure: 'worker JavaScript, gzip', value: kib(budgets.workerTotal), target: `≤ ${kib(WORKER_BUDGET)}`, met: budgets.workerTotal <= WORKER_BUDGET },
    { issue: 21, measure: 'first-screen / worker JavaScript with the extension hosted in the worker, gzip', value: `${kib(budgets.mainTotal)} / ${kib(budgets.workerTotal)}`, target: `≤ ${kib(MAIN_BUDGET)} / ≤ ${kib(WORKER_BUDGET)}`, met: budgets.mainTotal <= MAIN_BUDGET && budgets.workerTotal <= WORKER_BUDGET },
  );
  // The Code tab (its view, the highlighted sources) is fetched only when the tab opens.
  const initial = initialScripts().map((path) => path.replace(/^dist/, ''));
  const lazy = [...lazyScripts()];
  const codeChunks = lazy.filter((path) => /CodeTab|extension-source/.test(path));
  const eager = initial.filter((path) => /CodeTab|extension-source/.test(path));
  figures.push({
    issue: 21,
    measure: 'Code tab chunks loaded only when the tab opens (lazy / in the first screen)',
    value: `${codeChunks.length} / ${eager.length}`,
    target: '≥ 1 / 0',
    met: codeChunks.length >= 1 && eager.length === 0,
  });
}

const header = ['issue', 'measure', 'value', 'target', 'met'];
const rows = figures.map((figure) => [`#${figure.issue}`, figure.measure, figure.value, figure.target, figure.met === null ? '—' : figure.met ? 'yes' : 'NO']);
const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => String(row[index]).length)));
const line = (cells) => `| ${cells.map((cell, index) => String(cell).padEnd(widths[index])).join(' | ')} |`;
console.log('\nAll figures');
console.log(line(header));
console.log(`| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`);
for (const row of rows) console.log(line(row));
process.exit(failed ? 1 : 0);
