/**
 * The writer lease on its own: two leases on one lock name play two tabs. Node's BroadcastChannel
 * carries the hand-off requests between them, as the browser's does between workers.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { WriterLease } from './storeLease';
import { FakeLocks, HeldChannels, TransitLocks } from './storeLease.testkit';

let counter = 0;
const leases: WriterLease[] = [];
afterEach(() => {
  for (const lease of leases.splice(0)) lease.close();
});

function pair(locks = new FakeLocks()): [WriterLease, WriterLease, FakeLocks] {
  const name = `lease-test-${process.pid}-${++counter}`;
  const open = () => {
    const channel = new BroadcastChannel(name);
    (channel as unknown as { unref?: () => void }).unref?.();
    const lease = new WriterLease(locks, name, channel);
    leases.push(lease);
    return lease;
  };
  return [open(), open(), locks];
}

const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

describe('WriterLease', () => {
  it('keeps its tenure between writes while nobody else asks: one lock request, one epoch', async () => {
    const [lease, , locks] = pair();
    const epochs: number[] = [];
    for (let i = 0; i < 5; i++) await lease.run(async (epoch) => epochs.push(epoch));
    expect(new Set(epochs).size).toBe(1);
    expect(lease.heldEpoch()).toBe(epochs[0]);
    expect(locks.grants).toBe(1);
  });

  it('hands over when another lease asks, after the write in flight, and the first starts a new epoch when it writes again', async () => {
    const [a, b] = pair();
    const log: string[] = [];
    const first = await a.run(async (epoch) => epoch);
    let release: () => void = () => undefined;
    const slow = a.run(async () => {
      log.push('a: start');
      await new Promise<void>((resolve) => (release = resolve));
      log.push('a: end');
    });
    const other = b.run(async () => log.push('b: runs'));
    await tick();
    await tick();
    expect(log).toEqual(['a: start']);
    release();
    await Promise.all([slow, other]);
    expect(log).toEqual(['a: start', 'a: end', 'b: runs']);
    expect(a.heldEpoch()).toBeNull();
    const again = await a.run(async (epoch) => epoch);
    expect(again).not.toBe(first);
  });

  it('never runs writes of two leases at once, however they interleave', async () => {
    const [a, b, locks] = pair();
    let running: 'a' | 'b' | null = null;
    let overlaps = 0;
    const done: string[] = [];
    const write = (lease: WriterLease, who: 'a' | 'b', i: number) =>
      lease.run(async () => {
        if (running !== null && running !== who) overlaps++;
        running = who;
        for (let k = 0; k < (i % 3) + 1; k++) await tick();
        running = null;
        done.push(`${who}${i}`);
      });
    // Each tab writes one thing after another (as a worker does), both tabs at the same time;
    // a few writes are also fired together, as a batch waiting for one grant.
    const sequence = async (lease: WriterLease, who: 'a' | 'b') => {
      for (let i = 0; i < 8; i++) await write(lease, who, i);
      await Promise.all([write(lease, who, 8), write(lease, who, 9)]);
    };
    await Promise.all([sequence(a, 'a'), sequence(b, 'b')]);
    expect(overlaps).toBe(0);
    expect(done).toHaveLength(20);
    expect(locks.maxHolders).toBe(1);
    // They took turns rather than one waiting for the other to finish everything.
    expect(locks.grants).toBeGreaterThan(4);
  });

  it('refuses to run once closed, and a closed holder lets the other in', async () => {
    const [a, b] = pair();
    await a.run(async () => undefined);
    a.close();
    await expect(a.run(async () => undefined)).rejects.toThrow(/closed/);
    await expect(b.run(async () => 'b ran')).resolves.toBe('b ran');
  });
});

/** Lets every pending promise callback run (the fake locks and leases chain a few of them). */
async function settle(): Promise<void> {
  for (let i = 0; i < 20; i++) await Promise.resolve();
}

describe('WriterLease hand-over, with messages and lock requests delivered in a chosen order', () => {
  /** Two tabs whose lock requests and channel messages move only when the test moves them. */
  function slowPair() {
    const manager = new FakeLocks();
    const hub = new HeldChannels();
    const name = `lease-order-${++counter}`;
    const tab = () => {
      const locks = new TransitLocks(manager);
      const lease = new WriterLease(locks, name, hub.open());
      leases.push(lease);
      return { locks, lease };
    };
    return { manager, hub, a: tab(), b: tab() };
  }

  it('a waiter is not starved when the holder lets go and asks again before the waiter\'s request reaches the lock manager', async () => {
    const { hub, a, b } = slowPair();
    // A holds the lock between writes.
    const first = a.lease.run(async (epoch) => epoch);
    a.locks.arrive();
    const epochA = await first;

    // B posts its want and asks for the lock; the request is still on its way.
    let bRan = false;
    const bWrite = b.lease.run(async () => {
      bRan = true;
    });
    // Before the fix B is still waiting when the test closes the leases: that rejection is expected.
    bWrite.catch(() => undefined);
    await settle();
    expect(b.locks.travelling).toBe(1);

    // A hears the want and lets go; A's next write asks again, and its request arrives first.
    hub.deliver();
    await settle();
    expect(a.lease.heldEpoch()).toBeNull();
    const aAgain = a.lease.run(async (epoch) => epoch);
    await settle();
    a.locks.arrive();
    const epochAgain = await aAgain;
    expect(epochAgain).not.toBe(epochA);
    b.locks.arrive();

    // Whatever the two tabs still have to say to each other, B gets its turn.
    for (let round = 0; round < 5 && !bRan; round++) {
      hub.deliver();
      await settle();
    }
    expect(bRan).toBe(true);
    await bWrite;
    expect(a.lease.heldEpoch()).toBeNull();
  });

  it('two waiting leases answer each other\'s want once, not back and forth', async () => {
    const { hub, a, b } = slowPair();
    const aWrite = a.lease.run(async () => 'a');
    const bWrite = b.lease.run(async () => 'b');
    await settle();
    // Both wants cross; each waiting lease answers the other's once; the answers are not answered.
    expect(hub.deliver()).toBe(2);
    await settle();
    expect(hub.deliver()).toBe(2);
    await settle();
    expect(hub.deliver()).toBe(0);
    a.locks.arrive();
    b.locks.arrive();
    for (let round = 0; round < 5; round++) {
      hub.deliver();
      await settle();
    }
    await expect(Promise.all([aWrite, bWrite])).resolves.toEqual(['a', 'b']);
  });
});
