/**
 * The protocol's own vocabularies, declared once: the storage faults the page can inject and the
 * topics a panel can watch. (The host's approval vocabulary is OMP's, in `extension/ompApi.ts`.)
 * Plain constants: importing them costs the page nothing.
 */

/** Storage faults the Refusals and fault demos inject into the next write. */
export const STORE_FAULTS = ['abort', 'quota', 'close'] as const;
export type StoreFault = (typeof STORE_FAULTS)[number];

/** What a panel can watch (protocol `WatchSchema`). */
export const TOPICS = ['conversation', 'events', 'journal', 'graph', 'sessions', 'compare'] as const;
