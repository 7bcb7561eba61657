/**
 * The writer lease: one JournalStore per database (one tab) writes at a time, under an exclusive
 * Web Lock that it keeps between writes, so what it wrote or read while holding it is still what
 * is stored. Another store that wants to write asks on a BroadcastChannel; the holder lets go once
 * its writes in flight have finished, and the next holder starts a new tenure (a new `epoch`).
 *
 * A `want` is a message and the lock request is another route to the lock manager; either may
 * arrive first. So a lease still waiting answers every `want` it hears with its own (a `reply`,
 * which is never answered): a holder that let go and got the lock straight back before the
 * waiter's request reached the lock manager hears the waiter again and lets go once more
 * (docs/decisions.md, "The writer lease starved a waiting tab").
 *
 * Why: a checked commit must decide on the stored branch head. Reading it inside the transaction
 * costs about a quarter of a bare put+commit in Chromium; under the lease the head this store
 * wrote last is known, and only the first write of a tenure reads it (store.ts).
 */

/** The part of `navigator.locks` the lease uses (tests hand in their own). */
export interface LockManagerLike {
  request(name: string, options: { mode: 'exclusive' }, callback: () => Promise<void>): Promise<unknown>;
}

/** The part of BroadcastChannel the lease uses. */
export interface ChannelLike {
  postMessage(message: unknown): void;
  onmessage: ((event: MessageEvent) => void) | null;
  close(): void;
}

interface Tenure {
  readonly epoch: number;
  /** Lets the lock go. */
  readonly end: () => void;
  readonly ended: Promise<void>;
}

interface WantMessage {
  readonly want: string;
  /** An answer to another lease's want, from a lease still waiting: never answered in turn. */
  readonly reply?: true;
}

function isWant(value: unknown): value is WantMessage {
  return typeof value === 'object' && value !== null && typeof (value as { want?: unknown }).want === 'string';
}

export class WriterLease {
  private readonly id = crypto.randomUUID();
  private tenure: Tenure | null = null;
  /** The lock request in flight, shared by every write waiting for it. */
  private next: Promise<Tenure> | null = null;
  /** Writes waiting for `next`; the grant admits them all at once. */
  private waiting = 0;
  private inFlight = 0;
  /** Another store asked for the lock: finish what runs, admit nothing new, let go. */
  private wanted = false;
  private epochs = 0;
  private closed = false;

  constructor(
    private readonly locks: LockManagerLike,
    private readonly lockName: string,
    private readonly channel: ChannelLike,
  ) {
    channel.onmessage = (event) => {
      if (!isWant(event.data) || event.data.want === this.id) return;
      if (!this.tenure && !this.next) return;
      // Still waiting: the one asking may be about to take the lock before ours arrives; say so again.
      if (!this.tenure && event.data.reply !== true) this.channel.postMessage({ want: this.id, reply: true } satisfies WantMessage);
      this.wanted = true;
      this.releaseIfIdle();
    };
  }

  /** The epoch of the tenure held now, or null: what a store knows is valid only within one epoch. */
  heldEpoch(): number | null {
    return this.tenure ? this.tenure.epoch : null;
  }

  /**
   * Runs `work` while holding the lock. `epoch` names the tenure it runs in; what `work` writes
   * or reads stays known for as long as `heldEpoch()` returns the same number.
   */
  async run<T>(work: (epoch: number) => Promise<T>): Promise<T> {
    const tenure = await this.enter();
    try {
      return await work(tenure.epoch);
    } finally {
      this.inFlight--;
      this.releaseIfIdle();
    }
  }

  close(): void {
    this.closed = true;
    this.channel.onmessage = null;
    this.channel.close();
    const tenure = this.tenure;
    this.tenure = null;
    tenure?.end();
  }

  /** Counts the caller in flight on a held tenure, or waits for the next grant (which counts it). */
  private async enter(): Promise<Tenure> {
    for (;;) {
      if (this.closed) throw new Error('The database connection was closed.');
      if (this.tenure && !this.wanted) {
        this.inFlight++;
        return this.tenure;
      }
      // Being handed over: let it go first, then queue behind whoever asked.
      if (this.tenure) {
        await this.tenure.ended;
        continue;
      }
      this.waiting++;
      this.next ??= this.acquire();
      return this.next;
    }
  }

  private acquire(): Promise<Tenure> {
    this.channel.postMessage({ want: this.id } satisfies WantMessage);
    return new Promise<Tenure>((granted, failed) => {
      let settled = false;
      const fail = (error: unknown) => {
        if (settled) return;
        settled = true;
        this.next = null;
        this.waiting = 0;
        failed(error);
      };
      this.locks
        .request(this.lockName, { mode: 'exclusive' }, () => {
          let end: () => void = () => undefined;
          const ended = new Promise<void>((resolve) => (end = resolve));
          if (this.closed) {
            end();
            fail(new Error('The database connection was closed.'));
            return ended;
          }
          settled = true;
          const tenure: Tenure = { epoch: ++this.epochs, end, ended };
          this.tenure = tenure;
          this.next = null;
          // Every write that waited for this grant runs in it, even if a hand-off was asked meanwhile.
          this.inFlight += this.waiting;
          this.waiting = 0;
          granted(tenure);
          return ended;
        })
        .catch(fail);
    });
  }

  private releaseIfIdle(): void {
    if (!this.tenure || !this.wanted || this.inFlight > 0) return;
    const tenure = this.tenure;
    this.tenure = null;
    this.wanted = false;
    tenure.end();
  }
}
