import type { EventLogItem } from '../protocol/messages';

type DistributiveOmit<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;
export type NewEventLogItem = DistributiveOmit<EventLogItem, 'seq'>;

/**
 * The host's events and notifications, numbered in order and bounded (older ones are dropped).
 * The sequence numbers let a watcher ask for "everything after n" instead of the whole log.
 */
export class EventLog {
  private readonly items: EventLogItem[] = [];
  private seq = 0;

  constructor(private readonly limit = 50) {}

  add(item: NewEventLogItem): void {
    this.items.push({ ...item, seq: ++this.seq } as EventLogItem);
    if (this.items.length > this.limit) this.items.splice(0, this.items.length - this.limit);
  }

  /** The newest sequence number given out (0 before any). */
  get lastSeq(): number {
    return this.seq;
  }

  all(): EventLogItem[] {
    return this.items.slice();
  }

  /** Forgets the events (not the notifications) numbered after `seq`: what announced a change the store did not keep. */
  dropEventsAfter(seq: number): void {
    for (let index = this.items.length - 1; index >= 0; index--) {
      const item = this.items[index];
      if (item && item.seq > seq && item.kind === 'event') this.items.splice(index, 1);
    }
  }

  /** The items numbered after `seq`, oldest first. */
  since(seq: number): EventLogItem[] {
    return this.items.filter((item) => item.seq > seq);
  }
}
