import type { Changes, RequestBody, RequestType, ResultOf, TopicUpdate } from '../protocol/messages';
import { WorkerClient, type ChangeCause } from './workerClient';

type UpdateOf<T extends TopicUpdate['topic']> = Extract<TopicUpdate, { topic: T }>;
type Listeners = { [T in TopicUpdate['topic']]?: (update: UpdateOf<T>) => void };

/**
 * The page's one line to its worker. Features send their requests through `call` and receive
 * what changed through the listener they registered for their topic; a worker failure (not a
 * refusal) is kept in `error`, which the page shows as an alert.
 */
export class Connection {
  /** Set when the worker itself failed or cannot answer yet; cleared by the next good answer. */
  error = $state.raw<string | null>(null);
  private readonly client: WorkerClient;
  private readonly topics: Listeners = {};
  private readonly viewListeners: ((view: NonNullable<Changes['view']>, cause: ChangeCause) => void)[] = [];
  private readonly pushListeners: ((cause: ChangeCause) => void)[] = [];

  constructor(worker: Worker) {
    this.client = new WorkerClient(worker);
    this.client.onNotice = (text) => (this.error = text);
    this.client.onChanges = (changes, cause) => this.apply(changes, cause);
  }

  /** Registers the one listener for a topic's updates. */
  onTopic<T extends TopicUpdate['topic']>(topic: T, listener: (update: UpdateOf<T>) => void): void {
    (this.topics as Record<string, (update: UpdateOf<T>) => void>)[topic] = listener;
  }

  onView(listener: (view: NonNullable<Changes['view']>, cause: ChangeCause) => void): void {
    this.viewListeners.push(listener);
  }

  /** Told of every push (changes no request of this page caused), after they are applied. */
  onPush(listener: (cause: ChangeCause) => void): void {
    this.pushListeners.push(listener);
  }

  async call<T extends RequestType>(body: Extract<RequestBody, { type: T }>, onProgress?: (phase: string, done: number, total: number) => void): Promise<ResultOf<T>> {
    try {
      const result = await this.client.request(body, onProgress);
      this.error = null;
      return result;
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
      throw error;
    }
  }

  private apply(changes: Changes, cause: ChangeCause): void {
    if (changes.view) for (const listener of this.viewListeners) listener(changes.view, cause);
    for (const update of changes.updates) (this.topics[update.topic] as ((update: TopicUpdate) => void) | undefined)?.(update);
    if (cause !== 'answer') for (const listener of this.pushListeners) listener(cause);
  }
}
