import { MODEL_CONNECT_SOURCES } from '../web/src/model/presets';
import { expect, test, type BrowserContext, type Page } from '@playwright/test';
import { callTool, confirmReservation, grantAgent, latestRevision, openPlayground, output, run, toolText, tree, openTool } from './support';

/**
 * A hostile journal and the page's defences: everything from a file is text, never markup; the
 * page's Content-Security-Policy forbids eval and inline scripts; nothing leaves the origin.
 */

const SESSION_ID = '01a2375c-0bad-7000-8000-00000000face';
const SCRIPT = '<script>window.__pwned = 1</script>';
const IMG = '<img src=x onerror="window.__pwned=2">';
const LINK = '<a href="javascript:window.__pwned=3">click</a>';
const SVG = '"><svg onload=alert(1)>';
const BIDI = 'bidi \u202Etxt.exe\u202C and \u2066isolated\u2069 then \u202Eunterminated';
const CUSTOM_TYPE = '<img src=x onerror=alert(1)>';
const LABEL = '<b onmouseover=alert(1)>x</b>';
const CUSTOM_MESSAGE = '<img src=x onerror="window.__pwned=4"><script>alert(4)</script>';
const TITLE = '<img src=x onerror="window.__pwned=6">';
/** One megabyte of text behind a hostile prefix (words: the unbroken megabyte has a test of its own). */
const HUGE = `<img src=x onerror="window.__pwned=5">${'lorem ipsum '.repeat(83_334)}`;
const HOSTILE = [SCRIPT, IMG, LINK, SVG, BIDI, CUSTOM_TYPE, LABEL, CUSTOM_MESSAGE];

/** The journal as lines, each written with JSON.stringify (so every string is a real JSON string). */
function hostileJournal(): { jsonl: string; entries: number } {
  let clock = Date.parse('2026-01-02T03:04:05.000Z');
  let previous: string | null = null;
  const lines: string[] = [
    JSON.stringify({ type: 'session', version: 3, id: SESSION_ID, timestamp: new Date(clock).toISOString(), cwd: '/x', title: TITLE }),
  ];
  const place = (id: string) => {
    clock += 1000;
    const base = { id, parentId: previous, timestamp: new Date(clock).toISOString() };
    previous = id;
    return base;
  };
  const user = (id: string, text: string) => {
    const at = place(id);
    lines.push(JSON.stringify({ type: 'message', ...at, message: { role: 'user', content: [{ type: 'text', text }], timestamp: clock } }));
  };
  user('a0000001', SCRIPT);
  user('a0000002', IMG);
  user('a0000003', LINK);
  user('a0000004', SVG);
  user('a0000005', BIDI);
  user('a0000006', HUGE);
  // `__proto__` as a key of the data, as JSON.parse gives it: an own property, never the prototype.
  const data = { strings: HOSTILE, html: `${SCRIPT}${IMG}`, nested: JSON.parse('{"__proto__":{"polluted":"yes"}}') as unknown };
  lines.push(JSON.stringify({ type: 'custom', customType: CUSTOM_TYPE, data, ...place('a0000007') }));
  lines.push(JSON.stringify({ type: 'label', ...place('a0000008'), targetId: 'a0000001', label: LABEL }));
  lines.push(
    JSON.stringify({
      type: 'custom_message',
      customType: '<svg onload=alert(1)>',
      content: [{ type: 'text', text: CUSTOM_MESSAGE }],
      display: true,
      details: { html: SVG },
      ...place('a0000009'),
    }),
  );
  user('a000000a', `last: ${SCRIPT}`);
  return { jsonl: `${lines.join('\n')}\n`, entries: lines.length - 1 };
}

async function importJsonl(page: Page, jsonl: string, entries: number, timeout = 10_000): Promise<void> {
  await openTool(page, 'Sessions');
  await page.getByLabel('Import session').setInputFiles({ name: 'hostile.jsonl', mimeType: 'text/plain', buffer: Buffer.from(jsonl, 'utf8') });
  await openTool(page, 'Sessions');
  await expect(page.getByRole('region', { name: 'Import report' })).toContainText(`Imported ${entries} entries`, { timeout });
}

async function importHostile(page: Page): Promise<number> {
  const { jsonl, entries } = hostileJournal();
  await importJsonl(page, jsonl, entries);
  return entries;
}

