/**
 * Protocol benchmark (issue 12), in headless Chromium through Playwright, all in the app's own page
 * so every ratio's baseline is measured in the same page and run:
 *  - baseline 1: a bare IndexedDB put+commit of an entry-sized record (its own database), started
 *    as a click starts one: one put after the page drew a frame and went idle. Beside it, for
 *    information, the same put timed back to back (both threads awake), which costs about a third
 *    of it, and the put of the record the store writes into the store's exact schema;
 *  - baseline 2: an echo between the page and a bare worker (a message the size of a request),
 *    sent as a request is: one message after the page drew a frame and went idle (the echo timed
 *    back to back, both threads awake, is printed beside it);
 *  - for information, the floor of a store held by a worker: the page asks a bare worker for a
 *    bare put+commit and waits for its answer; and, under Confirm, the commit's own round trip;
 *  - "/seeds query typed → answer shown" and "Confirm clicked → desk table and revision updated",
 *    timed in the page from the input event to the DOM mutation, as ratios of baseline 1;
 *  - a request that changes nothing (`/seeds query bean`): the worker round trip the page measures
 *    (User Timing), against 1 ms and against baseline 2;
 *  - page→worker messages per action (Enter, Confirm, Cancel), counted at `Worker.prototype.postMessage`;
 *  - with trusted input (Playwright's `press` and `click`, issue 21): the animation frames begun
 *    between the input event and the answer in the DOM, counted in the page.
 */
import type { Page } from 'playwright';
import { APP_URL, withBrowser } from './browserKit';
import { baselines, ECHO_WORKER } from './protocolBaselines';
import { FRAME_WITH_LIMIT, rounds, within } from './limits';
import { profileWorker, summarize } from './profileWorker';
import { formatMicros, percentile, printTable, saveFigures } from './stats';

const ROUNDS = rounds(40, 4);
const TRUSTED_ROUNDS = rounds(20, 3);
/** A whole in-page run of rounds: each action takes milliseconds, so this only catches one that never answers. */
const RUN_LIMIT_MS = 180_000;

const ms = (values: readonly number[], p: number) => formatMicros(percentile(values, p) * 1000);

/** Counts every message the page posts to a worker, before the app creates its worker. */
const COUNT_POSTS = `(() => {
  const post = Worker.prototype.postMessage;
  window.__posts = 0;
  Worker.prototype.postMessage = function (...args) { window.__posts++; return post.apply(this, args); };
})()`;

/**
 * The learner's actions, driven inside the page (typing, Enter, clicking Confirm) and awaited with
 * MutationObservers: Playwright's own polling would run on the main thread and delay the very
 * messages being timed.
 */
interface UiRounds {
  query: number[];
  confirm: number[];
  lineTrips: number[];
  /** The dialog's answer round trip under Confirm: posted → answer received and parsed, before any drawing. */
  commitTrips: number[];
  maxPerAction: number;
  /** Messages per Enter, per Confirm, per Cancel (each the max over its rounds). */
  perKind: { enter: number; confirm: number; cancel: number };
}

