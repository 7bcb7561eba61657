import type { RequestBody } from '../protocol/messages';
import type { Clock } from './workerClient';

/**
 * How long the worker may stay silent, while the learner's edited extension runs, before the page
 * takes it for held by a loop (issue 23). Silence, not a request's duration: a request that waits
 * in the worker's queue, on the store or on the writer lease still lets the worker answer a
 * heartbeat, and a loaded machine makes requests slow without making the worker mute. A promise
 * that never settles is not silence either: the page's host gives up on it by itself (SETTLE_MS).
 */
export const SILENCE_MS = 1500;

/** How often the page asks a timed worker for a sign of life (the worker answers outside its queue). */
export const HEARTBEAT_MS = 250;

/** Heartbeats that must go unanswered, each posted on its own tick, before a silence counts. */
export const UNANSWERED_HEARTBEATS = 3;

/** The clock the watchdog reads (tests hand in a fake one). */
export interface TickClock extends Clock {
  now(): number;
}

export const realTickClock: TickClock = {
  now: () => performance.now(),
  setTimeout: (run, ms) => globalThis.setTimeout(run, ms),
  clearTimeout: (handle) => globalThis.clearTimeout(handle as ReturnType<typeof setTimeout>),
};

/**
 * Times the requests that run the learner's code. While one is watched, it asks the worker for a
 * sign of life every HEARTBEAT_MS (`ping`); anything the worker sends counts (`heard`). When
 * nothing has come for SILENCE_MS, the worker's one thread is held (a busy loop), and `onHung` is
 * told the oldest watched request, which is the one the worker runs (it answers in order).
 *
 * Why not a timer per request: a fixed time from the request misreads a loaded machine. Under CI
 * load a request that queued behind the rest of an answer outlived 1.5 s while the worker was
 * answering all along, and the page replaced a healthy worker running the learner's version with
 * the shipped one in the middle of an exercise (docs/decisions.md, "A hang is silence").
 */
export class Watchdog {
  private readonly watched = new Map<number, RequestBody>();
  private nextKey = 1;
  private lastHeard = 0;
  /** Heartbeats posted since the worker last said anything. */
  private unanswered = 0;
  private timer: unknown = null;

  /**
   * `excused`: true while the worker may be silent for the page's own reasons (the compiler runs
   * before the learner's code loads); the count starts again after it.
   */
  constructor(
    private readonly ping: () => void,
    private readonly onHung: (body: RequestBody) => void,
    private readonly excused: () => boolean = () => false,
    private readonly clock: TickClock = realTickClock,
  ) {}

  /** Starts timing `body`; the silence counts from now. Returns the stop for when it is answered. */
  watch(body: RequestBody): () => void {
    const key = this.nextKey++;
    if (this.watched.size === 0) this.heard();
    this.watched.set(key, body);
    if (this.timer === null) this.schedule();
    return () => {
      this.watched.delete(key);
      if (this.watched.size === 0) this.halt();
    };
  }

  /** The worker sent something: it is not held. */
  heard(): void {
    this.lastHeard = this.clock.now();
    this.unanswered = 0;
  }

  /** Stops timing everything (the worker was replaced). */
  halt(): void {
    this.watched.clear();
    if (this.timer !== null) this.clock.clearTimeout(this.timer);
    this.timer = null;
  }

  private schedule(): void {
    this.timer = this.clock.setTimeout(() => this.tick(), HEARTBEAT_MS);
  }

  private tick(): void {
    this.timer = null;
    const oldest = this.watched.values().next();
    if (oldest.done) return;
    if (this.excused()) this.heard();
    // Silence is judged only after heartbeats posted on earlier ticks went unanswered: when the
    // page's own thread was held, its first tick after comes before the worker's answers that wait
    // in the page's queue, and must not read their delay as the worker's.
    if (this.clock.now() - this.lastHeard >= SILENCE_MS && this.unanswered >= UNANSWERED_HEARTBEATS) {
      this.halt();
      this.onHung(oldest.value);
      return;
    }
    this.unanswered++;
    this.ping();
    this.schedule();
  }
}
