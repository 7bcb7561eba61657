/**
 * Where a query's and a Confirm's time goes (issue 38), by function, counting only the samples
 * taken inside each action's window (input event → answer in the DOM), on the page's main thread
 * and in the app's worker. A whole-run profile mixes in the frames, dialogs and scrolls between
 * actions, which the timed window never contains; this one does not.
 *
 *   BENCH_PORT=4393 BENCH_MINIFY=0 npx tsx bench/actionProfile.ts    (builds; BENCH_BUILT=1 skips it)
 *
 * Sampling at 50 µs inflates every time about 2–3×: read the shares, not the milliseconds. The
 * page's clock and the profile's are matched by a busy loop named `calibrate`, run at a noted time.
 * ROUNDS (default 40) actions of each kind; TOP (default 40) functions listed.
 */
import type { CDPSession, Page } from 'playwright';
import { APP_URL, withBrowser } from './browserKit';
import { FRAME_WITH_LIMIT, within } from './limits';

const ROUNDS = Number(process.env['ROUNDS'] ?? 40);
const TOP = Number(process.env['TOP'] ?? 40);

interface ProfileNode {
  id: number;
  children?: number[];
  callFrame: { functionName: string; url: string; lineNumber: number };
}
interface Profile {
  nodes: ProfileNode[];
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}
type Window = readonly [number, number];

const keyOf = (node: ProfileNode | undefined) => `${node?.callFrame.functionName || '(anonymous)'} ${node?.callFrame.url.split('/').pop() || '(native)'}:${node?.callFrame.lineNumber ?? ''}`;

/** Self and total time by function over the samples inside `windows` (page milliseconds; `offset` = profile ms − page ms), per action. */
function inWindows(profile: Profile, windows: readonly Window[], offset: number): string {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const self = new Map<string, number>();
  const total = new Map<string, number>();
  let at = profile.startTime;
  let sampled = 0;
  profile.samples.forEach((id, index) => {
    at += profile.timeDeltas[index] ?? 0;
    const ms = at / 1000 - offset;
    if (!windows.some(([from, to]) => ms >= from && ms <= to)) return;
    const weight = (profile.timeDeltas[index + 1] ?? 0) / 1000;
    sampled += weight;
    const key = keyOf(nodes.get(id));
    self.set(key, (self.get(key) ?? 0) + weight);
    const seen = new Set<string>();
    for (let cursor: number | undefined = id; cursor !== undefined; cursor = parent.get(cursor)) {
      const name = keyOf(nodes.get(cursor));
      if (seen.has(name)) continue;
      seen.add(name);
      total.set(name, (total.get(name) ?? 0) + weight);
    }
  });
  const lines = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).slice(0, TOP).map(([key, ms]) => `${(ms / windows.length).toFixed(3).padStart(8)} ms  ${key}`);
  return [`${windows.length} actions, ${(sampled / windows.length).toFixed(2)} ms sampled per action`, 'self:', ...lines(self), 'total:', ...lines(total)].join('\n');
}

/** The CDP profiler on the page's worker (reached through the page's target, as profileWorker.ts does). */
async function workerProfiler(cdp: CDPSession): Promise<() => Promise<Profile>> {
  let session: string | null = null;
  let nextId = 1;
  const waiting = new Map<number, (result: unknown) => void>();
  cdp.on('Target.attachedToTarget', (event) => {
    if (event.targetInfo.type === 'worker' && session === null) session = event.sessionId;
  });
  cdp.on('Target.receivedMessageFromTarget', (event) => {
    const message = JSON.parse(event.message) as { id?: number; result?: unknown };
    if (message.id !== undefined) waiting.get(message.id)?.(message.result);
  });
  await cdp.send('Target.setAutoAttach', { autoAttach: true, waitForDebuggerOnStart: false, flatten: false });
  for (let tries = 0; session === null && tries < 50; tries++) await new Promise((resolve) => setTimeout(resolve, 100));
  const target: string | null = session;
  if (target === null) throw new Error('the page has no worker to profile (none attached within 5 s)');
  const send = (method: string, params: object = {}) =>
    within(`the worker's ${method}`, 30_000, new Promise<unknown>((resolve) => {
      const id = nextId++;
      waiting.set(id, resolve);
      void cdp.send('Target.sendMessageToTarget', { sessionId: target, message: JSON.stringify({ id, method, params }) });
    }));
  await send('Profiler.enable');
  await send('Profiler.setSamplingInterval', { interval: 50 });
  await send('Profiler.start');
  return async () => ((await send('Profiler.stop')) as { profile: Profile }).profile;
}

