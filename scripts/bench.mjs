#!/usr/bin/env node
// `npm run bench`: every benchmark part in turn (each prints its own table with medians and
// ratios against a baseline measured in the same run: timings on these machines are noisy),
// then one table with every figure, its target, and whether it was met.
//
// `npm run bench -- --quick` (or BENCH_QUICK=1): every part with a few rounds, for CI: a part
// that breaks fails the run; no target is judged. `--only=<part>[,<part>]` runs some parts.
// `--prebuilt`: dist/ was just built from these sources (CI: by `npm test`, with the same command
// the bench uses), so only the storage bench page is built.
// Exits 0 only when every part ran and wrote its figures.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { initialScripts, lazyScripts, MAIN_BUDGET, measureBudgets, WORKER_BUDGET } from './budget.mjs';

const args = process.argv.slice(2);
const quick = args.includes('--quick') || process.env.BENCH_QUICK === '1';
const only = args.find((arg) => arg.startsWith('--only='))?.slice('--only='.length).split(',');
const env = { ...process.env, BENCH_QUICK: quick ? '1' : '0', BENCH_BUILT: '1' };
const port = process.env.BENCH_PORT && process.env.BENCH_PORT !== '4173' ? process.env.BENCH_PORT : null;
const dist = port ? `dist-bench-${port}` : 'dist';
// A build made with BENCH_MINIFY=0 differs from the suite's: that one is always built here.
const prebuilt = args.includes('--prebuilt') && process.env.BENCH_MINIFY !== '0' && existsSync(`${dist}/index.html`);

// Each part's limit: a part that runs past it is stopped and named (issue 38: one sat idle for ten minutes).
const MINUTES = quick ? 8 : 30;
const parts = [
  { name: 'domain (Node)', file: 'domain', args: ['tsx', 'bench/domain.bench.ts'] },
  { name: 'storage and page (Chromium)', file: 'browser', args: ['tsx', 'bench/browser.bench.ts'] },
  { name: 'reopen, page load → desk shown (Chromium)', file: 'reopen', args: ['tsx', 'bench/reopen.bench.ts'] },
  { name: 'session tree, import, reopen (Chromium)', file: 'tree', args: ['tsx', 'bench/tree.bench.ts'] },
  { name: 'import against Chromium\'s floor and the real host (Chromium, Bun)', file: 'import', args: ['tsx', 'bench/import.bench.ts'] },
  { name: 'one message per action (Chromium)', file: 'protocol', args: ['tsx', 'bench/protocol.bench.ts'] },
  { name: 'the extension editor: Edit, Run my version, sizes, offline (Chromium)', file: 'edit', args: ['tsx', 'bench/edit.bench.ts'] },
  { name: 'JavaScript before the first interaction (Chromium)', file: 'first-interaction', args: ['tsx', 'bench/firstInteraction.bench.ts'] },
  { name: 'a real model: its code, first token → text (Chromium, scripted provider)', file: 'model', args: ['tsx', 'bench/model.bench.ts'] },
  { name: 'load: tabs on one session, and a race for the last marigold (Chromium)', file: 'load', args: ['tsx', 'bench/load.bench.ts'] },
].filter((part) => !only || only.includes(part.file));

/** Runs one part, its output shown as it comes; resolves with its exit code and its last error lines. */
function runPart(part) {
  return new Promise((resolve) => {
    const child = spawn('npx', part.args, { env, stdio: ['ignore', 'inherit', 'pipe'], detached: true });
    const tail = [];
    child.stderr.on('data', (chunk) => {
      process.stderr.write(chunk);
      tail.push(...String(chunk).split('\n').filter((line) => line.trim().length > 0));
      tail.splice(0, Math.max(0, tail.length - 40));
    });
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      // The part's own process group (its build, servers and browser): nothing else.
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
    }, MINUTES * 60_000);
    child.on('exit', (code, signal) => {
      clearTimeout(timer);
      const reason = timedOut
        ? `it ran past its limit of ${MINUTES} min and was stopped`
        : `it exited with ${code ?? signal}${firstError(tail) ? `: ${firstError(tail)}` : ''}`;
      resolve({ ok: code === 0 && !timedOut, reason });
    });
  });
}

/** The error's own sentence, not the stack under it nor Node's lines around it. */
function firstError(lines) {
  const noise = /^\s+at |^Node\.js v|^node:internal|triggerUncaughtException|^\s*\^\s*$|^=+|^\s*(log|name):|^\s*[{}\]]/;
  const told = lines.filter((line) => !noise.test(line));
  const error = told.find((line) => /(Error|error):|^\s*[\w.]+: .*(Timeout|exceeded|failed|closed)/.test(line)) ?? told[0];
  return error?.trim().replace(/^.*?(\w*Error): /, '$1: ').slice(0, 300) ?? '';
}

