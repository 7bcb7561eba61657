import type { TickClock } from './watchdog';

/** A clock the test moves by hand: timers run in order of their due time, none before it. */
export class FakeClock implements TickClock {
  private time = 0;
  now(): number {
    return this.time;
  }
  private timers = new Map<number, { at: number; run: () => void }>();
  private next = 1;
  setTimeout(run: () => void, ms: number): unknown {
    const handle = this.next++;
    this.timers.set(handle, { at: this.time + ms, run });
    return handle;
  }
  clearTimeout(handle: unknown): void {
    this.timers.delete(handle as number);
  }
  /** The page's thread is held for `ms`: time passes and no timer runs (the next `advance` runs them late). */
  hold(ms: number): void {
    this.time += ms;
  }

  advance(ms: number): void {
    const until = this.time + ms;
    for (;;) {
      const due = [...this.timers].filter(([, timer]) => timer.at <= until).sort((a, b) => a[1].at - b[1].at)[0];
      if (!due) break;
      this.timers.delete(due[0]);
      this.time = Math.max(this.time, due[1].at);
      due[1].run();
    }
    this.time = until;
  }
}
