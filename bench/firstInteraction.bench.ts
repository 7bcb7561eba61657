/**
 * All JavaScript the page fetches before the first interaction (issue 22): the page opens, the
 * first desk shows, the network goes idle, and nothing has been clicked or typed. Counted the way
 * a browser receives it: every script response the page itself fetched (not the worker, not the
 * service worker), its body gzipped at the default level, summed. Target ≤ 70 KiB.
 *
 * Measured at two addresses: the first lesson's first step (a first visit) and a step of a later
 * lesson (a step address), with the lesson chunks fetched named, so "only the current lesson
 * loads" is seen in the figures, not assumed.
 */
import { pathToFileURL } from 'node:url';
import { gzipSync } from 'node:zlib';
import type { Browser, Locator, Page } from 'playwright';
import { APP_URL, withBrowser } from './browserKit';
import { printTable, saveFigures, type Figure } from './stats';

export const FIRST_INTERACTION_BUDGET = 70 * 1024;
/** Issue 29: what the first query brings with it (84.7 KiB before: XState and the goal checker came along). */
export const FIRST_QUERY_BUDGET = 70 * 1024;

/** Scripts that are not the page's: the worker (its own budget), the service worker and Workbox. */
const isPageScript = (path: string): boolean => !/\/worker-[^/]*\.js$/.test(path) && !path.includes('workbox') && !path.endsWith('/sw.js');

export interface FirstInteraction {
  readonly bytes: number;
  readonly scripts: readonly { readonly path: string; readonly gzip: number }[];
}

/** Opens `url` in a fresh context and sums the gzipped bodies of the page scripts fetched by network idle. */
export async function measureFirstInteraction(browser: Browser, url: string): Promise<FirstInteraction> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const pending: Promise<{ path: string; gzip: number } | null>[] = [];
  page.on('response', (response) => {
    const request = response.request();
    if (request.resourceType() !== 'script' && !/javascript/.test(response.headers()['content-type'] ?? '')) return;
    const path = new URL(response.url()).pathname;
    if (!isPageScript(path) || request.frame() === null) return;
    pending.push(response.body().then((body) => ({ path, gzip: gzipSync(body).length }), () => null));
  });
  try {
    await page.goto(url);
    await page.getByRole('table', { name: 'Seed desk' }).waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const scripts = (await Promise.all(pending)).filter((script): script is { path: string; gzip: number } => script !== null);
    const unique = [...new Map(scripts.map((script) => [script.path, script])).values()].sort((a, b) => b.gzip - a.gzip);
    return { bytes: unique.reduce((sum, script) => sum + script.gzip, 0), scripts: unique };
  } finally {
    await context.close();
  }
}

/**
 * Notes, in the page, the moment its step can be read and used: the step's heading (with its
 * title, so the lesson's text is in), the Command box and the desk table are all on the page. A
 * string: an init script runs before the page's own, and tsx's helpers do not exist in the page.
 */
const NOTE_USABLE = `(() => {
  const usable = () => /^Step \\d+: /.test(document.getElementById('step-title')?.textContent ?? '')
    && document.querySelector('label.command-line input') !== null
    && [...document.querySelectorAll('table > caption')].some((caption) => caption.textContent.trim() === 'Seed desk');
  new MutationObserver((_, observer) => {
    if (!usable()) return;
    window.__usableAt = performance.now();
    observer.disconnect();
  }).observe(document, { childList: true, subtree: true, characterData: true });
})()`;

export interface StepAddress {
  /** Page scripts whose request started before the step could be read and used. */
  readonly usable: FirstInteraction;
  /** Page scripts fetched after that, by network idle with the step's tab drawn (the Code tab filling in). */
  readonly after: FirstInteraction;
}

/**
 * A step address as a person opens it: the JavaScript fetched before the step can be read and
 * used (its text, the Command box, the desk), and apart from it what the tab the step opens
 * fetched after (issue 38). `tabReady`: what the opened tab finally shows.
 */
