/**
 * Reopen as the user meets it (issue 12), in Chromium: page load → the desk shown, for a session of
 * 50k entries against one of 5k whose last entry sits at the same branch depth. Target: 50k ≤ 1.5×
 * 5k at p50.
 *
 * One browser context holds both sessions (imported through the page, as a user would). A page
 * load opens the session the database's `meta/lastSession` names, which a switch in the Sessions
 * panel writes; so each timed load is: switch to the session in the panel, then reload. Loads
 * alternate between the two sessions.
 *
 * Timed inside the page, from navigation start (performance.timeOrigin) to the first frame after
 * the Revision element shows the revision the session's head implies (computed here, in Node, by
 * the domain's own journal), with the desk table read at that moment and checked against the
 * head's rows: a blank, stale or wrong desk cannot pass. A MutationObserver and a
 * PerformanceObserver do the watching (no Playwright polling on the page's thread while timed).
 * For information: when the whole journal is in (the session graph drawn with every entry).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright';
import { SessionJournal } from '../domain/journal/journal';
import { deskRows, EMPTY_SNAPSHOT } from '../domain/snapshot';
import { APP_URL, withBrowser } from './browserKit';
import { importInPage } from './importKit';
import { rounds, within } from './limits';
import { journalFile, sameDepthJournal } from './journals';
import { median, percentile, printTable, saveFigures, type Figure } from './stats';

/** The same sizes and depth as the store-side head bench (bench/browser/headBench.ts). */
const SIZES = [5_000, 50_000] as const;
const DEPTH = 1_000;
/** Timed loads per session (REOPEN_BENCH_ROUNDS, at least 7); BENCH_DEBUG=1 prints every load's times. */
const ROUNDS = rounds(Math.max(7, Number(process.env['REOPEN_BENCH_ROUNDS'] ?? 9)), 1);
const TARGET_RATIO = 1.5;
/** Where the expected state waits across a reload: sessionStorage survives it, in this tab only. */
const EXPECT_KEY = 'seed-desk-bench:reopen';
const TREE_RENDER_MEASURE = 'seed-desk:tree-render';
const ROUND_TRIP_MEASURE = 'seed-desk:worker-round-trip';

/** What the page must show once the session is open: from the session's own entries. */
interface Expected {
  readonly sessionId: string;
  readonly entries: number;
  readonly depth: number;
  readonly revision: string;
  /** Per desk row: id, available, reserved, packets, as the desk table prints them. */
  readonly rows: readonly (readonly string[])[];
}

interface BenchSession extends Expected {
  readonly path: string;
}

/** One timed load, read from the page (all times in ms since navigation start). */
interface Load {
  /** Every Revision text the page showed, in order, with when. */
  readonly seen: readonly { readonly text: string; readonly at: number }[];
  readonly desk: readonly (readonly string[])[];
  /** The DOM showed the expected revision. */
  readonly shown: number;
  /** The first frame after that. */
  readonly painted: number;
  /** The graph drawn with every entry (the whole journal read and shipped). */
  readonly full: number;
  readonly fullRows: number;
  readonly domContentLoaded: number;
  /** The `hello` round trip (the first view's request), start and end. */
  readonly helloStart: number;
  readonly helloEnd: number;
}

function expectedOf(size: number): { expected: Expected; jsonl: string } {
  const journal = sameDepthJournal(size, DEPTH);
  const opened = SessionJournal.fromEntries(journal.header, journal.entries);
  const state = opened.state();
  const corrupt = !state.ok;
  const rows = deskRows(state.ok ? state.snapshot : EMPTY_SNAPSHOT).map((row) => [row.id, corrupt ? '—' : String(row.available), corrupt ? '—' : String(row.reserved), String(row.packets)]);
  return {
    expected: { sessionId: opened.sessionId, entries: opened.size, depth: opened.depthOf(opened.leafId ?? '') ?? -1, revision: state.revision, rows },
    jsonl: journalFile(journal),
  };
}

