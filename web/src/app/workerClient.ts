import { ResultSchemas, WorkerMessageSchema, type Changes, type RequestBody, type RequestType, type ResultOf } from '../protocol/messages';

/** Why changes arrived: the answer to this page's request, or a push (another tab, the session list, lost storage, the rest of an answer). */
export type ChangeCause = 'answer' | 'foreign' | 'sessions' | 'lost' | 'rest';

export class WorkerError extends Error {}

/**
 * User Timing name of a worker round trip: from the request posted to its answer received and
 * parsed, before the page applies what changed (drawing is the features' cost, not the trip's).
 * Free to record, and lets the benchmarks read real round trips from the page.
 */
export const ROUND_TRIP_MEASURE = 'seed-desk:worker-round-trip';

/**
 * Typed request/response over postMessage: one message per request. Every answer's changes are
 * handed to `onChanges` before its promise settles, so code after `await request(…)` sees the page's
 * state already updated. Replies are parsed once, here, with the schemas the worker answers by.
 */
export class WorkerClient {
  private nextId = 1;
  onChanges: ((changes: Changes, cause: ChangeCause) => void) | null = null;
  onNotice: ((text: string) => void) | null = null;
  private readonly progress = new Map<number, (phase: string, done: number, total: number) => void>();
  private readonly pending = new Map<number, { type: RequestType; start: number; resolve: (result: unknown) => void; reject: (error: Error) => void }>();

  constructor(private readonly worker: Worker) {
    worker.addEventListener('message', (event: MessageEvent<unknown>) => this.receive(event.data));
    worker.addEventListener('error', (event) => this.failAll(`The worker stopped: ${event.message || 'unknown error'}`));
  }

  request<T extends RequestType>(body: Extract<RequestBody, { type: T }>, onProgress?: (phase: string, done: number, total: number) => void): Promise<ResultOf<T>> {
    const id = this.nextId++;
    if (onProgress) this.progress.set(id, onProgress);
    return new Promise<ResultOf<T>>((resolve, reject) => {
      this.pending.set(id, { type: body.type, start: performance.now(), resolve: resolve as (result: unknown) => void, reject });
      this.worker.postMessage({ id, body });
    });
  }

  terminate(): void {
    this.worker.terminate();
    this.failAll('The worker was stopped.');
  }

  private receive(data: unknown): void {
    const parsed = WorkerMessageSchema.safeParse(data);
    if (!parsed.success) {
      this.failAll(`The worker sent a message this page cannot read: ${parsed.error.issues[0]?.message ?? 'invalid'}`);
      return;
    }
    const message = parsed.data;
    switch (message.kind) {
      case 'push':
        this.onChanges?.(message.changes, message.reason);
        return;
      case 'notice':
        this.onNotice?.(message.text);
        return;
      case 'progress':
        this.progress.get(message.id)?.(message.phase, message.done, message.total);
        return;
      case 'response':
        break;
    }
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.pending.delete(message.id);
    this.progress.delete(message.id);
    const result = message.ok ? ResultSchemas[waiting.type].safeParse(message.result) : null;
    performance.measure(ROUND_TRIP_MEASURE, { start: waiting.start, end: performance.now(), detail: waiting.type });
    if (message.changes) this.onChanges?.(message.changes, 'answer');
    if (!message.ok) {
      waiting.reject(new WorkerError(message.error));
      return;
    }
    if (!result?.success) {
      waiting.reject(new WorkerError(`The worker's answer to "${waiting.type}" is malformed: ${result?.error.issues[0]?.message ?? 'invalid'}`));
      return;
    }
    waiting.resolve(result.data);
  }

  private failAll(message: string): void {
    for (const waiting of this.pending.values()) waiting.reject(new WorkerError(message));
    this.pending.clear();
  }
}
