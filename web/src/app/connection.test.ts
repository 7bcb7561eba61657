/**
 * The page's one line to its worker: requests and their answers, what changed delivered to the
 * features (before the answer settles), failures shown, waits said, and a hung or silent worker
 * replaced by a new one on the same journal. Scripted workers and Vitest's fake timers make every
 * step deterministic.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { changed, FakeConnection, hostView, sessionSummary } from './fakeConnection.testkit';
import { HEARTBEAT_MS, SILENCE_MS } from './watchdog';
import { PROBE_ANSWER_MS, WAIT_NOTICE_MS } from './workerClient';
import { twoTabsUnsupported } from './connection.svelte';

afterEach(() => {
  vi.useRealTimers();
});

describe('Connection: requests and what changed', () => {
  it('sends one request and settles with its result, after every listener has heard what changed', async () => {
    const fake = new FakeConnection();
    const heard: string[] = [];
    fake.connection.onView((view, cause) => heard.push(`view ${view.leafId} (${cause})`));
    fake.connection.onTopic('sessions', (update) => heard.push(`sessions: ${update.sessions.map((session) => session.id).join(', ')}`));
    fake.connection.onPush((cause) => heard.push(`push ${cause}`));
    fake.answerWith('exportSession', {
      result: { fileName: 'session-1.jsonl', jsonl: '{"type":"session"}\n' },
      changes: changed(hostView({ leafId: 'entry-2' }), { topic: 'sessions', sessions: [sessionSummary('session-1')] }),
    });

    const result = await fake.connection.call({ type: 'exportSession' }).then((answer) => {
      heard.push('settled');
      return answer;
    });

    expect(fake.sent()).toEqual([{ type: 'exportSession' }]);
    expect(result).toEqual({ fileName: 'session-1.jsonl', jsonl: '{"type":"session"}\n' });
    // The answer's own changes are not a push.
    expect(heard).toEqual(['view entry-2 (answer)', 'sessions: session-1', 'settled']);
  });

  it('a failed request rejects with the worker\'s words and shows them; what its answer changed still arrives; the next good answer clears it', async () => {
    const fake = new FakeConnection();
    const views: (string | null)[] = [];
    fake.connection.onView((view) => views.push(view.writeFailure));
    fake.answerWith('reopen', { error: 'The next storage transaction failed (aborted).', changes: changed(hostView({ writeFailure: 'aborted' })) });

    await expect(fake.connection.call({ type: 'reopen' })).rejects.toThrow('The next storage transaction failed (aborted).');
    expect(fake.connection.error).toBe('The next storage transaction failed (aborted).');
    expect(views).toEqual(['aborted']);

    await fake.connection.call({ type: 'navigate', target: { by: 'id', id: 'entry-1' } });
    expect(fake.connection.error).toBeNull();
  });

  it('a push reaches the view and topic listeners with its cause, then the push listeners', async () => {
    const fake = new FakeConnection();
    const heard: string[] = [];
    fake.connection.onView((view, cause) => heard.push(`view ${view.entryCount} (${cause})`));
    fake.connection.onTopic('sessions', (update) => heard.push(`sessions ${update.sessions.length}`));
    fake.connection.onPush((cause) => heard.push(`push ${cause}`));

    fake.worker.push(changed(hostView({ entryCount: 7 })), 'foreign');
    fake.worker.push(changed(null, { topic: 'sessions', sessions: [sessionSummary('a'), sessionSummary('b')] }), 'sessions');

    expect(heard).toEqual(['view 7 (foreign)', 'push foreign', 'sessions 2', 'push sessions']);
  });

  it('one listener per topic: registering again replaces the first', async () => {
    const fake = new FakeConnection();
    const heard: string[] = [];
    fake.connection.onTopic('events', () => heard.push('first'));
    fake.connection.onTopic('events', () => heard.push('second'));
    fake.worker.push(changed(null, { topic: 'events', mode: 'append', items: [] }), 'foreign');
    expect(heard).toEqual(['second']);
  });

  it('what the worker says while it cannot answer yet is shown as the error', () => {
    const fake = new FakeConnection();
    fake.worker.notice('Waiting for another tab of the playground to let go of its database…');
    expect(fake.connection.error).toBe('Waiting for another tab of the playground to let go of its database…');
  });
});

describe('Connection: no request waits in silence', () => {
  it('after 10 s unanswered it says what the request waits for, follows the worker\'s answer, and goes quiet once answered', async () => {
    vi.useFakeTimers();
    const fake = new FakeConnection();
    fake.hold('answerUi');
    const answer = fake.connection.call({ type: 'answerUi', answer: { kind: 'confirm', id: 'ui-1', confirmed: true } });

    await vi.advanceTimersByTimeAsync(WAIT_NOTICE_MS - 1);
    expect(fake.connection.waiting).toBeNull();
    await vi.advanceTimersByTimeAsync(1);
    // The probe's answer: the request is running.
    expect(fake.worker.probes).toEqual([1]);
    expect(fake.connection.waiting).toBe('Your Confirm of its dialog is still running in the worker: reload the page if this does not go on; what was saved stays saved.');

    fake.worker.waiting('answerUi', 'lease');
    expect(fake.connection.waiting).toBe('Your Confirm of its dialog is waiting for another tab of the playground to hand over the journal: close or reload that tab if this does not go on.');

    const said = { kind: 'said', text: 'ok', by: 'shipped', deskEntries: { before: 2, after: 2 } } as const;
    fake.worker.answer('answerUi', { result: said });
    await expect(answer).resolves.toEqual(said);
    expect(fake.connection.waiting).toBeNull();
  });
});

describe('Connection: a hung worker is replaced', () => {
  const HUNG_LINE = 'Your edited extension did not finish the line "/seeds query": it held the worker for 1.5 s without a pause, so the page stopped its worker and started a new one.';

  /** A session whose edited extension runs, watching the conversation and the graph, then the journal instead of the conversation. */
  async function editedSession(): Promise<FakeConnection> {
    const fake = new FakeConnection({ restartable: true });
    await fake.open(hostView({ extension: 'edited' }), [], [{ topic: 'conversation' }, { topic: 'graph', filter: 'all' }]);
    await fake.connection.call({ type: 'watch', watch: { topic: 'journal', filter: 'seed' } });
    await fake.connection.call({ type: 'unwatch', topic: 'conversation' });
    return fake;
  }

  it('while the edited extension runs, a worker silent for 1.5 s is stopped; a new one opens the journal with everything watched, runs the shipped extension, and says so', async () => {
    vi.useFakeTimers();
    const fake = await editedSession();
    const told: (string | null)[] = [];
    fake.connection.onRestart(() => told.push(fake.connection.restarted));
    const hung = fake.worker;
    fake.hold('line');
    const line = fake.connection.call({ type: 'line', text: '/seeds query' });
    const failed = expect(line).rejects.toThrow('The worker was stopped.');
    // The learner's code holds the worker in a loop: not even a heartbeat is answered.
    hung.responsive = false;

    await vi.advanceTimersByTimeAsync(SILENCE_MS - HEARTBEAT_MS);
    expect(fake.workers).toHaveLength(1);
    fake.hold('hello');
    await vi.advanceTimersByTimeAsync(HEARTBEAT_MS);

    await failed;
    expect(hung.terminated).toBe(true);
    expect(fake.workers).toHaveLength(2);
    expect(fake.connection.restarted).toBe(`${HUNG_LINE} It is opening your journal with the shipped extension…`);
    // Everything the page watches now, at once: the conversation was unwatched, the journal watched.
    expect(await fake.worker.whenHeld('hello')).toEqual({ type: 'hello', watch: [{ topic: 'graph', filter: 'all' }, { topic: 'journal', filter: 'seed' }] });

    fake.worker.answer('hello', { result: null, changes: changed(hostView({ extension: 'shipped' })) });
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.connection.restarted).toBe(`${HUNG_LINE} The shipped extension runs again on your journal as it was stored; your edits are still in the editor.`);
    expect(told).toEqual([fake.connection.restarted]);
    expect(fake.connection.error).toBeNull();
    // The stored edited version is no longer run on reload.
    expect(fake.worker.sent().map((body) => body.type)).toEqual(['hello', 'useShipped']);
  });

  it('a worker that keeps answering heartbeats is not taken for hung, however long the request takes', async () => {
    vi.useFakeTimers();
    const fake = await editedSession();
    fake.hold('line');
    const line = fake.connection.call({ type: 'line', text: '/seeds query' });
    await vi.advanceTimersByTimeAsync(4 * SILENCE_MS);
    expect(fake.worker.probes.filter((probe) => probe === 0).length).toBeGreaterThan(3);
    const done = { kind: 'said', text: 'done', by: 'edited', deskEntries: { before: 0, after: 0 } } as const;
    fake.worker.answer('line', { result: done });
    await expect(line).resolves.toEqual(done);
    expect(fake.workers).toHaveLength(1);
    expect(fake.connection.restarted).toBeNull();
  });

  it('the shipped extension is not timed: a silent worker is left alone until it misses a probe', async () => {
    vi.useFakeTimers();
    const fake = new FakeConnection({ restartable: true });
    await fake.open(hostView({ extension: 'shipped' }));
    fake.hold('line');
    void fake.connection.call({ type: 'line', text: '/seeds query' }).catch(() => undefined);
    fake.worker.responsive = false;
    await vi.advanceTimersByTimeAsync(WAIT_NOTICE_MS - 1);
    expect(fake.workers).toHaveLength(1);
    expect(fake.worker.sent().filter((body) => body.type === 'line')).toHaveLength(1);
    expect(fake.worker.probes).toEqual([]);
  });

  it('a compile is timed from its `load`: the compiler\'s silence is not a hang, the learner\'s code after `load` is', async () => {
    vi.useFakeTimers();
    const fake = new FakeConnection({ restartable: true });
    await fake.open(hostView({ extension: 'shipped' }));
    fake.hold('runEdited');
    const run = fake.connection.call({ type: 'runEdited', files: { 'extension/seed-desk.ts': 'while (true) {}' } });
    const failed = expect(run).rejects.toThrow('The worker was stopped.');
    const compiling = fake.worker;
    compiling.responsive = false;

    await vi.advanceTimersByTimeAsync(3 * SILENCE_MS);
    expect(fake.workers).toHaveLength(1);

    compiling.progress('runEdited', 'load', 0, 1);
    await vi.advanceTimersByTimeAsync(SILENCE_MS);
    await failed;
    expect(fake.workers).toHaveLength(2);
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.connection.restarted).toBe(
      'Your edited extension did not finish loading (its factory and session_start): it held the worker for 1.5 s without a pause, so the page stopped its worker and started a new one. ' +
        'The shipped extension runs again on your journal as it was stored; your edits are still in the editor.',
    );
    expect(fake.worker.sent().map((body) => body.type)).toEqual(['hello', 'useShipped']);
  });

  it('a worker that does not answer a probe is gone: a new one shows the journal as it was stored', async () => {
    vi.useFakeTimers();
    const fake = new FakeConnection({ restartable: true });
    await fake.open(hostView({ extension: 'shipped' }), [], [{ topic: 'events' }]);
    fake.hold('stepBack');
    const stepBack = fake.connection.call({ type: 'stepBack' });
    const failed = expect(stepBack).rejects.toThrow('The worker was stopped.');
    fake.worker.responsive = false;

    await vi.advanceTimersByTimeAsync(WAIT_NOTICE_MS + PROBE_ANSWER_MS);
    await failed;
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.workers[0]?.terminated).toBe(true);
    expect(fake.connection.restarted).toBe('The worker stopped answering while the request "stepBack" waited, so the page started a new one. It shows your journal as it was stored.');
    expect(fake.connection.waiting).toBeNull();
    // The shipped extension ran: nothing to switch back.
    expect(fake.worker.sent()).toEqual([{ type: 'hello', watch: [{ topic: 'events' }] }]);
  });

  it('a new worker that cannot open the session says so, and asks for a reload', async () => {
    vi.useFakeTimers();
    const fake = new FakeConnection({ restartable: true });
    await fake.open(hostView());
    const told: string[] = [];
    fake.connection.onRestart(() => told.push('restarted'));
    fake.hold('stepBack');
    void fake.connection.call({ type: 'stepBack' }).catch(() => undefined);
    fake.worker.responsive = false;
    fake.answerWith('hello', { error: 'The database is gone.' });

    await vi.advanceTimersByTimeAsync(WAIT_NOTICE_MS + PROBE_ANSWER_MS);
    await vi.advanceTimersByTimeAsync(0);
    expect(fake.connection.restarted).toBe(
      'The worker stopped answering while the request "stepBack" waited, so the page started a new one. The new worker could not open the session: The database is gone. Reload the page.',
    );
    expect(told).toEqual([]);
  });

  it('a bare Worker (no way to make another) is never replaced', async () => {
    vi.useFakeTimers();
    const fake = new FakeConnection();
    await fake.open(hostView({ extension: 'edited' }));
    fake.hold('stepBack');
    void fake.connection.call({ type: 'stepBack' }).catch(() => undefined);
    fake.worker.responsive = false;
    await vi.advanceTimersByTimeAsync(WAIT_NOTICE_MS + PROBE_ANSWER_MS);
    expect(fake.workers).toHaveLength(1);
    expect(fake.worker.terminated).toBe(false);
    expect(fake.connection.restarted).toBeNull();
  });
});

describe('twoTabsUnsupported', () => {
  it('says nothing where BroadcastChannel and Web Locks exist, and names what is missing otherwise', () => {
    expect(twoTabsUnsupported({ BroadcastChannel: class {}, navigator: { locks: {} } })).toBeNull();
    expect(twoTabsUnsupported({ BroadcastChannel: class {}, navigator: {} })).toBe(
      'This browser has no Web Locks, so two tabs of the playground are not supported here; it works in this one tab.',
    );
    expect(twoTabsUnsupported({})).toBe('This browser has no BroadcastChannel and no Web Locks, so two tabs of the playground are not supported here; it works in this one tab.');
  });
});
