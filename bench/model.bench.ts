/**
 * The real model (issue 30), with a scripted OpenAI-compatible provider (page.route, streamed as
 * a server streams): what the model code weighs, fetched when "Real model" opens and at the first
 * request (after a scripted agent's run, so the tool call path every agent uses is not counted), and how many animation frames pass between a reply's first token reaching the page's
 * code (a performance mark there) and its text in the DOM (a MutationObserver), timed in the page.
 */
import { rounds } from './limits';
import { gzipSync } from 'node:zlib';
import type { Page } from 'playwright';
import { lastRevisionSeen, scriptProvider } from '../e2e/modelProvider';
import { APP_URL, withBrowser } from './browserKit';
import { median, printTable, saveFigures, type Figure } from './stats';

export const MODEL_CODE_BUDGET = 60 * 1024;
const TOKEN_ROUNDS = rounds(7, 2);

interface Fetched {
  readonly path: string;
  readonly gzip: number;
}

function watchScripts(page: Page): { since: () => Promise<Fetched[]>; mark: () => void } {
  let seen: Promise<Fetched | null>[] = [];
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (!path.endsWith('.js') || /\/worker-[^/]*\.js$/.test(path) || response.request().frame() === null) return;
    seen.push(response.body().then((body) => ({ path, gzip: gzipSync(body).length }), () => null));
  });
  return {
    mark: () => (seen = []),
    since: async () => [...new Map((await Promise.all(seen)).filter((item): item is Fetched => item !== null).map((item) => [item.path, item])).values()],
  };
}

const sum = (items: readonly Fetched[]): number => items.reduce((total, item) => total + item.gzip, 0);
const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;

async function openModel(page: Page): Promise<void> {
  await page.goto(APP_URL);
  await page.getByRole('table', { name: 'Seed desk' }).waitFor({ state: 'visible', timeout: 30_000 });
  await page.waitForLoadState('networkidle');
  await page.getByRole('tab', { name: 'Agents' }).click();
  await page.getByRole('button', { name: 'Set up a real model' }).waitFor();
}