rmSync('bench-results', { recursive: true, force: true });
console.log(quick ? 'Quick mode: a few rounds per part; figures are printed, targets are not judged.' : 'Full run.');
console.log(prebuilt ? `\n=== Build (the storage bench page; the app is ${dist}/, prebuilt) ===` : '\n=== Build (the app and the storage bench page, once for every part) ===');
const build = prebuilt
  ? spawnSync('npx', ['vite', 'build', '--bypass-lock', '--config', 'bench/vite.bench.config.ts', '--logLevel', 'warn', '--outDir', fileURLToPath(new URL(port ? `../bench-dist-${port}` : '../bench-dist', import.meta.url))], { stdio: 'inherit', env: process.env })
  : spawnSync('npx', ['tsx', 'bench/build.ts'], { stdio: 'inherit', env: process.env });
if (build.status !== 0) {
  console.error(`The build failed (exit ${build.status}): no part was run.`);
  process.exit(1);
}

const failures = new Map();
for (const part of parts) {
  console.log(`\n=== Benchmark: ${part.name} ===`);
  const started = Date.now();
  const result = await runPart(part);
  const seconds = ((Date.now() - started) / 1000).toFixed(0);
  if (!result.ok || !existsSync(`bench-results/${part.file}.json`)) {
    const why = result.ok ? 'it wrote no figures' : result.reason;
    failures.set(part.file, why);
    console.error(`Benchmark part "${part.name}" failed after ${seconds} s: ${why}.`);
  } else console.log(`(part "${part.file}" took ${seconds} s)`);
}

const figures = parts.flatMap((part) => {
  if (failures.has(part.file)) return [{ issue: 38, measure: `${part.name}: every figure of this part`, value: `not measured: the part failed (${failures.get(part.file)})`, target: '', met: false }];
  return JSON.parse(readFileSync(`bench-results/${part.file}.json`, 'utf8'));
});
if (existsSync(`${dist}/index.html`)) {
  const budgets = measureBudgets(dist);
  const kib = (bytes) => `${(bytes / 1024).toFixed(1)} KiB`;
  figures.push(
    { issue: 7, measure: 'first-screen JavaScript, gzip', value: kib(budgets.mainTotal), target: `≤ ${kib(MAIN_BUDGET)}`, met: budgets.mainTotal <= MAIN_BUDGET },
    { issue: 7, measure: 'worker JavaScript, gzip', value: kib(budgets.workerTotal), target: `≤ ${kib(WORKER_BUDGET)}`, met: budgets.workerTotal <= WORKER_BUDGET },
    { issue: 21, measure: 'first-screen / worker JavaScript with the extension hosted in the worker, gzip', value: `${kib(budgets.mainTotal)} / ${kib(budgets.workerTotal)}`, target: `≤ ${kib(MAIN_BUDGET)} / ≤ ${kib(WORKER_BUDGET)}`, met: budgets.mainTotal <= MAIN_BUDGET && budgets.workerTotal <= WORKER_BUDGET },
  );
  // The Code tab (its view, the highlighted sources) is fetched only when the tab opens.
  const initial = initialScripts(dist).map((path) => path.slice(dist.length));
  const lazy = [...lazyScripts(dist)];
  const codeChunks = lazy.filter((path) => /CodeTab|extension-source/.test(path));
  const eager = initial.filter((path) => /CodeTab|extension-source/.test(path));
  figures.push({
    issue: 21,
    measure: 'Code tab chunks loaded only when the tab opens (lazy / in the first screen)',
    value: `${codeChunks.length} / ${eager.length}`,
    target: '≥ 1 / 0',
    met: codeChunks.length >= 1 && eager.length === 0,
  });
} else {
  figures.push({ issue: 7, measure: 'first-screen and worker JavaScript, gzip', value: `not measured: ${dist}/index.html is missing (the build failed)`, target: '', met: false });
}

/** A figure's verdict: a value that says "not measured" is never met; quick mode judges no target. */
function verdict(figure) {
  if (String(figure.value).startsWith('not measured')) return 'not measured';
  if (figure.met === null || figure.target === '') return '—';
  if (quick) return 'not judged (quick)';
  return figure.met ? 'met' : 'NOT MET';
}

const header = ['issue', 'measure', 'value', 'target', 'met'];
const rows = figures.map((figure) => [`#${figure.issue}`, figure.measure, figure.value, figure.target, verdict(figure)]);
const widths = header.map((title, index) => Math.max(title.length, ...rows.map((row) => String(row[index]).length)));
const line = (cells) => `| ${cells.map((cell, index) => String(cell).padEnd(widths[index])).join(' | ')} |`;
console.log(`\nAll figures${quick ? ' (quick mode: a few rounds each, targets not judged)' : ''}`);
console.log(line(header));
console.log(`| ${widths.map((width) => '-'.repeat(width)).join(' | ')} |`);
for (const row of rows) console.log(line(row));
const judged = rows.filter((row) => row[4] === 'met' || row[4] === 'NOT MET');
console.log(`\n${parts.length - failures.size} of ${parts.length} parts ran${failures.size ? `; failed: ${[...failures.keys()].join(', ')}` : ''}.${quick ? '' : ` Targets met: ${judged.filter((row) => row[4] === 'met').length} of ${judged.length}.`}`);
process.exit(failures.size > 0 ? 1 : 0);
