/**
 * Sessions as the host has them: the watched list, and new, switch, fork, export, import (with its
 * progress), a shared scenario opened, reopen, and the storage fault switch.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ImportReport } from '../protocol/messages';
import { CommandLine } from './commandLine.svelte';
import { Desk } from './desk.svelte';
import { FactLog } from './facts.svelte';
import { changed, FakeConnection, hostView, sessionSummary } from './fakeConnection.testkit';
import { stubStorage } from './pageGlobals.testkit';
import { Sessions } from './sessions.svelte';
import { viewOf } from './viewOf.testkit.svelte';

afterEach(() => {
  vi.unstubAllGlobals();
});

function setup() {
  stubStorage('sessionStorage');
  const fake = new FakeConnection();
  const facts = new FactLog();
  const desk = new Desk(fake.connection, facts);
  const command = new CommandLine(fake.connection, facts);
  const sessions = new Sessions(fake.connection, desk, facts, command);
  return { fake, facts, desk, command, sessions };
}

const imported: ImportReport = { ok: true, sessionId: 'session-9', entries: 12, migratedFrom: null, hadTitleSlot: true, skipped: [], skippedCount: 0, warnings: [], warningCount: 0 };

describe('Sessions: the list', () => {
  it('shows the sessions the worker lists, and follows the list as it changes', async () => {
    const { fake, sessions } = setup();
    const shown = viewOf(() => sessions.list.map((session) => `${session.id}${session.current ? '*' : ''}`));
    await fake.open(hostView(), [{ topic: 'sessions', sessions: [sessionSummary('session-1', { current: true })] }]);
    fake.worker.push(changed(null, { topic: 'sessions', sessions: [sessionSummary('session-1', { current: true }), sessionSummary('session-2')] }), 'sessions');
    expect(shown.now()).toEqual(['session-1*', 'session-2']);
    expect(shown.shown).toEqual([[], ['session-1*'], ['session-1*', 'session-2']]);
    shown.stop();
  });
});

describe('Sessions: new, switch, fork, export', () => {
  it('a new session is OMP\'s /new, or a fresh host start when asked; each is a fact once the worker has made it', async () => {
    const { fake, sessions, facts } = setup();
    await sessions.newSession();
    await sessions.newSession(true);
    expect(fake.sent()).toEqual([{ type: 'newSession' }, { type: 'newSession', fresh: true }]);
    expect(facts.facts.map((fact) => fact.kind)).toEqual(['new-session', 'new-session']);
  });

  it('a new session the worker could not make is no fact', async () => {
    const { fake, sessions, facts } = setup();
    fake.answerWith('newSession', { error: 'The storage is full.' });
    await expect(sessions.newSession()).rejects.toThrow('The storage is full.');
    expect(facts.facts).toEqual([]);
    expect(fake.connection.error).toBe('The storage is full.');
  });

  it('switches to the session named', async () => {
    const { fake, sessions } = setup();
    await sessions.switchTo('session-2');
    expect(fake.sent()).toEqual([{ type: 'switchSession', sessionId: 'session-2' }]);
  });

  it('forks at the leaf, or at the entry named; each is a fact', async () => {
    const { fake, sessions, facts } = setup();
    await sessions.fork();
    await sessions.fork('entry-4');
    expect(fake.sent()).toEqual([{ type: 'forkSession' }, { type: 'forkSession', entryId: 'entry-4' }]);
    expect(facts.facts.map((fact) => fact.kind)).toEqual(['forked', 'forked']);
  });

  it('exports the session as the worker wrote it', async () => {
    const { fake, sessions } = setup();
    fake.answerWith('exportSession', { result: { fileName: 'seed-desk-session-1.jsonl', jsonl: '{"type":"session"}\n' } });
    await expect(sessions.exportSession()).resolves.toEqual({ fileName: 'seed-desk-session-1.jsonl', jsonl: '{"type":"session"}\n' });
  });
});

describe('Sessions: import', () => {
  it('shows the import\'s progress while it runs, then its report', async () => {
    const { fake, sessions } = setup();
    fake.hold('importSession');
    const file = new Blob(['{"type":"session"}\n{"type":"message"}\n']);
    const importing = sessions.importSession(file);
    const shown = viewOf(() => sessions.importProgress);
    expect(shown.now()).toEqual({ phase: 'reading', done: 0, total: file.size });
    expect((await fake.worker.whenHeld('importSession')).file.size).toBe(file.size);

    fake.worker.progress('importSession', 'parse', 1, 2);
    expect(shown.now()).toEqual({ phase: 'parse', done: 1, total: 2 });
    fake.worker.answer('importSession', { result: imported });

    await expect(importing).resolves.toEqual(imported);
    expect(sessions.importReport).toEqual(imported);
    expect(shown.now()).toBeNull();
    shown.stop();
  });

  it('a failed import leaves no progress and no report of the one before', async () => {
    const { fake, sessions } = setup();
    fake.answerWith('importSession', { result: imported });
    await sessions.importSession(new Blob(['x']));
    fake.answerWith('importSession', { error: 'The file is not JSONL.' });
    await expect(sessions.importSession(new Blob(['y']))).rejects.toThrow('The file is not JSONL.');
    expect(sessions.importProgress).toBeNull();
    expect(sessions.importReport).toBeNull();
  });
});

describe('Sessions: a shared scenario', () => {
  it('is imported as a session of its own', async () => {
    const { fake, sessions } = setup();
    fake.answerWith('importSession', { result: imported });
    await expect(sessions.openShared('{"type":"session"}\n')).resolves.toEqual({ report: imported, opened: true });
    expect(fake.sentTypes()).toEqual(['importSession']);
    const file = fake.sentOf('importSession')[0]?.file;
    expect(await file?.text()).toBe('{"type":"session"}\n');
  });

  it('one this browser already holds is switched to', async () => {
    const { fake, sessions } = setup();
    const held: ImportReport = { ok: false, line: 1, message: 'This session is already here.', existingSessionId: 'session-3' };
    fake.answerWith('importSession', { result: held });
    await expect(sessions.openShared('{}')).resolves.toEqual({ report: held, opened: true });
    expect(fake.sent().at(-1)).toEqual({ type: 'switchSession', sessionId: 'session-3' });
  });

  it('one that cannot be read is not opened, and nothing is switched', async () => {
    const { fake, sessions } = setup();
    const bad: ImportReport = { ok: false, line: 2, message: 'Line 2 is not JSON.' };
    fake.answerWith('importSession', { result: bad });
    await expect(sessions.openShared('{}\nnot json')).resolves.toEqual({ report: bad, opened: false });
    expect(fake.sentTypes()).toEqual(['importSession']);
  });
});

describe('Sessions: reopen and storage faults', () => {
  it('reopen is a fact saying where the leaf was, where it is now, and why it had been off the last entry', async () => {
    const { fake, sessions, facts } = setup();
    const behind = { navigated: true, foreignEntryId: null };
    await fake.open(hostView({ leafId: 'entry-2', transientLeaf: true, leafBehind: behind }));
    fake.answerWith('reopen', { result: null, changes: changed(hostView({ leafId: 'entry-5' })) });
    await sessions.reopen();
    expect(fake.sent().at(-1)).toEqual({ type: 'reopen' });
    expect(facts.facts).toEqual([{ kind: 'reopened', from: 'entry-2', to: 'entry-5', behind, seq: 1, extension: 'shipped' }]);
  });

  it.each([
    ['abort', 'aborted'],
    ['quota', 'quota exceeded'],
    ['close', 'the database closed underneath it'],
  ] as const)('failing the next write (%s) is sent to the worker and said in the command output', async (fault, how) => {
    const { fake, sessions, command } = setup();
    await sessions.failNextWrite(fault);
    expect(fake.sent()).toEqual([{ type: 'injectFault', fault }]);
    expect(command.output.map((line) => [line.kind, line.text])).toEqual([['info', `The next storage transaction will fail (${how}).`]]);
  });
});