/**
 * Installed on every document of the context; active only when the bench left an expectation in
 * sessionStorage. A string, not a function: tsx's name-keeping helper does not exist in the page.
 */
const WATCHER = `(() => {
  const raw = sessionStorage.getItem(${JSON.stringify(EXPECT_KEY)});
  if (!raw) return;
  const expected = JSON.parse(raw);
  let resolveShown, rejectShown, resolveFull, rejectFull;
  const state = {
    seen: [], desk: [], shown: 0, painted: 0, full: 0, fullRows: 0,
    shownPromise: new Promise((resolve, reject) => { resolveShown = resolve; rejectShown = reject; }),
    fullPromise: new Promise((resolve, reject) => { resolveFull = resolve; rejectFull = reject; }),
  };
  window.__reopen = state;
  const check = () => {
    const code = document.querySelector('code[aria-label="Revision"]');
    const text = code ? code.textContent : null;
    if (text === null || text === '') return;
    const now = performance.now();
    if (state.seen.length === 0 || state.seen[state.seen.length - 1].text !== text) state.seen.push({ text, at: now });
    if (state.shown !== 0 || text !== expected.revision) return;
    const body = document.querySelector('table.desk tbody');
    state.desk = body ? [...body.rows].map((row) => [row.querySelector('th code')?.textContent ?? '', ...[...row.querySelectorAll('td')].map((cell) => cell.textContent.trim())]) : [];
    state.shown = now;
    requestAnimationFrame(() => { state.painted = performance.now(); resolveShown(); });
  };
  new MutationObserver(check).observe(document, { subtree: true, childList: true, characterData: true });
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) {
      if (state.full === 0 && entry.name === ${JSON.stringify(TREE_RENDER_MEASURE)} && Number(entry.detail) >= expected.entries) {
        state.full = entry.startTime + entry.duration;
        state.fullRows = Number(entry.detail);
        resolveFull();
      }
    }
  }).observe({ type: 'measure', buffered: true });
  // A guard, not a wait: a load that never shows the expected state fails the bench (settled promises ignore it).
  setTimeout(() => {
    rejectShown(new Error('the page did not show revision ' + expected.revision + ' within 120 s; it showed ' + JSON.stringify(state.seen)));
    rejectFull(new Error('the graph did not draw ' + expected.entries + ' entries within 120 s'));
  }, 120000);
})()`;

/** Reads the load the watcher recorded, once the desk is shown and the whole journal drawn. */
const READ_LOAD = `(async () => {
  const state = window.__reopen;
  if (!state) throw new Error('the reopen watcher did not run');
  await state.shownPromise;
  await state.fullPromise;
  const nav = performance.getEntriesByType('navigation')[0];
  const hello = performance.getEntriesByName(${JSON.stringify(ROUND_TRIP_MEASURE)}).find((entry) => entry.detail === 'hello');
  return {
    seen: state.seen, desk: state.desk, shown: state.shown, painted: state.painted, full: state.full, fullRows: state.fullRows,
    domContentLoaded: nav ? nav.domContentLoadedEventEnd : NaN,
    helloStart: hello ? hello.startTime : NaN,
    helloEnd: hello ? hello.startTime + hello.duration : NaN,
  };
})()`;

async function openSessionsPanel(page: Page): Promise<void> {
  const list = page.getByRole('list', { name: 'Session list' });
  // The Sessions panel may sit behind a tab that loads it on first open.
  const tab = page.getByRole('tab', { name: 'Sessions', exact: true });
  if ((await list.count()) === 0 && (await tab.count()) > 0) await tab.click();
  await list.waitFor();
}

/** Reads the database's `meta/lastSession` (the session the next page load opens) from the page's own thread. */
const lastSessionSource = `() => new Promise((resolve, reject) => {
  const open = indexedDB.open('seed-desk-playground');
  open.onerror = () => reject(open.error);
  open.onsuccess = () => {
    const db = open.result;
    const get = db.transaction('meta').objectStore('meta').get('lastSession');
    get.onsuccess = () => { db.close(); resolve(get.result ?? null); };
    get.onerror = () => { db.close(); reject(get.error); };
  };
})`;

