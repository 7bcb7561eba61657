/**
 * web/CONTEXT.md follows two actions, Enter → answer and Confirm → desk, file by file: the line of
 * files that hand the action on (at most 12, the views at its ends included), and the files the
 * line calls beside it. This test holds those lists to what runs: both actions run in Node, the
 * real worker module (on fake-indexeddb) behind the page's real features, and V8's call counts
 * say which files ran code while each action ran. A listed module that no longer runs, a module
 * that runs and is not listed, a missing file or a line over 12 files fails.
 *
 * The views at the line's ends are Svelte components, not run here: for them the test checks that
 * the file exists and still makes the call the list names. And the line between them must be a
 * chain: each module and the next are joined by an import (either way: a host service is called
 * through the type its caller declares), except where the action crosses between the page and its
 * worker by message.
 * A file moved off the line to shorten it breaks the chain.
 */
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { Playground } from '../app/playground.svelte';
import { importsOf } from './imports.testkit';
import { inProcessWorker } from './inProcessWorker.testkit';
import { filesRunBy } from './tracePath.testkit';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');
const WEB = `${ROOT}/web`;
const MAX_LINE = 12;

interface ListedPath {
  readonly line: readonly string[];
  readonly beside: readonly string[];
}

/** One `### <title>` section of web/CONTEXT.md: its numbered items' first paths, and the paths after "Beside it:". */
function listed(title: string): ListedPath {
  const text = readFileSync(`${WEB}/CONTEXT.md`, 'utf8');
  const start = text.indexOf(`### ${title}\n`);
  if (start === -1) throw new Error(`web/CONTEXT.md has no section "### ${title}"`);
  const end = text.slice(start + 4).search(/\n#{2,3} /);
  const section = end === -1 ? text.slice(start) : text.slice(start, start + 4 + end);
  const line = [...section.matchAll(/^\d+\. `([^`]+)`/gm)].map((match) => `web/${match[1]}`);
  const besideText = section.slice(section.indexOf('Beside it:'));
  const beside = [...besideText.matchAll(/`(src\/[^`]+)`/g)].map((match) => `web/${match[1]}`);
  return { line, beside };
}

/** Files of the page's own code (no tests, no testkits) that ran code. */
const ownFiles = (files: readonly string[]) => files.filter((file) => file.startsWith('web/src/') && !/\.test\.|\.testkit\./.test(file));

let traced: { enter: string[]; confirm: string[] };

beforeAll(async () => {
  const worker = await inProcessWorker();
  const playground = new Playground(() => worker);
  await playground.start();
  // Warm up: every module both actions use is loaded (the dialog machine's chunk too), so the
  // counts below see the actions' own calls, not module loading.
  await playground.command.runLine('/seeds query');
  await playground.command.runLine('/seeds reserve basil-genovese 1');
  await playground.command.confirm();
  // What an answer leaves for right after it (the graph) is in the worker's queue before any
  // later request: once one more request is answered, it has arrived.
  const settle = () => playground.connection.call({ type: 'setInteractive', interactive: true });
  await settle();
  const enter = await filesRunBy(() => playground.command.runLine('/seeds query'), ROOT);
  expect(playground.command.output.at(-1)?.text).toMatch(/^basil-genovese: 7 available, 1 reserved/);
  await playground.command.runLine('/seeds reserve basil-genovese 1');
  await settle();
  const confirm = await filesRunBy(() => playground.command.confirm(), ROOT);
  expect(playground.view?.rows.find((row) => row.id === 'basil-genovese')?.reserved).toBe(2);
  traced = { enter: ownFiles(enter), confirm: ownFiles(confirm) };
}, 60_000);

describe.each([
  { title: 'Enter → answer', key: 'enter', calls: { 'web/src/views/CommandLine.svelte': 'onrun(', 'web/src/views/workspace/DeskRegion.svelte': 'playground.command.runLine' } },
  { title: 'Confirm → desk', key: 'confirm', calls: { 'web/src/views/requests/ConfirmRequest.svelte': 'playground.command.confirm()', 'web/src/views/workspace/DeskRegion.svelte': '<DeskTable {view}' } },
] as const)('$title, as web/CONTEXT.md lists it', ({ title, key, calls }) => {
  const { line, beside } = listed(title);

  it(`is a line of at most ${MAX_LINE} files, each of them there`, () => {
    expect(line.length).toBeGreaterThan(3);
    expect(line.length).toBeLessThanOrEqual(MAX_LINE);
    for (const file of [...line, ...beside]) expect(existsSync(`${ROOT}/${file}`), file).toBe(true);
  });

  it('runs code in every module of the line, in none it does not list, and in every module listed beside it', () => {
    const ran = traced[key];
    const modules = line.filter((file) => !file.endsWith('.svelte'));
    for (const file of modules) expect(ran, `${file} is on the line but ran no code`).toContain(file);
    for (const file of beside) expect(ran, `${file} is listed beside the line but ran no code`).toContain(file);
    const unlisted = ran.filter((file) => !line.includes(file) && !beside.includes(file));
    expect(unlisted, 'files that ran but web/CONTEXT.md does not list').toEqual([]);
  });

  it('is a chain: each file and the next are joined by an import, or by the page–worker messages', () => {
    const side = (file: string) => (file.startsWith('web/src/worker/') ? 'worker' : 'page');
    const broken: string[] = [];
    for (const [index, file] of line.entries()) {
      const next = line[index + 1];
      if (next === undefined) continue;
      const joined = importsOf(ROOT, file).includes(next) || importsOf(ROOT, next).includes(file);
      // messages.ts is the protocol both sides parse with: the request crosses from it to the worker, the answer back from the worker to the page.
      const crossing = side(file) !== side(next) || (file.endsWith('protocol/messages.ts') && side(next) === 'worker');
      // A view at either end reaches the line through props and the page's state: the test below checks its call.
      const atAView = file.endsWith('.svelte') || next.endsWith('.svelte');
      if (!joined && !crossing && !atAView) broken.push(`${file} → ${next}`);
    }
    expect(broken).toEqual([]);
  });

  it('starts and ends at the views that make and show it', () => {
    for (const [file, call] of Object.entries(calls)) expect(readFileSync(`${ROOT}/${file}`, 'utf8'), `${file} no longer has ${call}`).toContain(call);
    expect(line[0]?.endsWith('.svelte')).toBe(true);
  });
});