async function uiRounds(page: Page): Promise<UiRounds> {
  return within(`the protocol bench's ${ROUNDS} queries and ${ROUNDS} Confirms in the page`, RUN_LIMIT_MS, page.evaluate<UiRounds>(`(async () => {
    const rounds = ${ROUNDS};
    const input = document.querySelector('input[placeholder^="/seeds query"]');
    const output = document.querySelector('ol[aria-label="Command output"]');
    const table = document.querySelector('table.desk tbody');
    const revision = document.querySelector('[aria-label="Revision"]');
    if (!input || !output || !table || !revision) throw new Error('the page lacks the command line, the desk or the revision');
    const nextMutation = (target, accept = () => true) => new Promise((resolve) => {
      const observer = new MutationObserver(() => {
        if (!accept()) return;
        observer.disconnect();
        resolve(performance.now());
      });
      observer.observe(target, { subtree: true, childList: true, characterData: true });
    });
    const frame = ${FRAME_WITH_LIMIT()};
    const type = (text) => {
      input.value = text;
      input.dispatchEvent(new Event('input', { bubbles: true }));
    };
    const enter = () => input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    const perAction = [];
    const perKind = { enter: 0, confirm: 0, cancel: 0 };
    const query = [];
    for (let i = 0; i < rounds; i++) {
      type(i % 2 === 0 ? '/seeds query' : '/seeds query bean');
      await frame();
      const answered = nextMutation(output, () => output.lastElementChild?.classList.contains('out-answer'));
      const posts = window.__posts;
      const start = performance.now();
      enter();
      query.push((await answered) - start);
      perAction.push(window.__posts - posts);
      perKind.enter = Math.max(perKind.enter, window.__posts - posts);
      await frame();
    }
    const confirmButton = () => [...document.querySelectorAll('button')].find((button) => button.textContent === 'Confirm');
    const confirm = [];
    for (let i = 0; i < rounds; i++) {
      type(i % 2 === 0 ? '/seeds reserve basil-genovese 1' : '/seeds release basil-genovese 1');
      await frame();
      const opened = nextMutation(document.body, () => confirmButton() !== undefined);
      enter();
      await opened;
      // A person clicks a dialog once it is drawn and holds still (Playwright's click waits for
      // the same: two frames). One frame clicked while the dialog's first paint was still being
      // rasterized beside the commit, on this machine's two cores.
      await frame();
      await frame();
      const tableChanged = nextMutation(table);
      const revisionChanged = nextMutation(revision);
      const posts = window.__posts;
      const start = performance.now();
      confirmButton().click();
      const end = Math.max(await tableChanged, await revisionChanged);
      confirm.push(end - start);
      perAction.push(window.__posts - posts);
      perKind.confirm = Math.max(perKind.confirm, window.__posts - posts);
      await frame();
    }
    // Cancel answers the extension's await with false: one message, and its text comes back.
    const cancelButton = () => [...document.querySelectorAll('dialog button')].find((button) => button.textContent === 'Cancel');
    for (let i = 0; i < 5; i++) {
      type('/seeds reserve marigold-french 1');
      await frame();
      const opened = nextMutation(document.body, () => cancelButton() !== undefined);
      enter();
      await opened;
      await frame();
      await frame();
      const said = nextMutation(output, () => output.lastElementChild?.classList.contains('out-cancelled'));
      const posts = window.__posts;
      cancelButton().click();
      await said;
      perAction.push(window.__posts - posts);
      perKind.cancel = Math.max(perKind.cancel, window.__posts - posts);
      await frame();
    }
    const trips = performance.getEntriesByName('seed-desk:worker-round-trip');
    const lineTrips = trips.filter((entry) => entry.detail === 'line').slice(0, rounds).map((entry) => entry.duration);
    const commitTrips = trips.filter((entry) => entry.detail === 'answerUi').slice(0, rounds).map((entry) => entry.duration);
    return { query, confirm, lineTrips, commitTrips, maxPerAction: Math.max(...perAction), perKind };
  })()`));
}

interface TrustedRounds {
  /** Animation frames begun between Enter and the answer in the DOM, per round. */
  queryFrames: number[];
  /** The same between the Confirm click and the desk's update. */
  confirmFrames: number[];
}

/**
 * Trusted input, as a person gives it: Playwright's `press('Enter')` and `click()`. The page counts
 * every animation frame that begins (a requestAnimationFrame loop) and notes the count at the
 * input event and at the answer's DOM mutation; the difference is how many frames the learner saw
 * before the answer. Playwright waits for a counter with `raf` polling, after the answer is in.
 */
async function trustedRounds(page: Page, rounds: number): Promise<TrustedRounds> {
  await page.evaluate(`(() => {
    const state = { frames: 0, inputAt: [], answerAt: [], clickAt: [], deskAt: [] };
    window.__trusted = state;
    const tick = () => { state.frames++; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
    const input = document.querySelector('input[placeholder^="/seeds query"]');
    const output = document.querySelector('ol[aria-label="Command output"]');
    const table = document.querySelector('table.desk tbody');
    input.addEventListener('keydown', (event) => { if (event.key === 'Enter') state.inputAt.push(state.frames); }, true);
    document.addEventListener('click', (event) => { if (event.target instanceof HTMLElement && event.target.textContent === 'Confirm') state.clickAt.push(state.frames); }, true);
    new MutationObserver(() => {
      if (state.answerAt.length < state.inputAt.length && output.lastElementChild?.classList.contains('out-answer')) state.answerAt.push(state.frames);
    }).observe(output, { subtree: true, childList: true, characterData: true });
    new MutationObserver(() => {
      if (state.deskAt.length < state.clickAt.length) state.deskAt.push(state.frames);
    }).observe(table, { subtree: true, childList: true, characterData: true });
  })()`);
  const command = page.getByRole('textbox', { name: 'Command' });
  // A function, not a string: the page's CSP has no unsafe-eval for a string predicate.
  const counted = (key: 'answerAt' | 'deskAt', n: number) =>
    page.waitForFunction(([k, count]) => (window as unknown as { __trusted: Record<string, unknown[]> }).__trusted[k as string]!.length >= (count as number), [key, n] as const, { polling: 'raf' });
  for (let i = 0; i < rounds; i++) {
    await command.fill(i % 2 === 0 ? '/seeds query' : '/seeds query bean');
    await command.press('Enter');
    await counted('answerAt', i + 1);
  }
  for (let i = 0; i < rounds; i++) {
    await command.fill(i % 2 === 0 ? '/seeds reserve bean-scarlet 1' : '/seeds release bean-scarlet 1');
    await command.press('Enter');
    await page.getByRole('button', { name: 'Confirm', exact: true }).click();
    await counted('deskAt', i + 1);
    await page.getByRole('dialog').waitFor({ state: 'detached' });
  }
  return page.evaluate(`(() => {
    const t = window.__trusted;
    return { queryFrames: t.answerAt.map((at, i) => at - t.inputAt[i]), confirmFrames: t.deskAt.map((at, i) => at - t.clickAt[i]) };
  })()`);
}