/** A header and user messages in one chain, each line written with JSON.stringify. */
function chain(sessionId: string, texts: readonly string[], extra: readonly Record<string, unknown>[] = []): string {
  const at = (index: number) => new Date(Date.parse('2026-01-02T03:04:05.000Z') + index * 1000).toISOString();
  const lines = [JSON.stringify({ type: 'session', version: 3, id: sessionId, timestamp: at(0), cwd: '/x' })];
  texts.forEach((text, index) => {
    const id = `b${String(index + 1).padStart(7, '0')}`;
    const parentId = index === 0 ? null : `b${String(index).padStart(7, '0')}`;
    lines.push(JSON.stringify({ type: 'message', id, parentId, timestamp: at(index + 1), message: { role: 'user', content: [{ type: 'text', text }], timestamp: index + 1 } }));
  });
  for (const entry of extra) lines.push(JSON.stringify(entry));
  return `${lines.join('\n')}\n`;
}

/** Dialogs (alert, confirm, prompt) the page opens: a hostile string must never open one. */
function recordDialogs(page: Page): string[] {
  const seen: string[] = [];
  page.on('dialog', (dialog) => {
    seen.push(`${dialog.type()}: ${dialog.message()}`);
    void dialog.dismiss().catch(() => undefined);
  });
  return seen;
}

declare global {
  interface Window {
    __pwned?: unknown;
    __cspViolations?: string[];
  }
}

/** Records every CSP violation the document sees, from before the first script runs. */
async function recordViolations(page: Page): Promise<string[]> {
  await page.addInitScript(() => {
    window.__cspViolations = [];
    document.addEventListener('securitypolicyviolation', (event) => {
      window.__cspViolations?.push(`${event.effectiveDirective} blocked ${event.blockedURI || '(inline)'} at ${event.sourceFile}:${event.lineNumber} ${event.sample}`);
    });
  });
  const reports: string[] = [];
  page.on('console', (message) => {
    if (/Content Security Policy|Refused to/i.test(message.text())) reports.push(message.text());
  });
  return reports;
}

const violations = (page: Page) => page.evaluate(() => window.__cspViolations ?? ['the recorder did not run']);

/** Things only markup made from the journal could create. */
async function expectNoInjectedMarkup(page: Page): Promise<void> {
  const found = await page.evaluate(() => ({
    pwned: typeof window.__pwned,
    handlers: [...document.querySelectorAll('[onerror],[onload],[onmouseover],[onclick]')].map((element) => element.outerHTML.slice(0, 120)),
    javascriptLinks: document.querySelectorAll('a[href^="javascript:" i]').length,
    hostileImages: document.querySelectorAll('img[src="x"]').length,
    boldFromLabel: [...document.querySelectorAll('b')].filter((element) => element.textContent === 'x').length,
    inlineScripts: [...document.scripts].filter((script) => !script.src || new URL(script.src).origin !== location.origin).map((script) => script.outerHTML.slice(0, 120)),
    polluted: (Object.prototype as Record<string, unknown>)['polluted'] ?? null,
  }));
  expect(found).toEqual({ pwned: 'undefined', handlers: [], javascriptLinks: 0, hostileImages: 0, boldFromLabel: 0, inlineScripts: [], polluted: null });
}

function item(page: Page, text: string) {
  return tree(page).getByRole('treeitem').filter({ hasText: text });
}

