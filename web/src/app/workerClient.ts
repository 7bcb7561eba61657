import { ResultSchemas, WorkerMessageSchema, type Changes, type RequestBody, type RequestType, type RequestWait, type ResultOf } from '../protocol/messages';

/** Why changes arrived: the answer to this page's request, or a push (another tab, the session list, lost storage, the rest of an answer). */
export type ChangeCause = 'answer' | 'foreign' | 'sessions' | 'lost' | 'rest';

export class WorkerError extends Error {}

/**
 * User Timing name of a worker round trip: from the request posted to its answer received and
 * parsed, before the page applies what changed (drawing is the features' cost, not the trip's).
 * Free to record, and lets the benchmarks read real round trips from the page.
 */
export const ROUND_TRIP_MEASURE = 'seed-desk:worker-round-trip';

/** How long a request may go unanswered before the page asks the worker what it waits for, and says so. */
export const WAIT_NOTICE_MS = 10_000;
/** How long the worker has to answer that question (it answers outside its queue) before the page takes it for gone. */
export const PROBE_ANSWER_MS = 5_000;

/** The probe id of a heartbeat: requests count from 1, so it never names one. */
const HEARTBEAT_ID = 0;

/** The timers the client uses (tests hand in a fake clock). */
export interface Clock {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}
const realClock: Clock = {
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/** The part of a Worker the client uses. */
export type WorkerLike = Pick<Worker, 'postMessage' | 'addEventListener' | 'terminate'>;

interface Pending {
  readonly body: RequestBody;
  readonly start: number;
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: Error) => void;
  timer: unknown;
  /** A probe about this request is out and unanswered. */
  probing: boolean;
}

/**
 * Typed request/response over postMessage: one message per request. Every answer's changes are
 * handed to `onChanges` before its promise settles, so code after `await request(…)` sees the page's
 * state already updated. Replies are parsed once, here, with the schemas the worker answers by.
 *
 * No request waits in silence: one unanswered after WAIT_NOTICE_MS is probed, and `onWaiting`
 * hears what it waits for (again every WAIT_NOTICE_MS, and null once it is answered). A probe
 * unanswered after PROBE_ANSWER_MS means the worker is gone: `onUnresponsive`.
 */
export class WorkerClient {
  private nextId = 1;
  onChanges: ((changes: Changes, cause: ChangeCause) => void) | null = null;
  onNotice: ((text: string) => void) | null = null;
  onWaiting: ((id: number, body: RequestBody, on: RequestWait | 'no answer' | null) => void) | null = null;
  onUnresponsive: ((body: RequestBody) => void) | null = null;
  /** Told of every message the worker sends, before it is read: the watchdog's sign of life. */
  onHeard: (() => void) | null = null;
  private readonly progress = new Map<number, (phase: string, done: number, total: number) => void>();
  private readonly pending = new Map<number, Pending>();

  constructor(
    private readonly worker: WorkerLike,
    private readonly clock: Clock = realClock,
  ) {
    worker.addEventListener('message', (event: MessageEvent<unknown>) => this.receive(event.data));
    worker.addEventListener('error', (event: ErrorEvent) => this.failAll(`The worker stopped: ${event.message || 'unknown error'}`));
  }

  request<T extends RequestType>(body: Extract<RequestBody, { type: T }>, onProgress?: (phase: string, done: number, total: number) => void): Promise<ResultOf<T>> {
    const id = this.nextId++;
    if (onProgress) this.progress.set(id, onProgress);
    return new Promise<ResultOf<T>>((resolve, reject) => {
      const pending: Pending = { body, start: performance.now(), resolve: resolve as (result: unknown) => void, reject, timer: null, probing: false };
      pending.timer = this.clock.setTimeout(() => this.probe(id), WAIT_NOTICE_MS);
      this.pending.set(id, pending);
      this.worker.postMessage({ id, body });
    });
  }

  terminate(): void {
    this.worker.terminate();
    this.failAll('The worker was stopped.');
  }

  /** Asks the worker for a sign of life (a probe of no request: it answers at once, outside its queue). */
  ping(): void {
    this.worker.postMessage({ probe: HEARTBEAT_ID });
  }

