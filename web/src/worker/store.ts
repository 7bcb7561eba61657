import { unwrap, wrap, type IDBPDatabase, type IDBPTransaction } from 'idb';
import type { EntryId, SessionId } from '$domain/ids';
import type { JournalEntry, SessionHeader } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import { JournalError } from '$domain/journal/journalError';
import { deskIndexOf, ROOT_DESK_INDEX, stateOfIndex, type BranchState, type DeskIndex } from '$domain/reconstruct';
import { deskIndexAt, EMPTY_TALLY, entriesOf, layoutOf, nextTally, positionIn, type SegmentSource, type Tally } from './segments';
import { KnownHeads } from './storeKnown';
import { hostLocks } from './ownGlobals';
import { WriterLease, type LockManagerLike } from './storeLease';
import {
  BY_ID,
  BY_SESSION,
  connect,
  DB_NAME,
  ENTRIES,
  entryRecord,
  IMPORTS,
  LAST_SESSION_KEY,
  META,
  SEGMENTS,
  SESSIONS,
  SessionExists,
  sessionRange,
  writeCreated,
  type EntryRecord,
  type NewEntryRecord,
  type PlaygroundDB,
  type SessionMarks,
  type SessionRecord,
  type StoreName,
} from './storeSchema';

export { DB_NAME, DB_VERSION } from './storeSchema';
export type { EntryRecord, SessionMarks, SessionRecord } from './storeSchema';

/** What a reopen needs before the whole journal: read from two records, whatever the session's size. */
export interface SessionHead {
  readonly header: SessionHeader;
  readonly entryCount: number;
  readonly seedDeskEntryCount: number;
  /** The last appended entry (where a reopen puts the leaf), or null in an empty session. */
  readonly lastEntry: JournalEntry | null;
  /** The state of the branch ending at `lastEntry` (the empty desk at `<sid>:root` when there is none). */
  readonly lastState: BranchState;
  readonly hasAssistantMessage: boolean;
  /** The session record's `materialized`: the real host wrote its file when it made it. */
  readonly materialized: boolean;
}

import type { StoreFault } from '../protocol/vocabularies';
export type { StoreFault };

export interface StoreHooks {
  /** The connection is gone for good until a reconnect; writes must stop. */
  readonly onLost?: (reason: string) => void;
  /** Opening waits for another tab to let go of an older connection. */
  readonly onBlocked?: () => void;
  /** What the write in progress waits for: the writer lease, IndexedDB, or nothing (null) once it is done. */
  readonly onWait?: (on: 'lease' | 'store' | null) => void;
}

export interface StoreOptions {
  /**
   * The Web Locks to take the writer lease with: `navigator.locks` by default; null for none
   * (then every write reads the head it checks inside its transaction).
   */
  readonly locks?: LockManagerLike | null;
}

export class StorageFailure extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
  }
}

/** What a checked commit decided on the stored head. */
export type CheckedAppend<R> =
  | { readonly append: false; readonly reason: R }
  | { readonly append: true; readonly entries: readonly JournalEntry[] };

export type CommitOutcome<R> =
  | { readonly kind: 'appended'; readonly records: readonly EntryRecord[] }
  | { readonly kind: 'declined'; readonly reason: R };

type Scope = StoreName[];
type WriteTx = IDBPTransaction<PlaygroundDB, Scope, 'readwrite'>;
const HEAD_READ: Scope = [SESSIONS, ENTRIES, IMPORTS];
const ADDS_ONLY: Scope = [ENTRIES];
const WHOLE_SESSION: Scope = [SESSIONS, ENTRIES, SEGMENTS, IMPORTS];

/**
 * One write: the stores it needs, what it does in the transaction (on the raw IndexedDB API, so
 * the hot path pays no wrapper; `wrap(tx)` gives the idb API where awaiting reads is clearer),
 * and what it teaches the store once committed.
 */
