import type { LockManagerLike } from './storeLease';

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
