import { expect, test, type Page } from '@playwright/test';
import { branchFromItem, callTool, confirmReservation, openPlayground, openTool, output, run } from './support';
import { replaceInEditor } from './typing';

// Issue 28: hostile code typed into the Code tab's editor and run. Whatever it does, the page names
// it, stays responsive, and the journal is intact: back on the shipped extension, the desk and the
// journal's lines are what they were (plus, for the append flood, the entries the host kept).

type Place = 'load' | 'command' | 'event' | 'tool';

/** Where each program is typed (before an existing line, so the rest of the file stays as shipped), and what runs it. */
const PLACES: Record<Place, { file: string; find: string; wrap: (code: string) => string }> = {
  load: { file: 'extension/seed-desk.ts', find: 'pi.registerTool(seedDeskTool(pi));', wrap: (code) => `${code} pi.registerTool(seedDeskTool(pi));` },
  // Only `/seeds go` runs it: `/seeds query` still answers through the same edited extension.
  command: { file: 'extension/command.ts', find: 'const command = parseSeedsArgs(args);', wrap: (code) => `if (args === 'go') { ${code} } const command = parseSeedsArgs(args);` },
  event: { file: 'extension/seed-desk.ts', find: 'pi.registerTool(seedDeskTool(pi));', wrap: (code) => `pi.on('session_tree', () => { ${code} }); pi.registerTool(seedDeskTool(pi));` },
  tool: { file: 'extension/tool.ts', find: 'const plan = planSeedDeskCall(params, readDesk(ctx));', wrap: (code) => `${code} const plan = planSeedDeskCall(params, readDesk(ctx));` },
};

/** Where the page names what the code did. */
type Said =
  | { readonly in: 'alert'; readonly text: readonly string[] }
  | { readonly in: 'status line'; readonly text: readonly string[] }
  | { readonly in: 'your version'; readonly text: readonly string[] };

interface Hostile {
  readonly name: string;
  readonly place: Place;
  readonly code: string;
  readonly said: Said;
  /** What runs afterwards: the watchdog or a failed load leave the shipped extension running. */
  readonly after: 'edited' | 'shipped';
  /** Lines the host adds, each by a text it holds: the flood's first 100, a tool call's record. */
  readonly added?: readonly string[];
}

const stopped = (what: string): Said => ({ in: 'alert', text: ['did not finish', what, 'The shipped extension runs again'] });
const hostSaid = (...text: string[]): Said => ({ in: 'status line', text: ['Page host:', ...text] });
const NETWORK = "the page's host does not let extension code reach the network.";

