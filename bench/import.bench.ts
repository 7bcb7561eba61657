/**
 * Import against the real host (issue 12): the same generated 100k-entry files (one chain, and a
 * branchy tree) imported in the playground page and opened by the real host's
 * `SessionManager.open` under its own Bun (host-test/.omp, installed by `npm run test:host`).
 *
 * Both sides are timed cold, as a user meets them: the host's first open in a fresh process
 * (module loading not counted), the page's first import in a fresh page, medians of ROUNDS each,
 * alternating. The page side runs from the file being chosen to the report being shown; its
 * progress bar is sampled every frame. The store's own share (parse, create, load, head) comes from
 * the storage bench page, for information.
 *
 * Issue 38: the page's import against Chromium's floor on the same bytes (decode and JSON.parse of
 * every line), measured in the same run: target ≤ 1.5×. The host is installed as `npm run test:host`
 * installs it (scripts/omp-host.mjs, about 1.5 min the first time); if that fails, the host
 * comparison says "not measured" and why.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser, Page } from 'playwright';
import { APP_URL, STORE_BENCH_URL, withBrowser } from './browserKit';
import { floorInPage, importInPage, type PageFloor } from './importKit';
import { branchyJournal, journalFile, linearJournal } from './journals';
import type { ImportStepTimes } from './browser/importBench';
import { rounds, within } from './limits';
import { median, printTable, saveFigures, type Figure } from './stats';
import { BUN, ensureHost } from '../scripts/omp-host.mjs';

const SIZE = rounds(100_000, 10_000);
const ROUNDS = Number(process.env['IMPORT_BENCH_ROUNDS'] ?? rounds(3, 1));
const TARGET_RATIO = 2;
/** Issue 38: the page's import against Chromium's own floor on the same bytes. */
const FLOOR_TARGET = 1.5;
const HOST_OPEN = fileURLToPath(new URL('./hostOpen.ts', import.meta.url));

interface BenchFile {
  readonly kind: string;
  readonly path: string;
  readonly entries: number;
  readonly megabytes: number;
}

/** The host's first open of `file` in a fresh Bun process, and a few more in the same process. */
function hostOpen(file: string, home: string): { first: number; again: number[] } {
  const run = spawnSync(BUN, [HOST_OPEN, file], {
    encoding: 'utf8',
    env: { ...process.env, HOME: home, PI_CODING_AGENT_DIR: join(home, '.omp', 'agent'), HOST_OPEN_AGAIN: '2' },
    timeout: 300_000,
  });
  if (run.status !== 0) throw new Error(`bun ${HOST_OPEN} failed (${run.status}): ${run.stderr}`);
  const line = run.stdout.trim().split('\n').at(-1) ?? '{}';
  const result = (JSON.parse(line) as Record<string, { first: number; again: number[] }>)[file];
  if (!result) throw new Error(`bun ${HOST_OPEN} printed no time for ${file}`);
  return result;
}

async function storeSteps(page: Page): Promise<ImportStepTimes[]> {
  await page.goto(`${STORE_BENCH_URL}?bench=import${rounds(0, 1) === 1 ? '&quick' : ''}`);
  await page.waitForFunction(() => {
    const w = window as unknown as { __benchResult?: unknown; __benchError?: string };
    if (w.__benchError) throw new Error(w.__benchError);
    return w.__benchResult !== undefined;
  }, undefined, { timeout: 600_000, polling: 500 }).catch((error: unknown) => {
    throw new Error(`The storage bench page's import bench did not finish within 600 s (${error instanceof Error ? error.message.split('\n')[0] : String(error)}).`);
  });
  return page.evaluate(() => (window as unknown as { __benchResult: ImportStepTimes[] }).__benchResult);
}