export async function measureStepAddress(browser: Browser, url: string, tabReady: (page: Page) => Locator): Promise<StepAddress> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const sizes = new Map<string, Promise<number | null>>();
  page.on('response', (response) => {
    const request = response.request();
    if (request.resourceType() !== 'script' && !/javascript/.test(response.headers()['content-type'] ?? '')) return;
    const path = new URL(response.url()).pathname;
    if (!isPageScript(path) || request.frame() === null) return;
    sizes.set(path, response.body().then((body) => gzipSync(body).length, () => null));
  });
  await page.addInitScript(NOTE_USABLE);
  try {
    await page.goto(url);
    await page.getByRole('table', { name: 'Seed desk' }).waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForFunction(() => (window as unknown as { __usableAt?: number }).__usableAt !== undefined, undefined, { timeout: 30_000 }).catch(() => {
      throw new Error(`${url}: the step's text, the Command box and the desk were not all on the page within 30 s`);
    });
    await tabReady(page).waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const entries: { path: string; start: number }[] = await page.evaluate(() =>
      performance.getEntriesByType('resource').map((entry) => ({ path: new URL(entry.name).pathname, start: entry.startTime })),
    );
    const usableAt = await page.evaluate(() => (window as unknown as { __usableAt: number }).__usableAt);
    const sum = async (paths: Iterable<string>): Promise<FirstInteraction> => {
      const scripts: { path: string; gzip: number }[] = [];
      for (const path of new Set(paths)) {
        const gzip = await (sizes.get(path) ?? Promise.resolve(null));
        if (gzip !== null) scripts.push({ path, gzip });
      }
      scripts.sort((a, b) => b.gzip - a.gzip);
      return { bytes: scripts.reduce((total, script) => total + script.gzip, 0), scripts };
    };
    const before = new Set(entries.filter((entry) => entry.start <= usableAt).map((entry) => entry.path));
    return { usable: await sum(before), after: await sum(entries.filter((entry) => !before.has(entry.path)).map((entry) => entry.path)) };
  } finally {
    await context.close();
  }
}

/**
 * Opens `url`, types `/seeds query` into the Command line as a person does, and sums the gzipped
 * page scripts whose request started before the answer was on the page: the page marks that
 * moment itself (a MutationObserver on the Command output), so a chunk fetched after the answer
 * (the dialog machine, the goal checker) does not count, and one fetched to give it does.
 */