const HOSTILE: readonly Hostile[] = [
  { name: 'an endless loop at load', place: 'load', code: 'while (true) {}', said: stopped('loading (its factory and session_start)'), after: 'shipped' },
  { name: 'an endless loop in a command handler', place: 'command', code: 'while (true) {}', said: stopped('the line "/seeds go"'), after: 'shipped' },
  { name: 'an endless loop in a session_tree handler', place: 'event', code: 'while (true) {}', said: stopped('the request "navigate"'), after: 'shipped' },
  { name: "an endless loop in the tool's execute", place: 'tool', code: 'while (true) {}', said: stopped('the seed_desk tool call'), after: 'shipped' },
  { name: 'a promise that never settles', place: 'command', code: 'await new Promise(() => {});', said: hostSaid('Your /seeds handler returned a promise that did not settle within'), after: 'edited' },
  { name: 'a throw at load', place: 'load', code: "throw new Error('bug at load');", said: { in: 'your version', text: ['could not be loaded', 'bug at load'] }, after: 'shipped' },
  { name: 'a throw in a command handler', place: 'command', code: "throw new Error('bug in command');", said: hostSaid('Your /seeds handler threw: bug in command'), after: 'edited' },
  { name: 'a throw in a session_tree handler', place: 'event', code: "throw new Error('bug in event');", said: hostSaid('Your session_tree handler threw: bug in event'), after: 'edited' },
  {
    name: "a throw in the tool's execute",
    place: 'tool',
    code: "throw new Error('bug in tool');",
    said: hostSaid("Your seed_desk tool's execute threw: bug in tool"),
    after: 'edited',
    // The host records the call and its error result, as the real host does with a tool that throws.
    added: ['"toolCall"', '"isError":true'],
  },
  {
    name: '100,000 appendEntry calls in one handler',
    place: 'command',
    code: "for (let i = 0; i < 100000; i++) pi.appendEntry('flood', { i });",
    said: hostSaid('appendEntry more than 100 times in one run', 'kept the first 100'),
    after: 'edited',
    added: Array.from({ length: 100 }, () => '"customType":"flood"'),
  },
  { name: 'a 10 MB notify', place: 'command', code: "ctx.ui.notify('x'.repeat(10485760));", said: hostSaid("Your extension's notify was 10,485,760 characters long; the page shows the first 500,000"), after: 'edited' },
  { name: 'fetch', place: 'command', code: "await fetch('/');", said: hostSaid(`Your extension called fetch(); ${NETWORK}`), after: 'edited' },
  { name: 'XMLHttpRequest', place: 'command', code: 'new XMLHttpRequest();', said: hostSaid(`Your extension called new XMLHttpRequest(); ${NETWORK}`), after: 'edited' },
  { name: 'WebSocket', place: 'command', code: "new WebSocket('ws://127.0.0.1:9');", said: hostSaid(`Your extension called new WebSocket(); ${NETWORK}`), after: 'edited' },
  { name: 'importScripts', place: 'command', code: "importScripts('/x.js');", said: hostSaid('Your extension called importScripts();'), after: 'edited' },
  { name: 'indexedDB.open', place: 'command', code: "indexedDB.open('seed-desk');", said: hostSaid("Your extension called indexedDB.open(); the journal's database belongs to the page's host"), after: 'edited' },
  { name: 'navigator.locks', place: 'command', code: "await navigator.locks.request('seed-desk', () => 1);", said: hostSaid('Your extension called navigator.locks.request();'), after: 'edited' },
  { name: 'postMessage to the page', place: 'command', code: "postMessage({ kind: 'notice', text: 'forged' });", said: hostSaid("Your extension called postMessage(); only the page's host speaks to the page"), after: 'edited' },
  { name: 'close()', place: 'command', code: 'close();', said: hostSaid('Your extension called close();'), after: 'edited' },
];

/** The first compile fetches and starts esbuild-wasm in the worker: seconds on a loaded machine. */
const COMPILE_MS = 90_000;

const codePanel = (page: Page) => page.getByRole('tabpanel', { name: 'Code', exact: true });
const statusLine = (page: Page) => page.getByRole('status', { name: 'Status line' });
const deskTable = (page: Page) => page.getByRole('table', { name: 'Seed desk' });

/** The journal as the Journal tab shows it: every line of the host file, once the panel has caught up. */
async function journalLines(page: Page): Promise<string[]> {
  await openTool(page, 'Journal');
  await expect(page.getByRole('region', { name: 'Journal', exact: true })).toHaveAttribute('aria-busy', 'false');
  return page.getByRole('list', { name: 'Journal lines' }).getByRole('listitem').allInnerTexts();
}

async function trigger(page: Page, place: Place): Promise<void> {
  if (place === 'command') await run(page, '/seeds go');
  else if (place === 'event') await branchFromItem(page, 'marigold-french +1');
  else if (place === 'tool') await callTool(page, { op: 'query' });
}

function said(page: Page, where: Said['in']) {
  if (where === 'alert') return page.getByRole('alert').filter({ hasText: 'did not finish' });
  if (where === 'status line') return statusLine(page);
  return codePanel(page).getByRole('status', { name: 'Your version' });
}

