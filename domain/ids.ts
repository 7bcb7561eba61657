/**
 * Branded identifiers. A session id, an entry id and a revision are all strings at run time;
 * the brands let the compiler catch a swapped argument (excalidraw's habit).
 */
export type SessionId = string & { readonly __brand: 'SessionId' };
export type EntryId = string & { readonly __brand: 'EntryId' };
export type Revision = string & { readonly __brand: 'Revision' };

export const asSessionId = (value: string): SessionId => value as SessionId;
export const asEntryId = (value: string): EntryId => value as EntryId;
export const asRevision = (value: string): Revision => value as Revision;

/** Random sources are passed in so the domain stays deterministic under test. */
export interface IdSource {
  /** A fresh 8-character entry id (the host uses 8 hex characters from a UUID). */
  entryId(): string;
  /** A fresh session id (opaque; the host uses UUIDs). */
  sessionId(): string;
  /** The current time as an ISO string. */
  now(): string;
}

/** Host rule: ids are random 8-character strings, retried on collision. */
export function freshEntryId(source: IdSource, taken: (id: string) => boolean): EntryId {
  for (let attempt = 0; attempt < 100; attempt++) {
    const id = source.entryId();
    if (!taken(id)) return asEntryId(id);
  }
  throw new Error('Could not find a free entry id after 100 attempts');
}

/** The browser/Node id source: crypto.randomUUID is available in both. */
export const cryptoIdSource: IdSource = {
  entryId: () => crypto.randomUUID().slice(-8),
  sessionId: () => crypto.randomUUID(),
  now: () => new Date().toISOString(),
};

/** A seeded id source for tests and scripted demos: same seed, same ids. */
export function seededIdSource(seed: number, start = Date.UTC(2026, 0, 1)): IdSource {
  let state = seed >>> 0 || 1;
  let clock = start;
  const next = (): number => {
    // xorshift32: tiny, deterministic, good enough for unique-looking ids.
    state ^= state << 13;
    state >>>= 0;
    state ^= state >>> 17;
    state ^= state << 5;
    state >>>= 0;
    return state;
  };
  const hex8 = (): string => next().toString(16).padStart(8, '0');
  return {
    entryId: hex8,
    sessionId: () => `${hex8()}-${hex8().slice(0, 4)}-4${hex8().slice(0, 3)}-8${hex8().slice(0, 3)}-${hex8()}${hex8().slice(0, 4)}`,
    now: () => new Date((clock += 1000)).toISOString(),
  };
}
