/**
 * The learner's edits to the extension: the editor's texts (only files that differ from the
 * shipped ones), and the requests that compile and run them, restore them after a reload, go back
 * to the shipped extension, or download them, each ending in what the Code tab's status says.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { CompileProblem } from '../protocol/messages';
import { Desk } from './desk.svelte';
import { ExtensionEdits, where } from './extensionEdits.svelte';
import { FactLog } from './facts.svelte';
import { changed, FakeConnection, hostView } from './fakeConnection.testkit';
import { stubStorage } from './pageGlobals.testkit';
import { viewOf } from './viewOf.testkit.svelte';
import { SILENCE_MS } from './watchdog';

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

function setup(options: { restartable?: boolean } = {}) {
  stubStorage('sessionStorage');
  const fake = new FakeConnection(options);
  const desk = new Desk(fake.connection, new FactLog());
  const edits = new ExtensionEdits(fake.connection, desk);
  return { fake, desk, edits };
}

const COMMAND = 'extension/command.ts';
const SHIPPED = 'export const limit = 10;\n';
const EDITED = 'export const limit = 3;\n';
const problem: CompileProblem = { file: COMMAND, line: 59, column: 38, text: 'Expected ";" but found "limit"' };

describe('ExtensionEdits: the editor\'s texts', () => {
  it('keeps a file only while it differs from the shipped text', () => {
    const { edits } = setup();
    edits.setDraft(COMMAND, SHIPPED, SHIPPED);
    expect(edits.edited).toBe(false);
    edits.setDraft(COMMAND, EDITED, SHIPPED);
    expect(edits.drafts).toEqual({ [COMMAND]: EDITED });
    expect(edits.edited).toBe(true);
    edits.setDraft(COMMAND, SHIPPED, SHIPPED);
    expect(edits.drafts).toEqual({});
    expect(edits.edited).toBe(false);
    // Typing is the editor's own change: it is not told to reload its texts.
    expect(edits.generation).toBe(0);
  });

  it('texts replaced from outside (a lesson\'s prepared edit) are new texts for the editor', () => {
    const { edits } = setup();
    const generation = viewOf(() => edits.generation);
    edits.useDrafts({ [COMMAND]: EDITED });
    expect(edits.drafts).toEqual({ [COMMAND]: EDITED });
    expect(generation.now()).toBe(1);
    generation.stop();
  });

  it('discarding puts every file back to the shipped text and says so', () => {
    const { edits } = setup();
    edits.useDrafts({ [COMMAND]: EDITED });
    edits.problems = [problem];
    edits.discard();
    expect(edits.drafts).toEqual({});
    expect(edits.problems).toEqual([]);
    expect(edits.generation).toBe(2);
    expect(edits.message).toBe('Your edits are discarded: the editor shows the shipped files. Run as they are, they change nothing: a mend is a change you make to your version.');
    // What the drafts were changed from goes with the next "Run my version" (issue 36).
    expect(edits.from).toBe('shipped');
  });

  it('which extension runs is what the last view said', async () => {
    const { fake, edits } = setup();
    expect(edits.running).toBe('shipped');
    await fake.open(hostView({ extension: 'edited' }));
    expect(edits.running).toBe('edited');
  });
});

describe('ExtensionEdits: the stored edits', () => {
  it('are asked for once, and become the editor\'s texts', async () => {
    const { fake, edits } = setup();
    fake.answerWith('storedEdits', { result: { files: { [COMMAND]: EDITED }, active: true } });
    await Promise.all([edits.loadStored(), edits.loadStored()]);
    await edits.loadStored();
    expect(fake.sent()).toEqual([{ type: 'storedEdits' }]);
    expect(edits.drafts).toEqual({ [COMMAND]: EDITED });
    expect(edits.generation).toBe(1);
  });

  it('never replace what the learner typed meanwhile', async () => {
    const { fake, edits } = setup();
    fake.hold('storedEdits');
    const loading = edits.loadStored();
    edits.setDraft(COMMAND, 'typed first\n', SHIPPED);
    fake.worker.answer('storedEdits', { result: { files: { [COMMAND]: EDITED }, active: false } });
    await loading;
    expect(edits.drafts).toEqual({ [COMMAND]: 'typed first\n' });
  });

  it('none stored, or none readable: the editor keeps the shipped files', async () => {
    const { fake, edits } = setup();
    fake.answerWith('storedEdits', { error: 'The store is closed.' });
    await expect(edits.loadStored()).resolves.toBeUndefined();
    expect(edits.drafts).toEqual({});
    expect(edits.generation).toBe(0);
  });
});

describe('ExtensionEdits: Run my version', () => {
  it('sends the drafts to be compiled, says so while it compiles, and says it runs once it does', async () => {
    const { fake, edits } = setup();
    edits.useDrafts({ [COMMAND]: EDITED });
    fake.connection.restarted = 'An earlier edited version held the worker.';
    fake.hold('runEdited');
    const busy = viewOf(() => edits.busy);
    const status = viewOf(() => edits.message);
    const running = edits.run();
    expect(busy.now()).toBe('run');
    expect(status.now()).toBe('Compiling your version…');
    expect(await fake.worker.whenHeld('runEdited')).toEqual({ type: 'runEdited', files: { [COMMAND]: EDITED }, from: 'shipped' });

    fake.worker.answer('runEdited', { result: { kind: 'running', extension: 'edited', compileMs: 420 }, changes: changed(hostView({ extension: 'edited' })) });
    await running;
    expect(busy.now()).toBeNull();
    expect(status.now()).toBe('Your edited extension runs now (compiled in the worker in 420 ms).');
    expect(edits.problems).toEqual([]);
    // The alert about the earlier hang is over.
    expect(fake.connection.restarted).toBeNull();
    expect(edits.running).toBe('edited');
    // The drafts are now that version's text: the next run is a change to it.
    expect(edits.from).toBe('last-run');
    busy.stop();
    status.stop();
  });

  it('says what an unchanged text is: the shipped files run as they are, or the learner\'s change back to them', async () => {
    const { fake, edits } = setup();
    fake.answerWith('runEdited', { result: { kind: 'running', extension: 'edited', compileMs: null }, changes: changed(hostView({ extension: 'edited', editedVersion: { text: 'as-shipped', editedFrom: 'shipped' } })) });
    await edits.run();
    expect(edits.message).toBe('Your version runs now, but its text is the shipped files unchanged: it breaks and mends nothing.');
    fake.answerWith('runEdited', { result: { kind: 'running', extension: 'edited', compileMs: null }, changes: changed(hostView({ extension: 'edited', editedVersion: { text: 'as-shipped', editedFrom: 'an-edit' } })) });
    await edits.run();
    expect(edits.message).toBe('Your version runs now: your change made its text the same as the shipped files.');
  });

  it('a version compiled before says only that it runs', async () => {
    const { fake, edits } = setup();
    fake.answerWith('runEdited', { result: { kind: 'running', extension: 'edited', compileMs: null } });
    await edits.run();
    expect(edits.message).toBe('Your edited extension runs now.');
  });

  it('a version that does not compile changes nothing: the problems are listed, and what ran keeps running', async () => {
    const { fake, edits } = setup();
    await fake.open(hostView({ extension: 'edited' }));
    fake.answerWith('runEdited', { result: { kind: 'rejected', problems: [problem, { ...problem, line: 60 }] } });
    await edits.run();
    expect(edits.problems).toHaveLength(2);
    expect(edits.message).toBe('Not run: 2 problems. The edited extension that was running keeps running.');
    expect(edits.busy).toBeNull();

    fake.answerWith('runEdited', { result: { kind: 'rejected', problems: [problem] } });
    fake.worker.push(changed(hostView({ extension: 'shipped' })), 'foreign');
    await edits.run();
    expect(edits.message).toBe('Not run: 1 problem. The shipped extension that was running keeps running.');
  });

  it('a worker failure is said, and the button is free again', async () => {
    const { fake, edits } = setup();
    fake.answerWith('runEdited', { error: 'The compiler could not be loaded.' });
    await edits.run();
    expect(edits.message).toBe('Not run: The compiler could not be loaded.');
    expect(edits.busy).toBeNull();
  });

  it('a version that holds the worker is stopped: the status says the shipped extension runs, and the button is free', async () => {
    vi.useFakeTimers();
    const { fake, edits } = setup({ restartable: true });
    await fake.open(hostView());
    fake.hold('runEdited').hold('hello');
    const running = edits.run();
    const hung = fake.worker;
    hung.responsive = false;
    hung.progress('runEdited', 'load', 0, 1);
    await vi.advanceTimersByTimeAsync(SILENCE_MS);
    await running;
    expect(hung.terminated).toBe(true);
    expect(edits.message).toBe('Not run: The worker was stopped.');
    expect(edits.busy).toBeNull();

    // The new worker has opened the journal with the shipped extension.
    fake.worker.answer('hello', { result: null, changes: changed(hostView({ extension: 'shipped' })) });
    await vi.advanceTimersByTimeAsync(0);
    expect(edits.message).toBe('Your edited extension was stopped (see the alert above): the shipped extension runs. Mend your code and run it again.');
    expect(edits.running).toBe('shipped');
  });
});

describe('ExtensionEdits: after a reload, back to shipped, download', () => {
  it('restores the version that ran before the reload; one that no longer compiles is said, with its problems', async () => {
    const { fake, edits } = setup();
    fake.answerWith('restoreEdited', { result: { kind: 'running', extension: 'edited', compileMs: 300 } });
    await edits.restore();
    expect(fake.sent()).toEqual([{ type: 'restoreEdited' }]);
    expect(edits.message).toBeNull();

    fake.answerWith('restoreEdited', { result: { kind: 'rejected', problems: [problem] } });
    await edits.restore();
    expect(edits.problems).toEqual([problem]);
    expect(edits.message).toBe('Your stored edited extension could not run again; the shipped extension runs.');
  });

  it('goes back to the shipped extension and keeps the edits', async () => {
    const { fake, edits } = setup();
    edits.useDrafts({ [COMMAND]: EDITED });
    fake.hold('useShipped');
    const back = edits.backToShipped();
    expect(edits.busy).toBe('shipped');
    fake.worker.answer('useShipped', { result: null, changes: changed(hostView({ extension: 'shipped' })) });
    await back;
    expect(edits.busy).toBeNull();
    expect(edits.message).toBe('The shipped extension runs again. Your edits stay in the editor.');
    expect(edits.drafts).toEqual({ [COMMAND]: EDITED });
  });

  it('a failed switch back says the edited extension still runs', async () => {
    const { fake, edits } = setup();
    fake.answerWith('useShipped', { error: 'The store is closed.' });
    await edits.backToShipped();
    expect(edits.message).toBe('Still your edited extension: The store is closed.');
    expect(edits.busy).toBeNull();
  });

  it('downloads the drafts bundled as one module, and says how big it is', async () => {
    const { fake, edits } = setup();
    edits.useDrafts({ [COMMAND]: EDITED });
    const bundle = { kind: 'bundle', fileName: 'seed-desk.js', code: 'x'.repeat(2048) } as const;
    fake.answerWith('downloadEdited', { result: bundle });
    await expect(edits.download()).resolves.toEqual(bundle);
    expect(fake.sent()).toEqual([{ type: 'downloadEdited', files: { [COMMAND]: EDITED } }]);
    expect(edits.message).toBe('Downloaded seed-desk.js (2.0 KiB): install it as seed-desk.js is installed.');
    expect(edits.busy).toBeNull();
  });

  it('downloads nothing that does not compile, or when the worker fails', async () => {
    const { fake, edits } = setup();
    fake.answerWith('downloadEdited', { result: { kind: 'rejected', problems: [problem] } });
    await expect(edits.download()).resolves.toBeNull();
    expect(edits.problems).toEqual([problem]);
    expect(edits.message).toBe('Not downloaded: 1 problem.');

    fake.answerWith('downloadEdited', { error: 'The bundler could not be loaded.' });
    await expect(edits.download()).resolves.toBeNull();
    expect(edits.message).toBe('Not downloaded: The bundler could not be loaded.');
    expect(edits.busy).toBeNull();
  });
});

describe('where', () => {
  it('says where a problem is as editors do: file:line:column, the file alone, or nothing', () => {
    expect(where(problem)).toBe('extension/command.ts:59:38');
    expect(where({ ...problem, line: 0, column: 0 })).toBe('extension/command.ts');
    expect(where({ ...problem, file: null })).toBe('');
  });
});