/** What a user does to reopen `session`: switch to it in the Sessions panel (unless it is current), then wait until it is the one a reload opens. */
async function makeCurrent(page: Page, session: Expected): Promise<void> {
  await openSessionsPanel(page);
  const item = page.getByRole('list', { name: 'Session list' }).getByRole('listitem').filter({ has: page.getByText(session.sessionId, { exact: true }) });
  const button = item.getByRole('button', { name: /^Switch to / });
  const switching = (await button.count()) > 0;
  if (switching) {
    // The graph drawn before the switch must not count as the switched-to session's.
    await page.evaluate((name) => performance.clearMeasures(name), TREE_RENDER_MEASURE);
    await button.click();
  }
  await page.getByLabel('Revision').getByText(session.revision, { exact: true }).waitFor();
  // The switch writes lastSession without the page waiting for it: the reload must not race it.
  // Read again every 50 ms (as a Playwright poll would; waitForFunction does not await a promise) for up to 30 s.
  const stored = await within('the switch writing the session to reopen', 60_000, page.evaluate<{ id: string | null; tries: number }>(`(async () => {
    const read = ${lastSessionSource};
    let id = await read();
    let tries = 0;
    for (; id !== ${JSON.stringify(session.sessionId)} && tries < 600; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 50));
      id = await read();
    }
    return { id, tries };
  })()`));
  if (stored.id !== session.sessionId) throw new Error(`switching to ${session.sessionId}: the database still names ${stored.id} as the session to reopen`);
  if (stored.tries > 0 && process.env['BENCH_DEBUG']) console.log(`switch to ${session.sessionId}: lastSession written ${stored.tries} × 50 ms after the desk showed it`);
  // Let the switch's own rendering (the whole graph) finish before the next navigation starts.
  if (switching) {
    await page.waitForFunction(
      ([name, n]) => performance.getEntriesByName(name).some((entry) => Number((entry as PerformanceMeasure).detail) >= n),
      [TREE_RENDER_MEASURE, session.entries] as const,
      { polling: 100, timeout: 120_000 },
    );
  }
  await within('an idle moment after the switch', 30_000, page.evaluate('new Promise((resolve) => requestIdleCallback(() => resolve(null), { timeout: 2000 }))'));
}

/** One reload of the page with `session` current, timed from navigation start. */
async function timedReload(page: Page, session: Expected): Promise<Load> {
  await makeCurrent(page, session);
  await page.evaluate(([key, value]) => sessionStorage.setItem(key, value), [EXPECT_KEY, JSON.stringify({ revision: session.revision, entries: session.entries })] as const);
  await page.reload({ waitUntil: 'commit' });
  const load = await within(`reopening ${session.sessionId}: the desk shown and the whole journal drawn`, 180_000, page.evaluate<Load>(READ_LOAD));
  check(load, session);
  return load;
}

/** The figure counts only if the page showed this session's state, and no other before it. */
function check(load: Load, session: Expected): void {
  const first = load.seen[0]?.text;
  if (first !== session.revision) throw new Error(`reopening ${session.sessionId}: the first revision shown was ${first}, not ${session.revision}`);
  if (JSON.stringify(load.desk) !== JSON.stringify(session.rows)) throw new Error(`reopening ${session.sessionId}: the desk showed ${JSON.stringify(load.desk)}, not ${JSON.stringify(session.rows)}`);
  if (load.fullRows < session.entries) throw new Error(`reopening ${session.sessionId}: the graph drew ${load.fullRows} rows, not ${session.entries}`);
}

const f = (ms: number) => (Number.isFinite(ms) ? `${ms.toFixed(0)} ms` : 'n/a');
const k = (size: number) => `${size / 1000}k`;