interface WritePlan<T> {
  readonly scope: Scope;
  /**
   * May call `finish` once its last request is issued: the transaction then commits without
   * waiting for this side to hear back from every request (one round trip less on a commit).
   */
  readonly run: (tx: IDBTransaction, finish: () => void) => Promise<T>;
  readonly committed?: (result: T) => void;
  /** False for the last-session pointer: a preference, not the journal the demo faults are for. */
  readonly takesFault?: boolean;
}

/**
 * The IndexedDB journal. Layout and upgrades: storeSchema.ts, segments.ts, docs/persisted-format.md.
 *
 * Every write goes through `write()`: one at a time per store, under the writer lease when the
 * browser has Web Locks (storeLease.ts), as one readwrite transaction, with an injected demo
 * fault applied; a failure leaves nothing behind. The only other writer is the v1 migration,
 * inside the upgrade transaction `connect()` is given, before this store exists.
 *
 * A checked commit decides on the stored head of its branch and appends within one write.
 * Records never change and only the lease holder writes, so a head this store wrote or read during
 * the current tenure is still the stored one: then the transaction only adds. Otherwise (a leaf
 * not seen this tenure, the first write after the lease changed hands, no Web Locks) the head is
 * read inside the same transaction as the append.
 */
export class JournalStore {
  private fault: StoreFault | null = null;
  private db: IDBPDatabase<PlaygroundDB> | null;
  /** Why the connection is gone (another tab upgraded or deleted the database, the browser closed it). */
  private lost: string | null = null;
  private readonly known = new KnownHeads();
  /** The write in flight: the next waits for it, so what `known` says is never planned on twice. */
  private writing: Promise<unknown> = Promise.resolve();
  /** Writes asked for and not yet settled: the wait is over when none is left. */
  private writesPending = 0;

  private constructor(
    db: IDBPDatabase<PlaygroundDB>,
    private readonly name: string,
    private readonly hooks: StoreHooks,
    private readonly lease: WriterLease | null,
  ) {
    this.db = db;
  }

  static async open(name = DB_NAME, hooks: StoreHooks = {}, options: StoreOptions = {}): Promise<JournalStore> {
    let store: JournalStore | null = null;
    const db = await connect(name, JournalStore.connectionEvents(() => store, hooks));
    store = new JournalStore(db, name, hooks, leaseFor(name, options.locks === undefined ? webLocks() : options.locks));
    return store;
  }

  /** What a connection does when another tab or the browser takes the database away. */
  private static connectionEvents(owner: () => JournalStore | null, hooks: StoreHooks) {
    return {
      blocking: () => owner()?.loseConnection('Another tab is upgrading or deleting the playground database, so this tab let go of it.'),
      terminated: () => owner()?.loseConnection('The browser closed the database connection (storage was cleared or the disk failed).'),
      blocked: () => hooks.onBlocked?.(),
    };
  }

  /** Opens the connection again after it was lost: a reopen's first step. */
  async reconnect(): Promise<void> {
    if (this.db && !this.lost) return;
    this.db?.close();
    this.known.clear();
    try {
      this.db = await connect(this.name, JournalStore.connectionEvents(() => this, this.hooks));
      this.lost = null;
    } catch (error) {
      this.db = null;
      const reason =
        error instanceof DOMException && error.name === 'VersionError'
          ? 'The database was upgraded by a newer version of the playground in another tab. Reload this tab to get that version.'
          : describeStorageError(error);
      this.lost = reason;
      throw new StorageFailure(reason, error);
    }
  }

  close(): void {
    this.db?.close();
    this.db = null;
    this.lost = this.lost ?? 'The database connection was closed.';
    this.known.clear();
    this.lease?.close();
  }

  private loseConnection(reason: string): void {
    // Let go at once: the other tab's upgrade or deletion waits for every connection to close.
    this.db?.close();
    this.db = null;
    this.lost = reason;
    // Whatever replaces the database was not written under this store's lease.
    this.known.clear();
    this.hooks.onLost?.(reason);
  }

  private connection(): IDBPDatabase<PlaygroundDB> {
    if (!this.db) throw new StorageFailure(this.lost ?? 'The database is not open.');
    return this.db;
  }

