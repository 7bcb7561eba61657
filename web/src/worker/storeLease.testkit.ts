import type { ChannelLike, LockManagerLike } from './storeLease';

/**
 * Exclusive Web Locks for tests in Node (which has no `navigator.locks`): one holder per name,
 * granted in request order, released when the callback's promise settles, as the spec says.
 * Shared by several stores it plays one origin with several tabs. It records how many held a
 * name at once, so a test can check that the lease never let two writers in.
 */
export class FakeLocks implements LockManagerLike {
  private readonly queues = new Map<string, (() => void)[]>();
  private readonly holding = new Map<string, number>();
  /** The most holders any name ever had at once (must stay 1). */
  maxHolders = 0;
  grants = 0;

  async request(name: string, _options: { mode: 'exclusive' }, callback: () => Promise<void>): Promise<unknown> {
    await this.turn(name);
    const holders = (this.holding.get(name) ?? 0) + 1;
    this.holding.set(name, holders);
    this.maxHolders = Math.max(this.maxHolders, holders);
    this.grants++;
    try {
      return await callback();
    } finally {
      this.holding.set(name, (this.holding.get(name) ?? 1) - 1);
      const queue = this.queues.get(name) ?? [];
      const next = queue.shift();
      if (next) next();
      else this.queues.delete(name);
    }
  }

  private turn(name: string): Promise<void> {
    const queue = this.queues.get(name);
    if (!queue) {
      this.queues.set(name, []);
      return Promise.resolve();
    }
    return new Promise((resolve) => queue.push(resolve));
  }
}

/**
 * One tab's view of shared locks whose requests take a while to reach the lock manager, as they
 * do in a browser (a lock request and a BroadcastChannel message travel by different routes).
 * A request waits here until the test calls `arrive()`, so a test can order it against messages.
 */
export class TransitLocks implements LockManagerLike {
  private readonly inTransit: (() => void)[] = [];

  constructor(private readonly manager: FakeLocks) {}

  get travelling(): number {
    return this.inTransit.length;
  }

  request(name: string, options: { mode: 'exclusive' }, callback: () => Promise<void>): Promise<unknown> {
    return new Promise((resolve, reject) => {
      this.inTransit.push(() => this.manager.request(name, options, callback).then(resolve, reject));
    });
  }

  /** The requests in transit reach the lock manager, in the order they were made. */
  arrive(): void {
    for (const deliver of this.inTransit.splice(0)) deliver();
  }
}

/**
 * BroadcastChannels whose messages wait until the test delivers them: `hub.open()` gives one tab's
 * channel; a message reaches every other open channel of the hub, never its sender, as in a browser.
 */
export class HeldChannels {
  private readonly open_: HeldChannel[] = [];
  private readonly queue: { from: HeldChannel; data: unknown }[] = [];

  open(): HeldChannel {
    const channel = new HeldChannel(this);
    this.open_.push(channel);
    return channel;
  }

  get pending(): number {
    return this.queue.length;
  }

  /** Every message posted so far reaches its listeners (messages they post in turn wait for the next call). */
  deliver(): number {
    const batch = this.queue.splice(0);
    for (const { from, data } of batch) {
      for (const channel of this.open_) if (channel !== from && !channel.closed) channel.onmessage?.({ data } as MessageEvent);
    }
    return batch.length;
  }

  /** @internal */
  post(from: HeldChannel, data: unknown): void {
    this.queue.push({ from, data: structuredClone(data) });
  }
}

export class HeldChannel implements ChannelLike {
  onmessage: ((event: MessageEvent) => void) | null = null;
  closed = false;

  constructor(private readonly hub: HeldChannels) {}

  postMessage(message: unknown): void {
    if (!this.closed) this.hub.post(this, message);
  }

  close(): void {
    this.closed = true;
  }
}