test('a hostile journal imports and shows every string as literal text: no dialog, no script, no handler, no javascript: link', async ({ page }) => {
  test.setTimeout(60_000);
  const dialogs = recordDialogs(page);
  await openPlayground(page);
  await importHostile(page);

  // The tree rows show the strings as they are, tags and all.
  await expect(item(page, SCRIPT).first()).toBeVisible();
  for (const text of [IMG, LINK, SVG, CUSTOM_TYPE, LABEL, CUSTOM_MESSAGE]) await expect(item(page, text).first()).toBeVisible();
  // The label names its target in brackets; the megabyte row is cut short, not dropped.
  await expect(item(page, SCRIPT).first()).toContainText(`[${LABEL}]`);
  await expect(item(page, HUGE.slice(0, 60))).toHaveCount(1);
  // Bidi controls are kept as characters (text, not markup); the row still reads as its own row.
  const bidiRow = tree(page).getByRole('treeitem').filter({ hasText: 'txt.exe' });
  await expect(bidiRow).toHaveCount(1);
  expect(await bidiRow.locator('.row-text').textContent()).toBe(BIDI);

  // The active branch (root to leaf) shows them literally too.
  const branch = page.getByRole('list', { name: 'Active branch' });
  await expect(branch).toContainText(SCRIPT);
  await expect(branch).toContainText(IMG);
  await expect(branch).toContainText(LINK);
  await expect(branch).toContainText(SVG);
  await expect(branch).toContainText(CUSTOM_MESSAGE);
  await expect(branch).toContainText(`[${LABEL}]`);
  await expect(branch).toContainText(HUGE.slice(0, 200));

  // The header's title is text in the session list.
  await openTool(page, 'Sessions');
  await expect(page.getByRole('list', { name: 'Session list' })).toContainText(TITLE);
  await expectNoInjectedMarkup(page);

  // Use every row as a learner would: click it, hover its label, then branch from the hostile messages.
  const rows = tree(page).getByRole('treeitem');
  const count = await rows.count();
  expect(count).toBeGreaterThanOrEqual(10);
  for (let index = 0; index < count; index++) {
    await rows.nth(index).click();
    await rows.nth(index).hover();
  }
  await item(page, SCRIPT).first().locator('.label').hover();
  await item(page, IMG).first().click();
  await page.getByRole('button', { name: 'Branch from here' }).click();
  // A user message puts the leaf on its parent: the <script> message is now the whole branch.
  await expect(branch.getByRole('listitem')).toHaveCount(1);
  await expect(branch).toContainText(SCRIPT);
  await expect(branch.getByRole('listitem').first()).toContainText('← leaf');
  await item(page, CUSTOM_TYPE).first().click();
  await page.getByRole('button', { name: 'Branch from here' }).click();
  await expect(branch).toContainText(HUGE.slice(0, 100));
  await expect(branch).toContainText(`[${LABEL}]`);
  await item(page, 'txt.exe').click();
  await page.getByRole('button', { name: 'Compare with selected' }).click();
  await expectNoInjectedMarkup(page);

  // The journal panel, filtered for "<script>", shows the JSONL line with the tag as text.
  await openTool(page, 'Journal');
  await page.getByRole('textbox', { name: 'Filter journal' }).fill('<script>');
  const lines = page.getByRole('list', { name: 'Journal lines' }).getByRole('listitem');
  await expect(lines.filter({ hasText: `"text":"${SCRIPT}"` })).toHaveCount(1);
  await expect(lines.filter({ hasText: `"customType":"${CUSTOM_TYPE}"` })).toHaveCount(1);
  await expect(lines.first()).toContainText('<script>');
  await openTool(page, 'Journal');
  await page.getByRole('textbox', { name: 'Filter journal' }).fill('onmouseover');
  await expect(lines.filter({ hasText: `"label":"${LABEL}"` })).toHaveCount(1);

  // A reload renders the stored journal again: still text.
  await page.reload();
  await expect(item(page, SCRIPT).first()).toBeVisible();
  await expect(page.getByRole('list', { name: 'Active branch' })).toContainText(SCRIPT);

  await expectNoInjectedMarkup(page);
  expect(dialogs).toEqual([]);
});

test('a 1 MB message without a space imports in seconds and the page stays responsive', async ({ page }) => {
  // One unbroken megabyte: the tree row cuts it to 200 characters; nothing else may lay it out whole.
  await openPlayground(page);
  const started = Date.now();
  await importJsonl(page, chain('01a2375c-0bad-7000-8000-0000000010ad', [`long:${'A'.repeat(1_000_000)}`]), 1);
  await expect(item(page, 'long:AAAA')).toHaveCount(1);
  const command = Date.now();
  await run(page, '/seeds query');
  await expect(output(page)).toContainText('basil-genovese: 8 available, 0 reserved');
  expect(Date.now() - command, 'a command after the import answers within 5 s').toBeLessThan(5_000);
  expect(Date.now() - started, 'import and command within 10 s').toBeLessThan(10_000);
});

test("bidi controls in a message stay inside it: the page's own text after it still reads left to right", async ({ page }) => {
  await openPlayground(page);
  const label = { type: 'label', id: 'b0000002', parentId: 'b0000001', timestamp: '2026-01-02T03:04:07.000Z', targetId: 'b0000001', label: 'mylabel' };
  await importJsonl(page, chain('01a2375c-0bad-7000-8000-00000000b1d1', ['bidi \u202Eunterminated override'], [label]), 2);
  /** Whether the first and last letters of an element's own text are laid out left to right. */
  const readsLeftToRight = (element: Element) => {
    const text = element.firstChild;
    if (!text?.textContent) return false;
    const range = document.createRange();
    const x = (index: number) => {
      range.setStart(text, index);
      range.setEnd(text, index + 1);
      return range.getBoundingClientRect().x;
    };
    return x(1) < x(text.textContent.length - 2);
  };
  const row = item(page, 'unterminated override');
  await expect(row.locator('.label')).toHaveText('[mylabel]');
  expect(await row.locator('.label').evaluate(readsLeftToRight), 'tree row label').toBe(true);
  const message = page.getByRole('list', { name: 'Active branch' }).getByRole('listitem').filter({ hasText: 'unterminated override' });
  await expect(message.locator('.label')).toHaveText('[mylabel]');
  expect(await message.locator('.label').evaluate(readsLeftToRight), 'active branch label').toBe(true);
});