  /** Demo and test switch: the next write transaction fails (after its writes; `close` before them). */
  injectFault(fault: StoreFault | null): void {
    this.fault = fault;
  }

  // ---- reads ----

  async listSessions(): Promise<SessionRecord[]> {
    const all = await this.connection().getAll(SESSIONS);
    return all.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  /** One read of the session's last record, whatever the session's size. */
  async countEntries(sessionId: SessionId): Promise<number> {
    const last = await this.connection().transaction(ENTRIES).store.index(BY_SESSION).openCursor(sessionRange(sessionId), 'prev');
    return last ? last.value.position + 1 : 0;
  }

  async getSession(id: SessionId): Promise<SessionRecord | undefined> {
    return this.connection().get(SESSIONS, id);
  }

  async lastSessionId(): Promise<SessionId | undefined> {
    return (await this.connection().get(META, LAST_SESSION_KEY)) as SessionId | undefined;
  }

  async setLastSession(id: SessionId): Promise<void> {
    await this.write(() => ({
      scope: [META],
      run: (tx) => result(tx.objectStore(META).put(id, LAST_SESSION_KEY)),
      takesFault: false,
    }));
  }

  /** A string kept under `key` in `meta` (docs/persisted-format.md lists the keys); undefined when none is. */
  async getMeta(key: string): Promise<string | undefined> {
    return this.connection().get(META, key);
  }

  /** Keeps `value` under `key` in `meta`; null deletes it. */
  async setMeta(key: string, value: string | null): Promise<void> {
    await this.write(() => ({
      scope: [META],
      run: async (tx) => {
        if (value === null) await result(tx.objectStore(META).delete(key));
        else await result(tx.objectStore(META).put(value, key));
      },
      takesFault: false,
    }));
  }

  /**
   * The session record and its last entry record: enough to show the desk, the revision and the
   * counts before the journal is loaded. Null when the session is not stored.
   */
  async loadHead(sessionId: SessionId): Promise<SessionHead | null> {
    const tx = this.connection().transaction([SESSIONS, ENTRIES]);
    const [session, last] = await Promise.all([tx.objectStore(SESSIONS).get(sessionId), tx.objectStore(ENTRIES).index(BY_SESSION).openCursor(sessionRange(sessionId), 'prev')]);
    if (!session) return null;
    const record = last?.value;
    return {
      header: session.header,
      entryCount: record ? record.position + 1 : 0,
      seedDeskEntryCount: record?.deskEntries ?? 0,
      lastEntry: record?.entry ?? null,
      lastState: stateOfIndex(sessionId, record ?? ROOT_DESK_INDEX),
      hasAssistantMessage: record?.hasAssistant ?? false,
      materialized: session.materialized === true,
    };
  }

  /** Every entry of a session in append order: its segments, then its records; two range reads. */
  async loadJournalEntries(sessionId: SessionId): Promise<JournalEntry[]> {
    const tx = this.connection().transaction([SEGMENTS, ENTRIES]);
    const [segments, records] = await Promise.all([tx.objectStore(SEGMENTS).getAll(sessionRange(sessionId)), tx.objectStore(ENTRIES).index(BY_SESSION).getAll(sessionRange(sessionId))]);
    const entries: JournalEntry[] = [];
    // Every segment's Blob is read at once; they are parsed in order.
    for (const segment of await Promise.all(segments.map(entriesOf))) for (const entry of segment) entries.push(entry);
    for (const record of records) entries.push(record.entry);
    return entries;
  }

  // ---- writes ----

  /** A new session with its first entries (import, fork), all or nothing. */
  async createSession(header: SessionHeader, entries: readonly JournalEntry[] = [], onProgress?: (done: number, total: number) => void, marks: SessionMarks = {}): Promise<SessionRecord> {
    let journal: SessionJournal;
    try {
      journal = SessionJournal.fromEntries(header, entries);
    } catch (error) {
      if (error instanceof JournalError) throw new StorageFailure(`${error.message}: nothing was stored.`, error);
      throw error;
    }
    return this.createSessionFrom(journal, onProgress, undefined, marks);
  }

  /**
   * `createSession` for a journal already built (an import builds one anyway): its links and
   * desk index are what gets stored, so nothing is derived twice. An import's `source` stores
   * the file's own lines (`fileSegments`); `marks` go on the session record.
   */
  async createSessionFrom(journal: SessionJournal, onProgress?: (done: number, total: number) => void, source?: SegmentSource, marks: SessionMarks = {}): Promise<SessionRecord> {
    const header = journal.header;
    const total = journal.size;
    const layout = layoutOf(journal, source);
    const record: SessionRecord = { id: header.id, header, createdAt: new Date().toISOString(), ...marks };
    // Half the bar for making each segment's Blob here, half for the database storing it: the
    // storing is most of the time now (a Blob is handed over by reference), so the bar moves as segments land.
    let prepared = 0;
    let stored = 0;
    const report = () => onProgress?.(Math.floor((prepared + stored) / 2), total);
    return this.write((epoch) => ({
      scope: WHOLE_SESSION,
      run: async (raw) => {
        try {
          await writeCreated(typed(raw), record, layout, {
            onPrepared: (entries) => {
              prepared += entries;
              report();
            },
            onStored: (entries) => {
              stored += entries;
              report();
            },
          });
        } catch (error) {
          throw error instanceof SessionExists ? new StorageFailure(error.message, error) : error;
        }
        onProgress?.(total, total);
        return record;
      },
      committed: () => {
        const last = layout.last;
        this.known.learn(epoch, header.id, last?.tally ?? EMPTY_TALLY, last ? [[last.entry.id, last.desk]] : []);
      },
    }));
  }

  /** Plain append (conversation): no desk check, since conversation never changes the revision. */
  async append(sessionId: SessionId, leafId: EntryId | null, entries: readonly JournalEntry[]): Promise<EntryRecord[]> {
    const outcome = await this.appendOnHead<never>(sessionId, leafId, () => ({ append: true, entries }));
    return outcome.kind === 'appended' ? [...outcome.records] : [];
  }

  /**
   * The revision-checked commit: `decide` judges the stored state of the branch ending at
   * `leafId`, synchronously, and what it returns is appended in the same write (see the class
   * comment for how the head is known). `expected`, the state the caller's memory holds, is no
   * longer needed: the store always decides on the stored head. It is accepted for old callers.
   */
  async commitChecked<R>(sessionId: SessionId, leafId: EntryId | null, decide: (state: BranchState) => CheckedAppend<R>): Promise<CommitOutcome<R>> {
    return this.appendOnHead(sessionId, leafId, decide);
  }

  private appendOnHead<R>(sessionId: SessionId, leafId: EntryId | null, decide: (state: BranchState) => CheckedAppend<R>): Promise<CommitOutcome<R>> {
    return this.write((epoch) => {
      const known = this.known.lookup(epoch, sessionId, leafId);
      const appendOn = async (tx: IDBTransaction, leaf: DeskIndex, tally: Tally, finish: () => void): Promise<CommitOutcome<R>> => {
        const verdict = decide(stateOfIndex(sessionId, leaf));
        if (!verdict.append) return { kind: 'declined', reason: verdict.reason };
        const drafts = draftAppends(sessionId, leafId, leaf, tally, verdict.entries);
        const store = tx.objectStore(ENTRIES);
        const pending: Promise<IDBValidKey>[] = [];
        try {
          for (const draft of drafts) pending.push(result(store.add(draft)));
        } catch (error) {
          // An add that throws at once (DataCloneError) aborts the transaction: the earlier adds fail with it.
          for (const earlier of pending) earlier.catch(() => undefined);
          throw error;
        }
        try {
          finish();
        } finally {
          // Settled either way: a deliberate abort fails them, and `write()` reports that.
          for (const request of pending) request.catch(() => undefined);
        }
        const seqs = await Promise.all(pending);
        return { kind: 'appended', records: drafts.map((draft, index) => ({ ...draft, seq: seqs[index] as number })) };
      };
      let head = known;
      return {
        scope: known ? ADDS_ONLY : HEAD_READ,
        run: async (tx, finish) => {
          head ??= await this.readHead(typed(tx), sessionId, leafId);
          return appendOn(tx, head.desk, head.tally, finish);
        },
        committed: (outcome) => {
          if (!head) return;
          const records = outcome.kind === 'appended' ? outcome.records : [];
          const seen: [string, DeskIndex][] = leafId === null ? [] : [[leafId, head.desk]];
          for (const record of records) seen.push([record.id, record]);
          this.known.learn(epoch, sessionId, records.at(-1) ?? head.tally, seen);
        },
      };
    });
  }

  async deleteSession(sessionId: SessionId): Promise<void> {
    await this.write(() => ({
      scope: WHOLE_SESSION,
      run: async (raw) => {
        const tx = typed(raw);
        await Promise.all([tx.objectStore(SESSIONS).delete(sessionId), tx.objectStore(SEGMENTS).delete(sessionRange(sessionId)), tx.objectStore(IMPORTS).delete(sessionId)]);
        let cursor = await tx.objectStore(ENTRIES).index(BY_SESSION).openCursor(sessionRange(sessionId));
        while (cursor) {
          await cursor.delete();
          cursor = await cursor.continue();
        }
      },
      committed: () => this.known.forget(sessionId),
    }));
  }

  /**
   * The stored head a write depends on, read inside its transaction: the session must exist, the
   * leaf must be stored (as a record, or among the entries the session was created with), and
   * the session's last record gives the tally the new records continue.
   */
  private async readHead(tx: WriteTx, sessionId: SessionId, leafId: EntryId | null): Promise<{ desk: DeskIndex; tally: Tally }> {
    const [session, last, leaf] = await Promise.all([
      tx.objectStore(SESSIONS).get(sessionId),
      tx.objectStore(ENTRIES).index(BY_SESSION).openCursor(sessionRange(sessionId), 'prev'),
      leafId === null ? undefined : tx.objectStore(ENTRIES).index(BY_ID).get([sessionId, leafId]),
    ]);
    if (!session) throw new StorageFailure(`Session ${sessionId} is not in the database (was it deleted in another tab?).`);
    const tally = last?.value ?? EMPTY_TALLY;
    if (leafId === null) return { desk: ROOT_DESK_INDEX, tally };
    if (leaf) return { desk: leaf, tally };
    const index = await tx.objectStore(IMPORTS).get(sessionId);
    const at = index ? positionIn(index, leafId) : -1;
    if (!index || at < 0) throw new StorageFailure(`The entry ${leafId} is not in the stored journal of session ${sessionId} (was the database cleared in another tab?).`);
    return { desk: deskIndexAt(index, at), tally };
  }

  /**
   * Every write: under the writer lease (when there is one), one readwrite transaction over the
   * plan's stores, the injected fault applied; a failure aborts it and becomes a StorageFailure.
   * What the write teaches the store is kept only once the transaction has committed.
   */
  private write<T>(plan: (epoch: number | null) => WritePlan<T>): Promise<T> {
    const attempt = async (epoch: number | null): Promise<T> => {
      this.hooks.onWait?.('store');
      const { scope, run, committed, takesFault = true } = plan(epoch);
      const fault = takesFault ? this.fault : null;
      if (takesFault) this.fault = null;
      if (fault === 'close') this.loseConnection('The database connection was closed in the middle of a commit (injected for the demo).');
      const tx = unwrap(this.connection()).transaction(scope, 'readwrite');
      const done = new Promise<void>((resolve, reject) => {
        tx.oncomplete = () => resolve();
        tx.onabort = () => reject(tx.error ?? new DOMException('The transaction was aborted.', 'AbortError'));
      });
      let finished = false;
      const finish = () => {
        if (finished) return;
        finished = true;
        if (fault && fault !== 'close') failDeliberately(tx, fault);
        tx.commit();
      };
      try {
        const outcome = await run(tx, finish);
        finish();
        await done;
        committed?.(outcome);
        return outcome;
      } catch (error) {
        try {
          tx.abort();
        } catch {
          // Already finished or aborted: nothing more to undo.
        }
        await done.catch(() => undefined);
        throw error instanceof StorageFailure ? error : new StorageFailure(describeStorageError(error), error);
      }
    };
    const lease = this.lease;
    // Behind this store's own write in flight, the wait is IndexedDB's; then the lease's, if it is not held.
    this.writesPending++;
    this.hooks.onWait?.('store');
    const next = this.writing.then(() => {
      if (lease && lease.heldEpoch() === null) this.hooks.onWait?.('lease');
      return lease
        ? lease.run(attempt).catch((error: unknown) => {
            throw error instanceof StorageFailure ? error : new StorageFailure(describeStorageError(error), error);
          })
        : attempt(null);
    });
    this.writing = next.catch(() => undefined);
    const settled = () => {
      if (--this.writesPending === 0) this.hooks.onWait?.(null);
    };
    next.then(settled, settled);
    return next;
  }
}

/**
 * The records for appended entries: the first hangs off the leaf, each later one off the leaf,
 * an earlier entry of the batch, or nothing (a new root). Each record's desk index comes from its
 * parent's by the one derivation (`deskIndexOf`), its tally from the session's last record.
 */
function draftAppends(sessionId: SessionId, leafId: EntryId | null, leaf: DeskIndex, tally: Tally, entries: readonly JournalEntry[]): NewEntryRecord[] {
  const first = entries[0];
  if (first && first.parentId !== leafId) {
    throw new StorageFailure(`Entry ${first.id} hangs off ${first.parentId ?? '(none)'}, not off the leaf ${leafId ?? '(none)'}: nothing was appended.`);
  }
  const known = new Map<string, DeskIndex>();
  if (leafId !== null) known.set(leafId, leaf);
  let running = tally;
  return entries.map((entry) => {
    const parent = entry.parentId === null ? ROOT_DESK_INDEX : known.get(entry.parentId);
    if (!parent) throw new StorageFailure(`Entry ${entry.id} hangs off ${entry.parentId ?? '(none)'}, which is neither the leaf nor an entry of this batch: nothing was appended.`);
    const desk = deskIndexOf(entry, parent);
    known.set(entry.id, desk);
    running = nextTally(running, entry);
    return entryRecord(sessionId, entry, entry.parentId, desk, running);
  });
}

function webLocks(): LockManagerLike | null {
  return hostLocks();
}

function leaseFor(name: string, locks: LockManagerLike | null): WriterLease | null {
  if (!locks || typeof BroadcastChannel === 'undefined') return null;
  const channelName = `${name}:writer-lease`;
  const channel = new BroadcastChannel(channelName);
  // Node (tests) would otherwise stay alive for the channel.
  (channel as unknown as { unref?: () => void }).unref?.();
  return new WriterLease(locks, channelName, channel);
}

/** The idb API over a raw transaction of ours (its stores are the plan's scope). */
function typed(tx: IDBTransaction): WriteTx {
  const wrapped = wrap(tx) as unknown as WriteTx;
  // write() watches the raw transaction; idb's own `done` must not reject unobserved.
  wrapped.done.catch(() => undefined);
  return wrapped;
}

function result<T>(request: IDBRequest<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    request.onsuccess = () => resolve(request.result);
    request.onerror = () => reject(request.error);
  });
}

function failDeliberately(tx: IDBTransaction, fault: Exclude<StoreFault, 'close'>): never {
  tx.abort();
  throw fault === 'quota'
    ? new DOMException('The quota has been exceeded (injected for the demo).', 'QuotaExceededError')
    : new DOMException('The transaction was aborted (injected for the demo).', 'AbortError');
}

export function describeStorageError(error: unknown): string {
  if (error instanceof DOMException) {
    if (error.name === 'QuotaExceededError') return `The browser refused to store more data (quota exceeded): ${error.message}`;
    if (error.name === 'AbortError') return `The storage transaction was aborted: ${error.message}`;
    if (error.name === 'InvalidStateError') return `The database was closed underneath this tab: ${error.message}`;
    if (error.name === 'ConstraintError') return `An entry with this id is already stored: ${error.message}`;
    return `${error.name}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}