/** BENCH_PROFILE=1: where the page's main thread spent the UI rounds, by function (self and total time). */
async function startProfile(page: Page): Promise<() => Promise<string>> {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Profiler.enable');
  await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
  await cdp.send('Profiler.start');
  return async () => summarize((await cdp.send('Profiler.stop')).profile, 30);
}

async function main(): Promise<void> {
  await withBrowser(async (browser) => {
    // No service worker, so the bench's own echo worker file is fetched from the network, where the bench answers it.
    const context = await browser.newContext({ serviceWorkers: 'block' });
    await context.route('**/bench-echo-worker.js', (route) => route.fulfill({ contentType: 'text/javascript', body: ECHO_WORKER }));
    const page = await context.newPage();
    page.on('crash', () => console.error('The page crashed.'));
    page.on('pageerror', (error) => console.error('page error:', error.message));
    await page.addInitScript(COUNT_POSTS);
    await page.goto(APP_URL);
    await page.getByRole('table', { name: 'Seed desk' }).waitFor();
    const first = await within('the baselines (puts and echoes) in the page', RUN_LIMIT_MS, baselines(page, ROUNDS));
    // BENCH_PROFILE=1: the page's main thread; BENCH_PROFILE=worker: the app's worker (profileWorker.ts).
    const profiler = process.env.BENCH_PROFILE === 'worker' ? await profileWorker(page) : process.env.BENCH_PROFILE ? await startProfile(page) : null;
    const ui = await uiRounds(page);
    if (profiler) console.log(await profiler());
    const trusted = await trustedRounds(page, TRUSTED_ROUNDS);
    const second = await within('the baselines (puts and echoes) in the page, again', RUN_LIMIT_MS, baselines(page, ROUNDS));
    const put = [...first.put, ...second.put];
    const idlePut = [...first.idlePut, ...second.idlePut];
    const entryPut = [...first.entryPut, ...second.entryPut];
    const echo = [...first.echo, ...second.echo];
    const idleEcho = [...first.idleEcho, ...second.idleEcho];
    const workerPut = [...first.workerPut, ...second.workerPut];
    const idleEchoP50 = percentile(idleEcho, 50);
    const putP50 = percentile(put, 50);
    const idlePutP50 = percentile(idlePut, 50);
    const entryPutP50 = percentile(entryPut, 50);
    const echoP50 = percentile(echo, 50);
    const queryP50 = percentile(ui.query, 50);
    const confirmP50 = percentile(ui.confirm, 50);
    // Each action starts from an idle page, and so does the put it is compared with.
    const queryRatio = queryP50 / idlePutP50;
    const confirmRatio = confirmP50 / idlePutP50;
    const tripP50 = percentile(ui.lineTrips, 50);
    const tripRatio = tripP50 / idleEchoP50;
    const hotRatio = tripP50 / echoP50;
    const times = (value: number) => `${value.toFixed(2)}×`;
    const rows = [
      { measure: 'bare IndexedDB put+commit in the page p50, one after an idle frame, as a click starts one (baseline: a bare record, no indexes)', value: ms(idlePut, 50), target: '', met: null },
      { measure: 'the same put p50, back to back (both threads awake; for information)', value: ms(put, 50), target: '', met: null },
      { measure: 'bare IndexedDB put+commit of an entry record into the store\'s schema p50, back to back (the checked-commit baseline)', value: ms(entryPut, 50), target: '', met: null },
      { measure: 'bare worker echo p50, back to back (hot; for information)', value: ms(echo, 50), target: '', met: null },
      { measure: 'bare worker echo p50, one after an idle frame, as a request is sent (baseline)', value: ms(idleEcho, 50), target: '', met: null },
      { measure: '/seeds query typed → answer shown p50 / bare put after an idle frame', value: `${ms(ui.query, 50)} = ${times(queryRatio)}`, target: '≤ 5×', met: queryRatio <= 5 },
      { issue: 38, measure: '/seeds query typed → answer shown p50 / bare put back to back, same run', value: `${ms(ui.query, 50)} / ${ms(put, 50)} = ${times(queryP50 / putP50)}`, target: '≤ 3×', met: queryP50 / putP50 <= 3 },
      { measure: 'bare put+commit in a worker, asked by the page after an idle frame and answered, p50 / bare put after an idle frame (the floor of a worker-held store)', value: `${ms(workerPut, 50)} = ${times(percentile(workerPut, 50) / idlePutP50)}`, target: '', met: null },
      // What no drawing can beat: the commit's round trip alone, before the page draws anything.
      { measure: 'the commit round trip under Confirm (posted → answer parsed) p50 / bare put after an idle frame', value: `${ms(ui.commitTrips, 50)} = ${times(percentile(ui.commitTrips, 50) / idlePutP50)}`, target: '', met: null },
      { measure: 'Confirm → desk table and revision updated p50 / bare put after an idle frame', value: `${ms(ui.confirm, 50)} = ${times(confirmRatio)}`, target: '≤ 6×', met: confirmRatio <= 6 },
      { issue: 38, measure: 'Confirm → desk table and revision shown p50 / bare put back to back, same run', value: `${ms(ui.confirm, 50)} / ${ms(put, 50)} = ${times(confirmP50 / putP50)}`, target: '≤ 6×', met: confirmP50 / putP50 <= 6 },
      { measure: '  the same / the entry record\'s put back to back (for information)', value: times(confirmP50 / entryPutP50), target: '', met: null },
      { measure: 'request that changes nothing: round trip p50', value: ms(ui.lineTrips, 50), target: '≤ 1 ms', met: tripP50 <= 1 },
      { measure: 'request that changes nothing: round trip / echo after an idle frame, p50', value: `${tripRatio.toFixed(1)}× (${hotRatio.toFixed(1)}× the hot echo)`, target: '≤ 10×', met: tripRatio <= 10 },
      { measure: 'page→worker messages per action (Enter, Confirm), max', value: String(ui.maxPerAction), target: '≤ 1', met: ui.maxPerAction <= 1 },
    ] as const;
    const queryFrames = percentile(trusted.queryFrames, 50);
    const confirmFrames = percentile(trusted.confirmFrames, 50);
    // Issue 21: the same actions, now answered by the extension module itself running in the worker's host.
    const hosted = [
      { measure: 'page→worker messages per Enter / Confirm / Cancel, max (the extension runs in the worker)', value: `${ui.perKind.enter} / ${ui.perKind.confirm} / ${ui.perKind.cancel}`, target: '≤ 1 each', met: Math.max(ui.perKind.enter, ui.perKind.confirm, ui.perKind.cancel) <= 1 },
      { measure: '/seeds query → answer, run by extension/seed-desk.ts in the worker, p50 / bare put after an idle frame', value: `${ms(ui.query, 50)} = ${times(queryRatio)}`, target: '≤ 5×', met: queryRatio <= 5 },
      { measure: 'Confirm → desk, the extension resuming after its await, p50 / bare put after an idle frame', value: `${ms(ui.confirm, 50)} = ${times(confirmRatio)}`, target: '≤ 6×', met: confirmRatio <= 6 },
      { measure: 'trusted Enter (Playwright press) → answer in the DOM: animation frames begun in between, median (max)', value: `${queryFrames} (${Math.max(...trusted.queryFrames)})`, target: '≤ 1', met: queryFrames <= 1 },
      { measure: 'trusted Confirm click → desk in the DOM: animation frames begun in between, median (max)', value: `${confirmFrames} (${Math.max(...trusted.confirmFrames)})`, target: '≤ 1', met: confirmFrames <= 1 },
    ] as const;
    // Issue 38 judges the two actions against the put back to back; its rows name their issue.
    const all = [...rows.map((row) => ({ issue: 12, ...row })), ...hosted.map((row) => ({ issue: 21, ...row }))];
    printTable(`Protocol (Chromium ${browser.version()}); ${ROUNDS} rounds each`, ['issue', 'measure', 'value', 'target', 'met'], all.map((row) => [`#${row.issue}`, row.measure, row.value, row.target, row.met === null ? '' : row.met ? 'yes' : 'no']));
    await saveFigures('protocol', all);
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