test('the page carries a CSP without eval or inline scripts, and a short session breaks none of it', async ({ page }) => {
  const consoleReports = await recordViolations(page);
  const dialogs = recordDialogs(page);
  const response = await page.goto('/');
  expect(response?.ok()).toBe(true);

  // The served HTML: the policy comes before any script, and every script is a file.
  const html = (await response?.text()) ?? '';
  const meta = html.search(/<meta\s+http-equiv="Content-Security-Policy"/i);
  expect(meta).toBeGreaterThan(-1);
  expect(meta).toBeLessThan(html.search(/<script\b/i));
  const scripts = [...html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)];
  expect(scripts.length).toBeGreaterThan(0);
  for (const [tag, attributes, body] of scripts) {
    expect(attributes, tag).toMatch(/\ssrc="\/[^"]+"/);
    expect(body?.trim(), tag).toBe('');
  }

  const policy = (await page.locator('meta[http-equiv="Content-Security-Policy"]').getAttribute('content')) ?? '';
  const directives = new Map(
    policy
      .split(';')
      .map((part) => part.trim().split(/\s+/))
      .filter((tokens) => tokens[0])
      .map(([name, ...values]) => [name!.toLowerCase(), values] as const),
  );
  expect(policy).not.toContain("'unsafe-eval'");
  expect(policy).not.toContain("'wasm-unsafe-eval'");
  const scriptSrc = directives.get('script-src') ?? directives.get('default-src');
  expect(scriptSrc).toEqual(["'self'"]);
  expect(directives.get('default-src')).toEqual(["'self'"]);
  expect(directives.get('object-src')).toEqual(["'none'"]);
  expect(directives.get('base-uri')).toEqual(["'none'"]);
  // The page may reach its own origin and the model endpoints a learner can configure (issue 30), nothing else.
  expect(directives.get('connect-src')).toEqual(["'self'", ...MODEL_CONNECT_SOURCES]);

  await expect(page.getByRole('table', { name: 'Seed desk' })).toBeVisible();
  await shortSession(page);

  expect(await violations(page)).toEqual([]);
  expect(consoleReports).toEqual([]);
  expect(dialogs).toEqual([]);
});

test.describe('the service worker included', () => {
  // Its precache requests count too: it runs here (playwright.config.ts blocks it elsewhere).
  test.use({ serviceWorkers: 'allow' });

  test('no request leaves the origin: load, query, reserve, tool calls, import and export', async ({ page, context, baseURL }) => {
    test.setTimeout(60_000);
    const origin = new URL(baseURL ?? 'http://127.0.0.1:4173').origin;
    const urls = recordRequests(page, context);
    await recordViolations(page);

    await openPlayground(page);
    await shortSession(page);
    await importHostile(page);
    const download = page.waitForEvent('download');
    await openTool(page, 'Sessions');
    await page.getByRole('button', { name: 'Export session' }).click();
    expect((await download).suggestedFilename()).toMatch(/\.jsonl$/);
    // The service worker's precache runs in the background: let it finish so its requests count too.
    await page.evaluate(async () => {
      await navigator.serviceWorker?.ready;
    });

    const all = [...urls];
    expect(all.some((url) => url.startsWith(`${origin}/assets/worker-`))).toBe(true);
    expect(all).toContain(`${origin}/sw.js`);
    const elsewhere = all.filter((url) => !url.startsWith('data:') && !url.startsWith('blob:') && new URL(url).origin !== origin);
    expect(elsewhere).toEqual([]);
    expect(await violations(page)).toEqual([]);
  });
});

/** Load is done by the caller; then a query, a confirmed reservation, the grant and tool calls. */
async function shortSession(page: Page): Promise<void> {
  await run(page, '/seeds query');
  await expect(output(page)).toContainText('basil-genovese: 8 available, 0 reserved');
  await confirmReservation(page, '/seeds reserve basil-genovese 1');
  await grantAgent(page);
  await callTool(page, { op: 'query' });
  await expect(toolText(page)).toContainText('basil-genovese: 7 available, 1 reserved');
  await callTool(page, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: await latestRevision(page) });
  await expect(toolText(page)).toContainText('Reserved 1 bean-scarlet.');
}

/** Every request from the page, its workers and the service worker. */
function recordRequests(page: Page, context: BrowserContext): Set<string> {
  const urls = new Set<string>();
  page.on('request', (request) => urls.add(request.url()));
  context.on('request', (request) => urls.add(request.url()));
  page.on('worker', (worker) => urls.add(worker.url()));
  context.on('serviceworker', (worker) => urls.add(worker.url()));
  for (const worker of context.serviceWorkers()) urls.add(worker.url());
  return urls;
}