async function main(): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), 'seed-desk-reopen-'));
  const sessions: BenchSession[] = SIZES.map((size) => {
    const { expected, jsonl } = expectedOf(size);
    const path = join(dir, `depth-${DEPTH}-of-${size}.jsonl`);
    writeFileSync(path, jsonl);
    return { ...expected, path };
  });
  const [small, large] = sessions;
  if (!small || !large) throw new Error('two sessions are needed');
  if (small.depth !== large.depth) throw new Error(`the sessions' leaves sit at depths ${small.depth} and ${large.depth}, not the same`);

  await withBrowser(async (browser: Browser) => {
    const context = await browser.newContext();
    const page = await context.newPage();
    for (const session of sessions) await importInPage(page, APP_URL, session.path, session.entries);
    await context.addInitScript(WATCHER);

    // One untimed load of each first: the HTTP cache, the compiled scripts, the database files.
    for (const session of sessions) await timedReload(page, session);
    const loads: Load[][] = sessions.map(() => []);
    for (let round = 0; round < ROUNDS; round++) {
      for (let index = 0; index < sessions.length; index++) loads[index]!.push(await timedReload(page, sessions[index]!));
    }
    await context.close();
    if (process.env['BENCH_DEBUG']) {
      for (const [index, session] of sessions.entries()) {
        console.log(`${k(session.entries)}: ` + loads[index]!.map((load) => `[dcl ${load.domContentLoaded.toFixed(0)} hello ${load.helloStart.toFixed(0)}→${load.helloEnd.toFixed(0)} shown ${load.shown.toFixed(0)} painted ${load.painted.toFixed(0)} full ${load.full.toFixed(0)}]`).join(' '));
      }
    }

    const p50 = (index: number, pick: (load: Load) => number) => median(loads[index]!.map(pick));
    const shown = (load: Load) => load.painted;
    const ratio = p50(1, shown) / p50(0, shown);
    const met = ratio <= TARGET_RATIO;
    const rows = sessions.map((session, index) => [
      `${k(session.entries)} entries (leaf depth ${session.depth})`,
      f(p50(index, shown)),
      f(percentile(loads[index]!.map(shown), 90)),
      f(p50(index, (load) => load.domContentLoaded)),
      f(p50(index, (load) => load.helloStart)),
      f(p50(index, (load) => load.helloEnd - load.helloStart)),
      f(p50(index, (load) => load.full)),
    ]);
    rows.push([`${k(large.entries)} / ${k(small.entries)} at p50`, ratio.toFixed(2), '', '', '', '', (p50(1, (load) => load.full) / p50(0, (load) => load.full)).toFixed(1)]);
    printTable(
      `Reopen, page load → desk shown (Chromium ${browser.version()}); ${ROUNDS} loads each, alternating; target ${k(large.entries)} ≤ ${TARGET_RATIO}× ${k(small.entries)} at p50: ${met ? 'met' : 'NOT met'}`,
      ['session', 'desk shown p50', 'p90', 'DOMContentLoaded', 'hello sent', 'hello round trip', 'whole journal drawn'],
      rows,
    );
    const figures: Figure[] = [
      { issue: 12, measure: `reopen, page load → desk shown: ${k(small.entries)} / ${k(large.entries)} entries, same branch depth (p50)`, value: `${f(p50(0, shown))} / ${f(p50(1, shown))}`, target: '', met: null },
      { issue: 12, measure: `reopen, page load → desk shown: ${k(large.entries)} / ${k(small.entries)} at p50`, value: ratio.toFixed(2), target: `≤ ${TARGET_RATIO}`, met },
      { issue: 12, measure: `reopen, page load → whole journal drawn: ${k(small.entries)} / ${k(large.entries)} entries (p50)`, value: `${f(p50(0, (load) => load.full))} / ${f(p50(1, (load) => load.full))}`, target: '', met: null },
    ];
    await saveFigures('reopen', figures);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
