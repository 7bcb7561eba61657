/**
 * The handler clock of a session change's before-event (eventEmit.ts `runHandler`): OMP's 30 s,
 * except while the handler's dialog waits for the learner in the page.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ExtensionContext } from '../../../../extension/ompApi';
import { emit, HANDLER_TIMEOUT_MS, type EventHandler, type HandlerSource } from './eventEmit';
import { Invocation } from './invocation';

const EVENT = { type: 'session_before_switch', reason: 'new' } as const;

function sourceOf(handler: EventHandler, failures: string[]): HandlerSource {
  return {
    path: 'guard.ts',
    handlersOf: (event) => (event === EVENT.type ? [handler] : []),
    eventContext: () => ({}) as ExtensionContext,
    handlerFailed: (_event, error) => failures.push(error),
  };
}

beforeEach(() => {
  vi.useFakeTimers();
});

afterEach(() => {
  vi.useRealTimers();
});

describe('a session change’s before-event handler and its 30 s', () => {
  it('a handler whose dialog waits on the page is not timed out, however long the learner takes; the answer decides', async () => {
    const run = new Invocation();
    const failures: string[] = [];
    const request = { kind: 'confirm', id: 'request-1', title: 'Clear session?', message: 'Sure?' } as const;
    const asking: EventHandler = () => new Promise((resolve) => run.ask({ request, resume: (confirmed) => resolve(confirmed === true ? undefined : { cancel: true }) }));
    let result: unknown = 'pending';
    void emit(sourceOf(asking, failures), EVENT, run).then((value) => (result = value));
    await vi.advanceTimersByTimeAsync(HANDLER_TIMEOUT_MS * 3);
    expect(result).toBe('pending');
    expect(failures).toEqual([]);
    run.answer({ kind: 'confirm', id: request.id, confirmed: false });
    await vi.advanceTimersByTimeAsync(0);
    expect(result).toEqual({ cancel: true });
    expect(failures).toEqual([]);
  });

  it('a handler that waits on anything else is the extension’s error after 30 s, and the change goes on', async () => {
    const run = new Invocation();
    const failures: string[] = [];
    let result: unknown = 'pending';
    void emit(sourceOf(() => new Promise(() => undefined), failures), EVENT, run).then((value) => (result = value));
    await vi.advanceTimersByTimeAsync(HANDLER_TIMEOUT_MS - 1);
    expect(result).toBe('pending');
    await vi.advanceTimersByTimeAsync(1);
    expect(result).toBeUndefined();
    expect(failures).toEqual([`handler timed out after ${HANDLER_TIMEOUT_MS}ms`]);
  });
});
