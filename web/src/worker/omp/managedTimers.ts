/**
 * `ctx.setInterval` / `ctx.setTimeout` / `ctx.clearTimer`, as OMP 18.2.3's `ManagedTimers`
 * (pi-coding-agent src/extensibility/extensions/managed-timers.ts): a callback's throw or
 * rejection is reported as the extension's error instead of escaping, and every timer still
 * pending is cleared when the extension's host ends (`session_shutdown`: a reopen, or the extension
 * replaced). One set per loaded extension, as OMP keeps one per runner.
 */
type Callback = (...args: unknown[]) => unknown;
type Handle = ReturnType<typeof setTimeout>;

export class ManagedTimers {
  private readonly timers = new Set<Handle>();

  constructor(
    /** Before each callback (the edited extension's caps count per run). */
    private readonly beforeRun: () => void,
    /** OMP reports a throw as `emitError({ extensionPath: "<timer>", event: "interval_callback" | "timeout_callback", … })`. */
    private readonly onError: (event: string, message: string) => void,
  ) {}

  setInterval(callback: Callback, ms?: number, ...args: unknown[]): Handle {
    const timer = setInterval(() => this.run('interval', callback, args), ms);
    this.timers.add(timer);
    return timer;
  }

  /** Deregistered when it fires. */
  setTimeout(callback: Callback, ms?: number, ...args: unknown[]): Handle {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      this.run('timeout', callback, args);
    }, ms);
    this.timers.add(timer);
    return timer;
  }

  /** One managed timer; a handle this set did not make is ignored, as in OMP. */
  clear(timer: Handle): void {
    if (!this.timers.delete(timer)) return;
    clearInterval(timer);
    clearTimeout(timer);
  }

  clearAll(): void {
    for (const timer of this.timers) {
      clearInterval(timer);
      clearTimeout(timer);
    }
    this.timers.clear();
  }

  /** How many are pending (for the tests). */
  get size(): number {
    return this.timers.size;
  }

  private run(kind: 'interval' | 'timeout', callback: Callback, args: unknown[]): void {
    try {
      this.beforeRun();
      const result = callback(...args);
      if (result instanceof Promise) result.catch((error: unknown) => this.report(kind, error));
    } catch (error) {
      this.report(kind, error);
    }
  }

  private report(kind: 'interval' | 'timeout', error: unknown): void {
    this.onError(`${kind}_callback`, error instanceof Error ? error.message : String(error));
  }
}
