import 'fake-indexeddb/auto';
import type { WorkerLike } from '../app/workerClient';

type Listener = (event: MessageEvent<unknown>) => void;

/**
 * The page's worker, run in this process: the real `worker/worker.ts` module behind a stand-in for
 * its global scope, and a stand-in `Worker` for the page. Messages cross as they do in a browser:
 * structured clones, delivered in a later task. IndexedDB is fake-indexeddb.
 */
export async function inProcessWorker(): Promise<Worker> {
  const toPage: Listener[] = [];
  const toWorker: Listener[] = [];
  const deliver = (listeners: Listener[], data: unknown) => {
    const copy = structuredClone(data);
    setTimeout(() => {
      for (const listener of listeners) listener(new MessageEvent('message', { data: copy }));
    }, 0);
  };
  const scope = {
    postMessage: (data: unknown) => deliver(toPage, data),
    addEventListener: (type: string, listener: Listener) => {
      if (type === 'message') toWorker.push(listener);
    },
  };
  const global = globalThis as { self?: unknown; requestAnimationFrame?: unknown; cancelAnimationFrame?: unknown };
  global.self = scope;
  // The command line's echo waits for a frame: Node has none, a task stands in.
  global.requestAnimationFrame ??= (callback: (time: number) => void) => setTimeout(() => callback(performance.now()), 0);
  global.cancelAnimationFrame ??= (handle: ReturnType<typeof setTimeout>) => clearTimeout(handle);
  await import('../worker/worker');
  const worker: WorkerLike = {
    postMessage: (data: unknown) => deliver(toWorker, data),
    addEventListener: (type: string, listener: EventListenerOrEventListenerObject) => {
      if (type === 'message' && typeof listener === 'function') toPage.push(listener as Listener);
    },
    terminate: () => undefined,
  };
  // The page's features take a `Worker`; they use only what `WorkerLike` names (workerClient.ts).
  return worker as Worker;
}