export async function measureFirstQuery(browser: Browser, url: string): Promise<FirstInteraction> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const sizes = new Map<string, Promise<number | null>>();
  page.on('response', (response) => {
    const path = new URL(response.url()).pathname;
    if (!path.endsWith('.js') || !isPageScript(path) || response.request().frame() === null) return;
    sizes.set(path, response.body().then((body) => gzipSync(body).length, () => null));
  });
  try {
    await page.goto(url);
    await page.getByRole('table', { name: 'Seed desk' }).waitFor({ state: 'visible', timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    await page.evaluate(() => {
      const output = document.querySelector('[aria-label="Command output"]');
      if (!output) throw new Error('no Command output');
      new MutationObserver((_, observer) => {
        if (!/revision/.test(output.textContent ?? '')) return;
        (window as unknown as { answeredAt: number }).answeredAt = performance.now();
        observer.disconnect();
      }).observe(output, { childList: true, subtree: true, characterData: true });
    });
    const command = page.getByRole('textbox', { name: 'Command' });
    await command.click();
    await command.pressSequentially('/seeds query');
    await command.press('Enter');
    await page.waitForFunction(() => (window as unknown as { answeredAt?: number }).answeredAt !== undefined, undefined, { timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    const started: string[] = await page.evaluate(() => {
      const answeredAt = (window as unknown as { answeredAt: number }).answeredAt;
      return performance
        .getEntriesByType('resource')
        .filter((entry) => entry.startTime <= answeredAt)
        .map((entry) => new URL(entry.name).pathname);
    });
    const scripts: { path: string; gzip: number }[] = [];
    for (const path of new Set(started)) {
      const gzip = await (sizes.get(path) ?? Promise.resolve(null));
      if (gzip !== null) scripts.push({ path, gzip });
    }
    scripts.sort((a, b) => b.gzip - a.gzip);
    return { bytes: scripts.reduce((sum, script) => sum + script.gzip, 0), scripts };
  } finally {
    await context.close();
  }
}

const kib = (bytes: number): string => `${(bytes / 1024).toFixed(1)} KiB`;
/** The lesson chunks a load fetched (`virtual:lesson/<id>` builds to `_virtual_lesson-<id>-<8-character hash>.js`; its goals, `_virtual_goals-…`, wait for the first action). */
const lessonChunks = (result: FirstInteraction): string[] => result.scripts.map((script) => /_virtual_lesson-([a-z0-9-]+)-[\w-]{8}\.js$/.exec(script.path)?.[1]).filter((id): id is string => id !== undefined);

async function main(): Promise<void> {
  const STEP = { name: 'a step address (lesson 5, step 3, which opens the Code tab)', hash: '#/lesson/5/step/3', tab: (page: Page) => page.getByRole('tabpanel', { name: 'Code', exact: true }).getByRole('figure').first() };
  const { first, step, query } = await withBrowser(async (browser) => ({
    first: await measureFirstInteraction(browser, APP_URL),
    step: await measureStepAddress(browser, `${APP_URL}${STEP.hash}`, STEP.tab),
    query: await measureFirstQuery(browser, APP_URL),
  }));
  const results = [
    { name: 'first visit (lesson 1, step 1), by network idle', result: first },
    { name: `${STEP.name}, before its text, the Command box and the desk are on the page`, result: step.usable },
  ];
  const largest = (result: FirstInteraction, count: number) =>
    result.scripts
      .slice(0, count)
      .map((script) => `${script.path.replace(/^.*\//, '')} ${kib(script.gzip)}`)
      .join('; ');
  printTable(
    'JavaScript fetched by the time the first /seeds query is answered (gzip, page scripts)',
    ['total', 'scripts', 'largest'],
    [[kib(query.bytes), String(query.scripts.length), largest(query, 6)]],
  );
  printTable(
    'JavaScript fetched before the first interaction (gzip, page scripts)',
    ['address', 'total', 'scripts', 'lesson chunks', 'largest'],
    [
      ...results.map(({ name, result }) => [name, kib(result.bytes), String(result.scripts.length), lessonChunks(result).join(', ') || '—', largest(result, 4)]),
      [`${STEP.name}: fetched after, as the Tools tabs fill in`, kib(step.after.bytes), String(step.after.scripts.length), lessonChunks(step.after).join(', ') || '—', largest(step.after, 4)],
    ],
  );
  const figures: Figure[] = results.map(({ name, result }) => ({
    issue: 22,
    measure: `all JavaScript fetched before the first interaction, gzip: ${name}`,
    value: kib(result.bytes),
    target: `≤ ${kib(FIRST_INTERACTION_BUDGET)}`,
    met: result.bytes <= FIRST_INTERACTION_BUDGET,
  }));
  figures.push({ issue: 38, measure: `${STEP.name}: JavaScript fetched after the step is usable, as the Tools tabs fill in (the Code tab, its sources, the Tool call tab), gzip (for information)`, value: kib(step.after.bytes), target: '', met: null });
  // What the step needs comes first: none of the Code tab's chunks before the step is usable.
  const codeEarly = step.usable.scripts.filter((script) => /CodeTab|extension-source|CodeView/.test(script.path)).length;
  const codeAfter = step.after.scripts.filter((script) => /CodeTab|extension-source|CodeView/.test(script.path)).length;
  figures.push({ issue: 38, measure: `${STEP.name}: Code tab chunks fetched before / after the step is usable`, value: `${codeEarly} / ${codeAfter}`, target: '0 / ≥ 1', met: codeEarly === 0 && codeAfter >= 1 });
  const chunks = results.map(({ result }) => lessonChunks(result).length);
  figures.push({ issue: 22, measure: 'lesson chunks fetched before the first interaction (per address above)', value: chunks.join(' / '), target: '1 each', met: chunks.every((count) => count === 1) });
  // The goal checker and the lesson's goals wait for the learner's first action.
  const checks = [first, step.usable, step.after].map((result) => result.scripts.filter((script) => /\/(goals|_virtual_goals-[a-z0-9-]+)-[\w-]{8}\.js$/.test(script.path)).length);
  figures.push({ issue: 22, measure: 'goal checker and goals chunks fetched before the first interaction (first visit / step address / its Code tab)', value: checks.join(' / '), target: '0 each', met: checks.every((count) => count === 0) });
  figures.push({ issue: 29, measure: 'all JavaScript fetched by the time the first /seeds query is answered, gzip', value: kib(query.bytes), target: `≤ ${kib(FIRST_QUERY_BUDGET)}`, met: query.bytes <= FIRST_QUERY_BUDGET });
  await saveFigures('first-interaction', figures);
}

// Run as a benchmark part (`npm run bench`); imported, it only lends `measureFirstInteraction`.
if (process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
