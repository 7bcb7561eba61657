import type { IDBPDatabase } from 'idb';
import type { EntryId, SessionId } from '$domain/ids';
import type { JournalEntry, SessionHeader } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import { JournalError } from '$domain/journal/journalError';
import type { BranchState } from '$domain/reconstruct';
import { EMPTY_TALLY, layoutOf, type SegmentSource } from './segments';
import { appendPlan, type CheckedAppend, type CommitOutcome } from './storeAppend';
import { leaseFor, StoreConnection, webLocks, type ConnectionHooks } from './storeConnection';
import { StorageFailure } from './storeFailures';
import { KnownHeads } from './storeKnown';
import type { LockManagerLike, WriterLease } from './storeLease';
import * as reads from './storeReads';
import {
  BY_SESSION,
  DB_NAME,
  ENTRIES,
  IMPORTS,
  LAST_SESSION_KEY,
  META,
  SEGMENTS,
  SESSIONS,
  SessionExists,
  sessionRange,
  writeCreated,
  type EntryRecord,
  type PlaygroundDB,
  type SessionMarks,
  type SessionRecord,
} from './storeSchema';
import { result, StoreWriter, typed, type Scope, type WritePlan, type WriteWait } from './storeWriter';

export { DB_NAME, DB_VERSION } from './storeSchema';
export type { EntryRecord, SessionMarks, SessionRecord } from './storeSchema';
export type { SessionHead } from './storeReads';
export type { CheckedAppend, CommitOutcome } from './storeAppend';
export { describeStorageError, StorageFailure } from './storeFailures';

import type { StoreFault } from '../protocol/vocabularies';
export type { StoreFault };

/** `onLost` and `onBlocked`: storeConnection.ts. */
export interface StoreHooks extends ConnectionHooks {
  /** What the write in progress waits for: the writer lease, IndexedDB, or nothing (null) once it is done. */
  readonly onWait?: (on: WriteWait) => void;
}

export interface StoreOptions {
  /**
   * The Web Locks to take the writer lease with: `navigator.locks` by default; null for none
   * (then every write reads the head it checks inside its transaction).
   */
  readonly locks?: LockManagerLike | null;
}

const WHOLE_SESSION: Scope = [SESSIONS, ENTRIES, SEGMENTS, IMPORTS];

/**
 * The IndexedDB journal. Layout and upgrades: storeSchema.ts, segments.ts, docs/persisted-format.md.
 * The connection and the other tabs: storeConnection.ts; reads: storeReads.ts; writes:
 * storeWriter.ts; the checked append: storeAppend.ts; failures and injected faults: storeFailures.ts.
 *
 * Every write goes through `write()` (storeWriter.ts): one at a time per store, under the writer
 * lease when the browser has Web Locks (storeLease.ts), as one readwrite transaction, with an
 * injected demo fault applied; a failure leaves nothing behind. The only other writer is the v1
 * migration, inside the upgrade transaction `connect()` is given, before this store exists.
 *
 * A checked commit decides on the stored head of its branch and appends within one write.
 * Records never change and only the lease holder writes, so a head this store wrote or read during
 * the current tenure is still the stored one: then the transaction only adds. Otherwise (a leaf
 * not seen this tenure, the first write after the lease changed hands, no Web Locks) the head is
 * read inside the same transaction as the append.
 */
export class JournalStore {
  private readonly writer: StoreWriter;

  private constructor(
    private readonly database: StoreConnection,
    private readonly known: KnownHeads,
    hooks: StoreHooks,
    private readonly lease: WriterLease | null,
  ) {
    this.writer = new StoreWriter(database, lease, (on) => hooks.onWait?.(on));
  }

  static async open(name = DB_NAME, hooks: StoreHooks = {}, options: StoreOptions = {}): Promise<JournalStore> {
    const known = new KnownHeads();
    const database = await StoreConnection.open(name, hooks, known);
    return new JournalStore(database, known, hooks, leaseFor(name, options.locks === undefined ? webLocks() : options.locks));
  }

  /** Opens the connection again after it was lost: a reopen's first step. */
  async reconnect(): Promise<void> {
    await this.database.reconnect();
  }

  close(): void {
    this.database.close();
    this.lease?.close();
  }

  private connection(): IDBPDatabase<PlaygroundDB> {
    return this.database.current();
  }

  /** Demo and test switch: the next write transaction fails (after its writes; `close` before them). */
  injectFault(fault: StoreFault | null): void {
    this.writer.injectFault(fault);
  }

  // ---- reads (storeReads.ts) ----

  async listSessions(): Promise<SessionRecord[]> {
    return reads.listSessions(this.connection());
  }

  /** One read of the session's last record, whatever the session's size. */
  async countEntries(sessionId: SessionId): Promise<number> {
    return reads.countEntries(this.connection(), sessionId);
  }

  async getSession(id: SessionId): Promise<SessionRecord | undefined> {
    return reads.getSession(this.connection(), id);
  }

  async lastSessionId(): Promise<SessionId | undefined> {
    return reads.lastSessionId(this.connection());
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
    return reads.getMeta(this.connection(), key);
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
  async loadHead(sessionId: SessionId): Promise<reads.SessionHead | null> {
    return reads.loadHead(this.connection(), sessionId);
  }

  /** Every entry of a session in append order: its segments, then its records; two range reads. */
  async loadJournalEntries(sessionId: SessionId): Promise<JournalEntry[]> {
    return reads.loadJournalEntries(this.connection(), sessionId);
  }

  // ---- writes (each through `write()`, storeWriter.ts) ----

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
    return this.write((epoch) => appendPlan(this.known, epoch, sessionId, leafId, decide));
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

  private write<T>(plan: (epoch: number | null) => WritePlan<T>): Promise<T> {
    return this.writer.write(plan);
  }
}