// One page for all nineteen, in order: the journal grows from program to program, and each test
// compares with what it found when it started. A page per program spent most of its 30–40 s on a
// loaded machine opening the page and starting the compiler (esbuild-wasm) again; here the
// compiler starts again only after a hang replaced the worker. Serial: a failure stops the rest
// (they are reported as not run, which the summary counts as failed).
test.describe.configure({ mode: 'serial', timeout: 240_000 });

let page: Page;

test.beforeAll(async ({ browser }) => {
  page = await browser.newPage({ viewport: { width: 1440, height: 900 } });
  await openPlayground(page);
  // A journal worth keeping: a message, a reservation, and a message after it (the leaf).
  await run(page, 'a message');
  await confirmReservation(page, '/seeds reserve marigold-french 1');
  await run(page, 'another message');
  await expect(output(page).getByRole('listitem').last()).toContainText('Added your message');
});

test.afterAll(async () => {
  await page.close();
});

/** The editor open on the shipped files: the previous program's edit discarded. */
async function freshEditor(page: Page): Promise<void> {
  await openTool(page, 'Code');
  const edit = codePanel(page).getByRole('button', { name: 'Edit', exact: true });
  const discard = codePanel(page).getByRole('button', { name: 'Discard my edits' });
  // The tab's code and the source load when it first opens: wait for either button before asking
  // which one is there (asking at once found neither on a loaded machine, and skipped the Edit).
  await expect(edit.or(discard)).toBeVisible({ timeout: COMPILE_MS });
  if (await edit.isVisible()) await edit.click();
  await expect(discard).toBeVisible();
  if (await discard.isEnabled()) {
    await discard.click();
    await expect(codePanel(page).getByRole('status', { name: 'Your version' })).toContainText('Your edits are discarded');
  }
}

for (const hostile of HOSTILE) {
  test(`@hostile ${hostile.name} (${hostile.place}): named, the page answers, the journal is intact`, async () => {
    const desk = (await deskTable(page).textContent()) ?? '';
    const lines = await journalLines(page);

    await freshEditor(page);
    const place = PLACES[hostile.place];
    await replaceInEditor(page, { file: place.file, find: place.find, replace: place.wrap(hostile.code) });
    await codePanel(page).getByRole('button', { name: 'Run my version' }).click();
    if (hostile.place !== 'load') {
      await expect(codePanel(page).getByRole('status', { name: 'Your version' })).toContainText('Your edited extension runs now', { timeout: COMPILE_MS });
      await trigger(page, hostile.place);
    }

    // Named: what the code did, where the page says such things.
    const message = said(page, hostile.said.in);
    for (const text of hostile.said.text) await expect(message).toContainText(text, { timeout: hostile.place === 'load' ? COMPILE_MS : undefined });

    // Responsive: a query answers (through the edited extension when it still runs).
    await run(page, '/seeds query');
    await expect(output(page).getByRole('listitem').last()).toContainText('revision:');
    if (hostile.after === 'edited') await expect(output(page).getByRole('listitem').last()).toContainText('your edited extension');

    // Intact: back on the shipped extension, the same desk and the same journal.
    await openTool(page, 'Code');
    if (hostile.after === 'edited') await codePanel(page).getByRole('button', { name: 'Back to the shipped extension' }).click();
    await expect(codePanel(page)).toContainText('Running: the shipped extension');
    await expect(statusLine(page)).not.toContainText('Page host');
    await expect(deskTable(page)).toHaveText(desk);
    const after = await journalLines(page);
    const added = hostile.added ?? [];
    expect(after.slice(0, lines.length)).toEqual(lines);
    expect(after).toHaveLength(lines.length + added.length);
    for (const [index, text] of added.entries()) expect(after[lines.length + index]).toContain(text);
    // The watchdog's alert belongs to this program: dismissed, so the next one's is its own.
    const stopped = page.getByRole('alert').filter({ hasText: 'did not finish' });
    if (await stopped.isVisible()) await stopped.getByRole('button', { name: 'Dismiss' }).click();
    await expect(stopped).toHaveCount(0);
  });
}