const s = (ms: number) => (Number.isFinite(ms) ? `${(ms / 1000).toFixed(2)} s` : 'n/a');

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'seed-desk-import-'));
  const home = join(dir, 'home');
  mkdirSync(home, { recursive: true });
  const files: BenchFile[] = [
    ['linear', linearJournal(SIZE)],
    ['branchy', branchyJournal(SIZE)],
  ].map(([kind, journal]) => {
    const generated = journal as ReturnType<typeof linearJournal>;
    const path = join(dir, `${String(kind)}-${SIZE}.jsonl`);
    writeFileSync(path, journalFile(generated));
    return { kind: String(kind), path, entries: generated.entries.length, megabytes: statSync(path).size / 1e6 };
  });
  const install = ensureHost();
  if (install.error !== null) console.error(`${install.error} The host's figures are not measured; \`npm run test:host\` installs it.`);
  const hostInstalled = install.error === null && existsSync(BUN);
  const hostMissing = `not measured: ${install.error ?? 'host-test/.omp has no Bun'} (\`npm run test:host\` installs the host)`;
  const host = new Map<string, { first: number[]; again: number[] }>(files.map((file) => [file.kind, { first: [], again: [] }]));
  const pageTimes = new Map<string, number[]>(files.map((file) => [file.kind, []]));
  const progress = new Map<string, string[]>();
  const floors = new Map<string, PageFloor[]>(files.map((file) => [file.kind, []]));

  await withBrowser(
    async (browser: Browser) => {
      for (let round = 0; round < ROUNDS; round++) {
        for (const file of files) {
          if (hostInstalled) {
            const opened = hostOpen(file.path, home);
            host.get(file.kind)?.first.push(opened.first);
            host.get(file.kind)?.again.push(...opened.again);
          }
          const context = await browser.newContext();
          const result = await within(`the page's import of the ${file.kind} file`, 360_000, importInPage(await context.newPage(), APP_URL, file.path, file.entries));
          await context.close();
          pageTimes.get(file.kind)?.push(result.ms);
          if (round === 0) progress.set(file.kind, [...result.progress]);
          const bare = await browser.newContext();
          floors.get(file.kind)?.push(await within(`Chromium's floor for the ${file.kind} file`, 360_000, floorInPage(await bare.newPage(), APP_URL, file.path)));
          await bare.close();
        }
      }
      const context = await browser.newContext();
      const steps = await storeSteps(await context.newPage());
      await context.close();

      const rows: string[][] = [];
      const figures: Figure[] = [];
      for (const file of files) {
        const pageMs = median(pageTimes.get(file.kind) ?? []);
        const hostMs = hostInstalled ? median(host.get(file.kind)?.first ?? []) : Number.NaN;
        const ratio = pageMs / hostMs;
        const storing = (progress.get(file.kind) ?? []).filter((reading) => reading.startsWith('storing'));
        const label = `${file.kind} ${SIZE.toLocaleString('en')} entries (${file.megabytes.toFixed(1)} MB)`;
        rows.push([label, s(pageMs), hostInstalled ? s(hostMs) : 'not measured', hostInstalled ? s(median(host.get(file.kind)?.again ?? [])) : '', hostInstalled ? `${ratio.toFixed(2)}×` : '', String(storing.length)]);
        figures.push(
          hostInstalled
            ? { issue: 12, measure: `import of the ${label}: page / host SessionManager.open (cold, medians)`, value: `${s(pageMs)} / ${s(hostMs)} = ${ratio.toFixed(2)}×`, target: `≤ ${TARGET_RATIO}×`, met: ratio <= TARGET_RATIO }
            : { issue: 12, measure: `import of the ${label}: page / host SessionManager.open`, value: `page ${s(pageMs)}; host ${hostMissing}`, target: `≤ ${TARGET_RATIO}×`, met: false },
          { issue: 12, measure: `progress readings while storing the ${file.kind} file`, value: String(storing.length), target: '≥ 3 (the bar moves)', met: storing.length >= 3 },
        );
        // What Chromium costs before any of the playground's work, in the same run: the floor under the ratio.
        const floor = floors.get(file.kind) ?? [];
        const read = median(floor.map((f) => f.readMs));
        const decode = median(floor.map((f) => f.decodeMs));
        const parse = median(floor.map((f) => f.parseMs));
        const floorMs = median(floor.map((f) => f.readMs + f.decodeMs + f.parseMs));
        const floorRatio = pageMs / floorMs;
        figures.push(
          {
            issue: 12,
            measure: `Chromium's floor for the ${file.kind} file: read / decode / JSON.parse of each line (nothing checked, indexed, stored or drawn) = total / host open`,
            value: `${s(read)} / ${s(decode)} / ${s(parse)} = ${s(floorMs)}${hostInstalled ? ` = ${(floorMs / hostMs).toFixed(2)}×` : ''}`,
            target: '',
            met: null,
          },
          { issue: 38, measure: `import of the ${label}: page (file chosen → report shown) / Chromium's floor (read + decode + JSON.parse), same run, medians`, value: `${s(pageMs)} / ${s(floorMs)} = ${floorRatio.toFixed(2)}×`, target: `≤ ${FLOOR_TARGET}×`, met: floorRatio <= FLOOR_TARGET },
        );
      }
      for (const step of steps) {
        figures.push({
          issue: 12,
          measure: `store side of the ${step.kind} import: parse / journal / createSession / createSessionFrom(journal) / full load / head`,
          value: [step.parseMs, step.buildMs, step.createMs, step.createFromJournalMs, step.loadMs, step.headMs].map(s).join(' / '),
          target: '',
          met: null,
        });
      }
      printTable(
        `Import against the real host (Chromium ${browser.version()}${hostInstalled ? `, Bun ${spawnSync(BUN, ['--version'], { encoding: 'utf8' }).stdout.trim()}` : ''}); medians of ${ROUNDS}, cold; target page ≤ ${TARGET_RATIO}× host`,
        ['file', 'page import', 'host open (first)', 'host open (again)', 'page / host', 'progress readings while storing'],
        rows,
      );
      printTable(
        'Store side (bench page), for information',
        ['file', 'parse', 'SessionJournal.fromEntries', 'createSession', 'createSessionFrom(journal)', 'progress calls', 'full load', 'head'],
        steps.map((step) => [`${step.kind} (${step.megabytes.toFixed(1)} MB)`, s(step.parseMs), s(step.buildMs), s(step.createMs), s(step.createFromJournalMs), String(step.progressCalls), s(step.loadMs), s(step.headMs)]),
      );
      await saveFigures('import', figures);
    },
    { storePage: true },
  );
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