interface Windows {
  query: Window[];
  confirm: Window[];
  calibratedAt: number;
}

/** The protocol bench's two actions (protocol.bench.ts), each window noted in page time. */
function actions(page: Page): Promise<Windows> {
  return within(`${ROUNDS} queries and ${ROUNDS} Confirms`, 300_000, page.evaluate<Windows>(`(async () => {
    const calibratedAt = performance.now();
    (function calibrate() { const start = performance.now(); while (performance.now() - start < 30) {} })();
    const input = document.querySelector('input[placeholder^="/seeds query"]');
    const output = document.querySelector('ol[aria-label="Command output"]');
    const table = document.querySelector('table.desk tbody');
    const revision = document.querySelector('[aria-label="Revision"]');
    const nextMutation = (target, accept = () => true) => new Promise((resolve) => {
      const observer = new MutationObserver(() => { if (!accept()) return; observer.disconnect(); resolve(performance.now()); });
      observer.observe(target, { subtree: true, childList: true, characterData: true });
    });
    const frame = ${FRAME_WITH_LIMIT()};
    const type = (text) => { input.value = text; input.dispatchEvent(new Event('input', { bubbles: true })); };
    const enter = () => input.dispatchEvent(new KeyboardEvent('keydown', { key: 'Enter', bubbles: true, cancelable: true }));
    const windows = { query: [], confirm: [], calibratedAt };
    for (let i = 0; i < ${ROUNDS}; i++) {
      type(i % 2 === 0 ? '/seeds query' : '/seeds query bean');
      await frame();
      const answered = nextMutation(output, () => output.lastElementChild?.classList.contains('out-answer'));
      const start = performance.now();
      enter();
      windows.query.push([start, await answered]);
      await frame();
    }
    const confirmButton = () => [...document.querySelectorAll('button')].find((button) => button.textContent === 'Confirm');
    for (let i = 0; i < ${ROUNDS}; i++) {
      type(i % 2 === 0 ? '/seeds reserve basil-genovese 1' : '/seeds release basil-genovese 1');
      await frame();
      const opened = nextMutation(document.body, () => confirmButton() !== undefined);
      enter();
      await opened;
      await frame();
      await frame();
      const tableChanged = nextMutation(table);
      const revisionChanged = nextMutation(revision);
      const start = performance.now();
      confirmButton().click();
      windows.confirm.push([start, Math.max(await tableChanged, await revisionChanged)]);
      await frame();
    }
    return windows;
  })()`));
}

async function main(): Promise<void> {
  await withBrowser(async (browser) => {
    const page = await browser.newPage();
    await page.goto(APP_URL);
    await page.getByRole('table', { name: 'Seed desk' }).waitFor();
    const cdp = await page.context().newCDPSession(page);
    const stopWorker = await workerProfiler(cdp);
    await cdp.send('Profiler.enable');
    await cdp.send('Profiler.setSamplingInterval', { interval: 50 });
    await cdp.send('Profiler.start');
    const windows = await actions(page);
    const mainProfile = (await cdp.send('Profiler.stop')).profile as unknown as Profile;
    const workerProfile = await stopWorker();
    const nodes = new Map(mainProfile.nodes.map((node) => [node.id, node]));
    let at = mainProfile.startTime;
    let calibration: number | null = null;
    for (let index = 0; index < mainProfile.samples.length && calibration === null; index++) {
      at += mainProfile.timeDeltas[index] ?? 0;
      if (nodes.get(mainProfile.samples[index] ?? -1)?.callFrame.functionName === 'calibrate') calibration = at;
    }
    if (calibration === null) throw new Error('the profile holds no sample of the calibration loop');
    const offset = calibration / 1000 - windows.calibratedAt;
    const median = (values: readonly number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? Number.NaN;
    for (const kind of ['query', 'confirm'] as const) {
      console.log(`\n=== ${kind}: p50 ${median(windows[kind].map(([from, to]) => to - from)).toFixed(2)} ms (profiled)`);
      console.log('--- the page\'s main thread');
      console.log(inWindows(mainProfile, windows[kind], offset));
      console.log('--- the worker');
      console.log(inWindows(workerProfile, windows[kind], offset));
    }
  });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
