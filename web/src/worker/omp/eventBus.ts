/**
 * The host's event bus (`pi.events`), shared by every extension: `emit` calls the handlers at once,
 * in subscription order, without awaiting them; a handler's error is logged and never reaches
 * the emitter. `onEmit` lets the host itself watch every channel (the Events panel).
 */
export type BusHandler = (data: unknown) => unknown;

export class EventBus {
  private readonly handlers = new Map<string, BusHandler[]>();

  constructor(private readonly onEmit: (channel: string, data: unknown) => void) {}

  emit(channel: string, data: unknown): void {
    this.onEmit(channel, data);
    for (const handler of this.handlers.get(channel) ?? []) {
      void (async () => {
        try {
          await handler(data);
        } catch (error) {
          console.error(`Event handler error (${channel}):`, error);
        }
      })();
    }
  }

  /** Removes every handler on every channel (OMP's `EventBus.clear`). */
  clear(): void {
    this.handlers.clear();
  }

  on(channel: string, handler: BusHandler): () => void {
    const list = this.handlers.get(channel) ?? [];
    list.push(handler);
    this.handlers.set(channel, list);
    return () => {
      const at = list.indexOf(handler);
      if (at >= 0) list.splice(at, 1);
    };
  }
}