async function main(): Promise<void> {
  const result = await withBrowser(async (browser) => {
    // Sizes: the section opened, then the first request on the OpenAI-compatible path, then Anthropic's entry.
    const context = await browser.newContext({ serviceWorkers: 'block', viewport: { width: 1440, height: 900 } });
    const page = await context.newPage();
    const scripts = watchScripts(page);
    await scriptProvider(page, (request, index) => (index % 2 === 0 ? { calls: [{ args: { op: 'query' } }] } : { text: `The desk is at ${lastRevisionSeen(request) ?? 'an unknown revision'}.` }));
    await openModel(page);
    // The tool call path (the host's gates in the worker, the approval machine) loads with any agent's
    // first call: the scripted agent runs first, so what follows counts the model's own code only.
    await page.getByRole('button', { name: 'Run to end' }).click();
    await page.getByRole('note', { name: 'Agent summary' }).waitFor();
    await page.waitForLoadState('networkidle');
    scripts.mark();
    await page.getByRole('button', { name: 'Set up a real model' }).click();
    await page.getByRole('button', { name: 'Test connection' }).waitFor();
    await page.waitForLoadState('networkidle');
    const onOpen = await scripts.since();
    scripts.mark();
    await page.getByRole('combobox', { name: 'Model' }).fill('scripted');
    await page.getByRole('button', { name: 'Ask the model' }).click();
    await page.getByRole('note', { name: 'How the request ended' }).waitFor();
    const onAsk = await scripts.since();

    // First token → text: each round a fresh request; the page marks the token, an observer the text.
    const frames: number[] = [];
    const tokenMs: number[] = [];
    for (let round = 0; round < TOKEN_ROUNDS; round++) {
      // A string, not a function: tsx would wrap the named callback in a helper the page does not have.
      await page.evaluate(`(() => {
        window.frameTimes = [];
        window.shownAt = null;
        performance.clearMarks('seed-desk:model-first-token');
        const tick = (time) => {
          window.frameTimes.push(time);
          if (window.shownAt === null || window.frameTimes.length < 3) requestAnimationFrame(tick);
        };
        requestAnimationFrame(tick);
        const list = document.querySelector('[aria-label="Model conversation"]');
        if (!list) throw new Error('no Model conversation');
        new MutationObserver((_, observer) => {
          if (!list.querySelector('.model-text')) return;
          window.shownAt = performance.now();
          observer.disconnect();
        }).observe(list, { childList: true, subtree: true, characterData: true });
      })()`);
      await page.getByRole('button', { name: 'Ask the model' }).click();
      await page.waitForFunction(() => (window as unknown as { shownAt: number | null }).shownAt !== null, undefined, { timeout: 30_000 });
      const timing = await page.evaluate(() => {
        const w = window as unknown as { frameTimes: number[]; shownAt: number };
        const token = performance.getEntriesByName('seed-desk:model-first-token')[0]?.startTime ?? Number.NaN;
        // Frames that began after the token arrived and before its text was in the DOM.
        return { frames: w.frameTimes.filter((time) => time > token && time < w.shownAt).length, ms: w.shownAt - token };
      });
      frames.push(timing.frames);
      tokenMs.push(timing.ms);
      await page.getByRole('note', { name: 'How the request ended' }).waitFor();
    }

    scripts.mark();
    await page.getByLabel('Provider').selectOption('anthropic');
    await page.getByLabel('API key').fill('sk-bench');
    await page.route('https://api.anthropic.com/**', (route) => route.fulfill({ status: 401, headers: { 'access-control-allow-origin': '*', 'access-control-allow-headers': '*' }, body: '{"type":"error","error":{"type":"authentication_error","message":"invalid x-api-key"}}' }));
    await page.getByRole('button', { name: 'Ask the model' }).click();
    await page.getByRole('alert', { name: 'How the request ended' }).waitFor();
    const anthropic = await scripts.since();
    await context.close();
    return { onOpen, onAsk, anthropic, frames, tokenMs };
  });

  const open = sum(result.onOpen);
  const first = open + sum(result.onAsk);
  const withAnthropic = open + sum(result.anthropic);
  const frameMedian = median(result.frames);
  printTable('Real model (scripted OpenAI-compatible provider)', ['measure', 'value', 'target', 'met'], [
    ['model code fetched when "Real model" opens, gzip', kib(open), '', ''],
    ['  + the first request (OpenAI-compatible provider), gzip', kib(first), `≤ ${kib(MODEL_CODE_BUDGET)}`, first <= MODEL_CODE_BUDGET ? 'yes' : 'NO'],
    ['  + the first request (Anthropic provider), gzip', kib(withAnthropic), `≤ ${kib(MODEL_CODE_BUDGET)}`, withAnthropic <= MODEL_CODE_BUDGET ? 'yes' : 'NO'],
    [`first streamed token → its text in the page, frames (median of ${TOKEN_ROUNDS}; max ${Math.max(...result.frames)})`, String(frameMedian), '≤ 1', frameMedian <= 1 ? 'yes' : 'NO'],
    ['first streamed token → its text in the DOM, ms (median)', median(result.tokenMs).toFixed(2), '', ''],
  ]);
  for (const [name, list] of [['open', result.onOpen], ['first request', result.onAsk], ['anthropic', result.anthropic]] as const) {
    console.log(`${name}: ${list.map((item) => `${item.path.replace(/^.*\//, '')} ${kib(item.gzip)}`).join(', ') || '(nothing)'}`);
  }
  const figures: Figure[] = [
    { issue: 30, measure: 'model code: "Real model" opened + first request, OpenAI-compatible / Anthropic, gzip', value: `${kib(first)} / ${kib(withAnthropic)}`, target: `≤ ${kib(MODEL_CODE_BUDGET)}`, met: first <= MODEL_CODE_BUDGET && withAnthropic <= MODEL_CODE_BUDGET },
    { issue: 30, measure: '  of which fetched when "Real model" opens (the form, the loop), gzip', value: kib(open), target: '', met: null },
    { issue: 30, measure: 'first streamed token → its text in the page, animation frames (median)', value: `${frameMedian} (max ${Math.max(...result.frames)})`, target: '≤ 1 frame', met: frameMedian <= 1 },
  ];
  await saveFigures('model', figures);
}

await main();