  private probe(id: number): void {
    const pending = this.pending.get(id);
    if (!pending) return;
    pending.probing = true;
    this.worker.postMessage({ probe: id });
    pending.timer = this.clock.setTimeout(() => {
      if (!this.pending.has(id) || !pending.probing) return;
      this.onWaiting?.(id, pending.body, 'no answer');
      this.onUnresponsive?.(pending.body);
    }, PROBE_ANSWER_MS);
  }

  private receive(data: unknown): void {
    this.onHeard?.();
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
      case 'progress': {
        // A worker that reports progress is alive, even if a long synchronous step kept it from the probe.
        const pending = this.pending.get(message.id);
        if (pending?.probing) this.rearm(message.id, pending);
        this.progress.get(message.id)?.(message.phase, message.done, message.total);
        return;
      }
      case 'waiting': {
        const pending = this.pending.get(message.id);
        if (!pending) return;
        this.rearm(message.id, pending);
        this.onWaiting?.(message.id, pending.body, message.on);
        return;
      }
      case 'response':
        break;
    }
    const waiting = this.pending.get(message.id);
    if (!waiting) return;
    this.settle(message.id, waiting);
    const result = message.ok ? ResultSchemas[waiting.body.type].safeParse(message.result) : null;
    performance.measure(ROUND_TRIP_MEASURE, { start: waiting.start, end: performance.now(), detail: waiting.body.type });
    if (message.changes) this.onChanges?.(message.changes, 'answer');
    if (!message.ok) {
      waiting.reject(new WorkerError(message.error));
      return;
    }
    if (!result?.success) {
      waiting.reject(new WorkerError(`The worker's answer to "${waiting.body.type}" is malformed: ${result?.error.issues[0]?.message ?? 'invalid'}`));
      return;
    }
    waiting.resolve(result.data);
  }

  /** The worker answered for this request: the next probe in WAIT_NOTICE_MS, if it is still not answered. */
  private rearm(id: number, pending: Pending): void {
    pending.probing = false;
    this.clock.clearTimeout(pending.timer);
    pending.timer = this.clock.setTimeout(() => this.probe(id), WAIT_NOTICE_MS);
  }

  /** The request is over (answered or failed): no more probes, and nothing waits for it. */
  private settle(id: number, pending: Pending): void {
    this.pending.delete(id);
    this.progress.delete(id);
    this.clock.clearTimeout(pending.timer);
    this.onWaiting?.(id, pending.body, null);
  }

  private failAll(message: string): void {
    for (const [id, pending] of [...this.pending]) {
      this.settle(id, pending);
      pending.reject(new WorkerError(message));
    }
  }
}

/** The request, as the learner made it. */
export function describeRequest(body: RequestBody): string {
  switch (body.type) {
    case 'line':
      return `the line "${body.text}"`;
    case 'answerUi':
      return body.answer.kind === 'confirm' ? `your ${body.answer.confirmed ? 'Confirm' : 'Cancel'} of its dialog` : `your answer to its ${body.answer.kind === 'select' ? 'choice' : 'question'}`;
    case 'meanwhileReserve':
      return `the meanwhile reservation of ${body.packets} ${body.id}`;
    case 'toolCall':
    case 'answerApproval':
      return 'the seed_desk tool call';
    case 'runEdited':
    case 'restoreEdited':
      return 'loading (its factory and session_start)';
    default:
      return `the request "${body.type}"`;
  }
}

/** One sentence: what an unanswered request waits for, and what the learner can do. */
export function waitSentence(body: RequestBody, on: RequestWait | 'no answer'): string {
  const what = describeRequest(body);
  const request = what.charAt(0).toUpperCase() + what.slice(1);
  switch (on) {
    case 'lease':
      return `${request} is waiting for another tab of the playground to hand over the journal: close or reload that tab if this does not go on.`;
    case 'store':
      return `${request} is waiting for the browser's storage (IndexedDB) to finish: reload the page if this does not go on; what was saved stays saved.`;
    case 'queue':
      return `${request} is waiting behind an earlier request of this tab that has not finished: reload the page if this does not go on.`;
    case 'work':
      return `${request} is still running in the worker: reload the page if this does not go on; what was saved stays saved.`;
    case 'done':
      return `${request} has finished in the worker and its answer is on its way.`;
    case 'no answer':
      return `The worker did not answer while ${what} waited, so the page is starting a new one on the journal as it was stored.`;
  }
}
