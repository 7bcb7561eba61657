import type { Changes, RequestBody, RequestType, ResultOf, Topic, TopicUpdate, Watch } from '../protocol/messages';
import { SILENCE_MS, Watchdog } from './watchdog';
import { describeRequest, WorkerClient, waitSentence, type ChangeCause } from './workerClient';

type UpdateOf<T extends TopicUpdate['topic']> = Extract<TopicUpdate, { topic: T }>;
type Listeners = { [T in TopicUpdate['topic']]?: (update: UpdateOf<T>) => void };

/** Requests that compile before they run the learner's code: timed only from their `load` progress, never the compiler's download. */
const COMPILES: ReadonlySet<RequestType> = new Set<RequestType>(['runEdited', 'restoreEdited', 'runOwn', 'restoreOwn']);

/**
 * The page's one line to its worker. Features send their requests through `call` and receive
 * what changed through the listener they registered for their topic; a worker failure (not a
 * refusal) is kept in `error`, which the page shows as an alert. While the learner's edited
 * extension runs, a watchdog (watchdog.ts) listens to the worker during every request: a worker
 * silent for SILENCE_MS is held by the learner's code, so it is terminated, and a new one starts
 * with the shipped extension on the same stored journal (`restarted` says what happened).
 */
export class Connection {
  /** Set when the worker itself failed or cannot answer yet; cleared by the next good answer. */
  error = $state.raw<string | null>(null);
  /** Set when the watchdog replaced a hung worker: which request hung, and that the shipped extension runs again. */
  restarted = $state.raw<string | null>(null);
  /** What the oldest request unanswered for 10 s waits for, in one sentence (workerClient.ts); null when none waits. */
  waiting = $state.raw<string | null>(null);
  private readonly waits = new Map<number, string>();
  /** Set when this browser lacks what two tabs need to share the journal: the page works, in one tab. */
  readonly singleTabOnly: string | null = twoTabsUnsupported(globalThis);
  private client: WorkerClient;
  private watchdog: Watchdog;
  private readonly makeWorker: (() => Worker) | null;
  private readonly topics: Listeners = {};
  private readonly viewListeners: ((view: NonNullable<Changes['view']>, cause: ChangeCause) => void)[] = [];
  private readonly pushListeners: ((cause: ChangeCause) => void)[] = [];
  private readonly restartListeners: (() => void)[] = [];
  /** What the page watches, so a new worker can be asked for all of it at once. */
  private readonly watching = new Map<Topic, Watch>();
  /** The last view said the edited extension runs: every request is timed. */
  private edited = false;
  /** The last view said the learner's own extension runs, or waits to (issue 37). */
  private own = false;
  /** Compiles sent whose learner code has not started loading: the compiler may hold the worker meanwhile. */
  private compilesBeforeLoad = 0;

