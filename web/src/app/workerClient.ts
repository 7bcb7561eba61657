import { ResultSchemas, WorkerMessageSchema, type HostView, type RequestBody, type RequestType, type ResultOf } from '../protocol/messages';

export interface Answer<T extends RequestType> {
  readonly result: ResultOf<T>;
  readonly view: HostView;
}

export class WorkerError extends Error {
  constructor(
    message: string,
    readonly view: HostView | null,
  ) {
    super(message);
  }
}

/**
 * Typed request/response over postMessage. Replies are parsed with the same schemas the worker
 * uses, so nothing unchecked crosses the boundary in either direction.
 */
export class WorkerClient {
  private nextId = 1;
  /** A view the worker pushed on its own (another tab appended, or the sessions changed). */
  onPush: ((view: HostView, reason: 'foreign' | 'sessions' | 'lost') => void) | null = null;
  onNotice: ((text: string) => void) | null = null;
  private readonly progress = new Map<number, (phase: string, done: number, total: number) => void>();
  private readonly pending = new Map<number, { type: RequestType; resolve: (answer: Answer<RequestType>) => void; reject: (error: Error) => void }>();

  constructor(private readonly worker: Worker) {
    worker.addEventListener('message', (event: MessageEvent<unknown>) => this.receive(event.data));
    worker.addEventListener('error', (event) => this.failAll(`The worker stopped: ${event.message || 'unknown error'}`));
  }

  request<T extends RequestType>(body: Extract<RequestBody, { type: T }>, onProgress?: (phase: string, done: number, total: number) => void): Promise<Answer<T>> {
    const id = this.nextId++;
    if (onProgress) this.progress.set(id, onProgress);
    return new Promise<Answer<T>>((resolve, reject) => {
      this.pending.set(id, { type: body.type, resolve: resolve as (answer: Answer<RequestType>) => void, reject });
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
    const response = parsed.data;
    if (response.kind === 'push') {
      this.onPush?.(response.view, response.reason);
      return;
    }
    if (response.kind === 'notice') {
      this.onNotice?.(response.text);
      return;
    }
    if (response.kind === 'progress') {
      this.progress.get(response.id)?.(response.phase, response.done, response.total);
      return;
    }
    const waiting = this.pending.get(response.id);
    if (!waiting) return;
    this.pending.delete(response.id);
    this.progress.delete(response.id);
    if (!response.ok) {
      waiting.reject(new WorkerError(response.error, response.view));
      return;
    }
    const result = ResultSchemas[waiting.type].safeParse(response.result);
    if (!result.success) {
      waiting.reject(new WorkerError(`The worker's answer to "${waiting.type}" is malformed: ${result.error.issues[0]?.message ?? 'invalid'}`, response.view));
      return;
    }
    waiting.resolve({ result: result.data, view: response.view });
  }

  private failAll(message: string): void {
    for (const waiting of this.pending.values()) waiting.reject(new WorkerError(message, null));
    this.pending.clear();
  }
}
