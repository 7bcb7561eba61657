/**
 * No silent wait (issue 28): a request unanswered for WAIT_NOTICE_MS is probed, and the page hears
 * what it waits for in one sentence; a probe left unanswered means the worker is gone. A fake
 * worker and a fake clock make every step deterministic.
 */
import { describe, expect, it } from 'vitest';
import type { RequestWait } from '../protocol/messages';
import { FakeClock } from './fakeClock.testkit';
import { PROBE_ANSWER_MS, WAIT_NOTICE_MS, WorkerClient, waitSentence, type WorkerLike } from './workerClient';

/** A worker that answers only what the test tells it to. */
class FakeWorker implements WorkerLike {
  readonly posted: unknown[] = [];
  private listeners: ((event: MessageEvent) => void)[] = [];
  terminated = false;
  postMessage(message: unknown): void {
    this.posted.push(message);
  }
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | ((event: never) => void)): void {
    if (type === 'message') this.listeners.push(listener as (event: MessageEvent) => void);
  }
  removeEventListener(): void {}
  terminate(): void {
    this.terminated = true;
  }
  say(data: unknown): void {
    for (const listener of this.listeners) listener({ data } as MessageEvent);
  }
}

function setup() {
  const clock = new FakeClock();
  const worker = new FakeWorker();
  const client = new WorkerClient(worker as unknown as Worker, clock);
  const heard: (RequestWait | 'no answer' | null)[] = [];
  const sentences: string[] = [];
  let gone = 0;
  client.onWaiting = (_id, body, on) => {
    heard.push(on);
    if (on !== null) sentences.push(waitSentence(body, on));
  };
  client.onUnresponsive = () => gone++;
  return { clock, worker, client, heard, sentences, gone: () => gone };
}

const emptyChanges = { updates: [] };

describe('WorkerClient: no request waits in silence', () => {
  it('says nothing before 10 s; at 10 s asks the worker and says in one sentence that the Confirm waits for the other tab', () => {
    const { clock, worker, client, heard, sentences } = setup();
    void client.request({ type: 'answerUi', answer: { kind: 'confirm', id: 'd1', confirmed: true } });
    clock.advance(WAIT_NOTICE_MS - 1);
    expect(worker.posted).toHaveLength(1);
    expect(heard).toEqual([]);
    clock.advance(1);
    expect(worker.posted[1]).toEqual({ probe: 1 });
    worker.say({ kind: 'waiting', id: 1, on: 'lease' });
    expect(heard).toEqual(['lease']);
    expect(sentences[0]).toBe('Your Confirm of its dialog is waiting for another tab of the playground to hand over the journal: close or reload that tab if this does not go on.');
    expect(sentences[0]?.split(/[.!?](\s|$)/).filter((part) => part.trim().length > 1)).toHaveLength(1);
  });

  it('asks again every 10 s while it waits, and goes quiet once the answer comes', async () => {
    const { clock, worker, client, heard } = setup();
    const answer = client.request({ type: 'stepBack' });
    clock.advance(WAIT_NOTICE_MS);
    worker.say({ kind: 'waiting', id: 1, on: 'lease' });
    clock.advance(WAIT_NOTICE_MS);
    expect(worker.posted.filter((message) => (message as { probe?: number }).probe === 1)).toHaveLength(2);
    worker.say({ kind: 'waiting', id: 1, on: 'store' });
    worker.say({ kind: 'response', id: 1, ok: true, result: { leafId: 'entry-1' }, changes: emptyChanges });
    await expect(answer).resolves.toEqual({ leafId: 'entry-1' });
    expect(heard).toEqual(['lease', 'store', null]);
    clock.advance(5 * WAIT_NOTICE_MS);
    expect(worker.posted).toHaveLength(3);
  });

  it('a probe left unanswered: the worker is taken for gone, and the page hears it once', () => {
    const { clock, worker, client, heard, sentences, gone } = setup();
    void client.request({ type: 'line', text: '/seeds reserve basil-genovese 1' }).catch(() => undefined);
    clock.advance(WAIT_NOTICE_MS + PROBE_ANSWER_MS - 1);
    expect(gone()).toBe(0);
    clock.advance(1);
    expect(gone()).toBe(1);
    expect(heard).toEqual(['no answer']);
    expect(sentences[0]).toMatch(/^The worker did not answer while the line "\/seeds reserve basil-genovese 1" waited, so the page is starting a new one/);
    expect(worker.posted).toHaveLength(2);
  });

  it('progress counts as an answer to the probe: a worker busy with a long import is not taken for gone', () => {
    const { clock, worker, client, gone } = setup();
    void client.request({ type: 'exportSession' }, () => undefined).catch(() => undefined);
    clock.advance(WAIT_NOTICE_MS + PROBE_ANSWER_MS - 1);
    worker.say({ kind: 'progress', id: 1, phase: 'read', done: 1, total: 2 });
    clock.advance(PROBE_ANSWER_MS);
    expect(gone()).toBe(0);
    clock.advance(WAIT_NOTICE_MS + PROBE_ANSWER_MS);
    expect(gone()).toBe(1);
  });

  it('an answer before 10 s: no probe, nothing said', async () => {
    const { clock, worker, client, heard } = setup();
    const answer = client.request({ type: 'stepBack' });
    clock.advance(WAIT_NOTICE_MS / 2);
    worker.say({ kind: 'response', id: 1, ok: true, result: { leafId: null }, changes: emptyChanges });
    await expect(answer).resolves.toEqual({ leafId: null });
    clock.advance(WAIT_NOTICE_MS * 3);
    expect(worker.posted).toHaveLength(1);
    expect(heard).toEqual([null]);
  });

  it('every wait has its own sentence, each one sentence that says what the learner can do', () => {
    const body = { type: 'answerUi', answer: { kind: 'confirm', id: 'd', confirmed: true } } as const;
    const waits: (RequestWait | 'no answer')[] = ['queue', 'lease', 'store', 'work', 'no answer'];
    const texts = waits.map((on) => waitSentence(body, on));
    expect(new Set(texts).size).toBe(waits.length);
    for (const text of texts) {
      expect(text.match(/\.(\s|$)/g)).toHaveLength(1);
      expect(text).toMatch(/reload|close|starting a new one/);
    }
  });
});