  /** `worker`: a function that makes one, so the watchdog can start another (a bare Worker cannot be replaced). */
  constructor(worker: Worker | (() => Worker)) {
    this.makeWorker = typeof worker === 'function' ? worker : null;
    [this.client, this.watchdog] = this.connect(typeof worker === 'function' ? worker() : worker);
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

  /** Told when the watchdog has replaced a hung worker (the new one runs the shipped extension). */
  onRestart(listener: () => void): void {
    this.restartListeners.push(listener);
  }

  async call<T extends RequestType>(body: Extract<RequestBody, { type: T }>, onProgress?: (phase: string, done: number, total: number) => void): Promise<ResultOf<T>> {
    this.noteWatches(body);
    const compiles = COMPILES.has(body.type);
    const timed = this.makeWorker !== null && (this.edited || compiles);
    let stop = null as (() => void) | null;
    const startTiming = () => {
      if (!stop) stop = this.watchdog.watch(body);
    };
    if (timed && !compiles) startTiming();
    let compiling = compiles;
    const compiled = () => {
      if (compiling) this.compilesBeforeLoad--;
      compiling = false;
    };
    if (compiling) this.compilesBeforeLoad++;
    // A compile is timed from its `load` progress: the learner's code starts there, never in the compiler's download.
    const progress = (phase: string, done: number, total: number) => {
      if (phase === 'load') {
        compiled();
        if (timed) startTiming();
      }
      onProgress?.(phase, done, total);
    };
    try {
      const result = await this.client.request(body, progress);
      this.error = null;
      return result;
    } catch (error) {
      this.error = error instanceof Error ? error.message : String(error);
      throw error;
    } finally {
      compiled();
      stop?.();
    }
  }

  private connect(worker: Worker): [WorkerClient, Watchdog] {
    const client = new WorkerClient(worker);
    // A load that holds the worker was the edited version's too: the new worker runs the shipped one instead, and says so.
    const watchdog = new Watchdog(
      () => client.ping(),
      (body) => {
        if (this.client === client) void this.restart(`Your edited extension did not finish ${describeRequest(body)}: it held the worker for ${SILENCE_MS / 1000} s without a pause, so the page stopped its worker and started a new one.`, COMPILES.has(body.type));
      },
      () => this.compilesBeforeLoad > 0,
    );
    client.onHeard = () => watchdog.heard();
    client.onNotice = (text) => (this.error = text);
    client.onChanges = (changes, cause) => this.apply(changes, cause);
    client.onWaiting = (id, body, on) => {
      if (on === null) this.waits.delete(id);
      else this.waits.set(id, waitSentence(body, on));
      this.waiting = this.waits.values().next().value ?? null;
    };
    // A worker that does not even answer a probe is gone (crashed, or stuck in a loop): replace it.
    client.onUnresponsive = (body) => {
      if (this.client === client && this.makeWorker) void this.restart(`The worker stopped answering while ${describeRequest(body)} waited, so the page started a new one.`);
    };
    return [client, watchdog];
  }

  private noteWatches(body: RequestBody): void {
    if (body.type === 'hello') {
      this.watching.clear();
      for (const watch of body.watch) this.watching.set(watch.topic, watch);
    } else if (body.type === 'watch') this.watching.set(body.watch.topic, body.watch);
    else if (body.type === 'unwatch') this.watching.delete(body.topic);
  }

  /**
   * The watchdog fired (the learner's code holds the worker in a loop), or the worker did
   * not answer a probe (it is gone). Its worker is terminated (what it had not stored is lost; the
   * store is intact), a new one opens the same session with the shipped extension and everything
   * the page watches, and a stored edited version is kept but no longer run on reload.
   */
  private async restart(said: string, loadingEdited = false): Promise<void> {
    const makeWorker = this.makeWorker;
    if (!makeWorker) return;
    const wasEdited = this.edited || loadingEdited;
    this.watchdog.halt();
    this.client.terminate();
    this.waits.clear();
    this.waiting = null;
    this.edited = false;
    [this.client, this.watchdog] = this.connect(makeWorker());
    // Said at once (the hang is stopped now), then again once the new worker has opened the session.
    this.restarted = `${said} It is opening your journal${wasEdited ? ' with the shipped extension' : ''}…`;
    try {
      await this.client.request({ type: 'hello', watch: [...this.watching.values()] });
      this.error = null;
      this.restarted = wasEdited
        ? `${said} The shipped extension runs again on your journal as it was stored; your edits are still in the editor.`
        : `${said} It shows your journal as it was stored.`;
      for (const listener of this.restartListeners) listener();
    } catch (error) {
      this.restarted = `${said} The new worker could not open the session: ${error instanceof Error ? error.message : String(error)} Reload the page.`;
      return;
    }
    if (!wasEdited) return;
    // The stored edited version is kept but no longer run on reload. Not awaited: this write waits
    // for the old worker's writer lock, which Chromium frees only when it forcibly ends a worker
    // stuck in a loop, about 2 s after terminate().
    // The own extension (issue 37) is left too: Seed Desk runs again on the session it ran on.
    const wasOwn = this.own;
    this.client
      .request({ type: 'useShipped' })
      .then(() => (wasOwn ? this.client.request({ type: 'leaveOwn' }) : null))
      .catch(() => undefined);
  }

  private apply(changes: Changes, cause: ChangeCause): void {
    // The learner's own extension (issue 37) is their code too: every request is timed.
    if (changes.view) this.edited = changes.view.extension === 'edited' || changes.view.own === true;
    if (changes.view) this.own = changes.view.own === true || changes.view.ownWaiting === true;
    if (changes.view) for (const listener of this.viewListeners) listener(changes.view, cause);
    for (const update of changes.updates) (this.topics[update.topic] as ((update: TopicUpdate) => void) | undefined)?.(update);
    if (cause !== 'answer') for (const listener of this.pushListeners) listener(cause);
  }
}

/** One sentence when two tabs cannot share the journal here (no BroadcastChannel: no news of the other tab's appends; no Web Locks: no writer lease). */
export function twoTabsUnsupported(scope: { BroadcastChannel?: unknown; navigator?: { locks?: unknown } }): string | null {
  const missing = [typeof scope.BroadcastChannel === 'function' ? null : 'BroadcastChannel', scope.navigator?.locks ? null : 'Web Locks'].filter((name) => name !== null);
  if (missing.length === 0) return null;
  return `This browser has no ${missing.join(' and no ')}, so two tabs of the playground are not supported here; it works in this one tab.`;
}
