import { openDB, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
import type { EntryId, SessionId } from '$domain/ids';
import { isSeedDeskEntry, type JournalEntry, type SessionHeader } from '$domain/journal/entry';
import { branchStateFrom, foldDeskEntry, ROOT_LINK, type BranchState, type DeskLinkState } from '$domain/reconstruct';

/**
 * Persisted names. CHANGING ANY OF THESE LOSES DATA: an existing database would no longer be
 * found or read. A new layout needs a new DB_VERSION and an upgrade step (docs/persisted-format.md).
 */
export const DB_NAME = 'seed-desk-playground';
export const DB_VERSION = 1;
const SESSIONS = 'sessions';
const ENTRIES = 'entries';
const META = 'meta';
const BY_ID = 'byId';
const BY_PARENT = 'byParent';
const LAST_SESSION_KEY = 'lastSession';
/** IndexedDB keys cannot be null, so a root's parent key is this string. */
const ROOT_PARENT = '';

export interface SessionRecord {
  readonly id: SessionId;
  readonly header: SessionHeader;
  /** Entries appended so far; the next entry's `seq`. */
  readonly appendCount: number;
  readonly updatedAt: string;
}

/** One journal entry plus the derived desk index (rebuildable from the entries alone). */
export interface EntryRecord {
  readonly sessionId: SessionId;
  readonly seq: number;
  readonly id: EntryId;
  readonly parentKey: string;
  readonly entry: JournalEntry;
  readonly deskHead: EntryId | null;
  readonly deskLink: DeskLinkState | null;
}

interface PlaygroundDB extends DBSchema {
  sessions: { key: string; value: SessionRecord };
  entries: {
    key: [string, number];
    value: EntryRecord;
    indexes: { byId: [string, string]; byParent: [string, string] };
  };
  meta: { key: string; value: string };
}

type WriteTx = IDBPTransaction<PlaygroundDB, ['sessions', 'entries'], 'readwrite'>;

export type StoreFault = 'abort' | 'quota';

export class StorageFailure extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
  }
}

/** What a checked commit decided inside its transaction. */
export type CheckedAppend<R> =
  | { readonly append: false; readonly reason: R }
  | { readonly append: true; readonly entries: readonly JournalEntry[] };

export type CommitOutcome<R> =
  | { readonly kind: 'appended'; readonly records: readonly EntryRecord[] }
  | { readonly kind: 'declined'; readonly reason: R };

/**
 * The IndexedDB journal. Every write goes through `write()`: one readwrite transaction over
 * sessions and entries, so a change is checked and appended atomically, and a failure leaves
 * nothing behind.
 */
export class JournalStore {
  private fault: StoreFault | null = null;

  private constructor(private readonly db: IDBPDatabase<PlaygroundDB>) {}

  static async open(name = DB_NAME, hooks: { onVersionChange?: () => void } = {}): Promise<JournalStore> {
    const db = await openDB<PlaygroundDB>(name, DB_VERSION, {
      upgrade(database) {
        database.createObjectStore(SESSIONS, { keyPath: 'id' });
        const entries = database.createObjectStore(ENTRIES, { keyPath: ['sessionId', 'seq'] });
        entries.createIndex(BY_ID, ['sessionId', 'id'], { unique: true });
        entries.createIndex(BY_PARENT, ['sessionId', 'parentKey']);
        database.createObjectStore(META);
      },
      blocking() {
        hooks.onVersionChange?.();
      },
    });
    return new JournalStore(db);
  }

  close(): void {
    this.db.close();
  }

  /** Test-only switch: the next write transaction fails after doing its writes. */
  injectFault(fault: StoreFault | null): void {
    this.fault = fault;
  }

  async listSessions(): Promise<SessionRecord[]> {
    const all = await this.db.getAll(SESSIONS);
    return all.sort((a, b) => a.updatedAt.localeCompare(b.updatedAt));
  }

  async getSession(id: SessionId): Promise<SessionRecord | undefined> {
    return this.db.get(SESSIONS, id);
  }

  async lastSessionId(): Promise<SessionId | undefined> {
    return (await this.db.get(META, LAST_SESSION_KEY)) as SessionId | undefined;
  }

  async setLastSession(id: SessionId): Promise<void> {
    await this.db.put(META, id, LAST_SESSION_KEY);
  }

  /** Entries of a session in append order: one index range read, no scan of other sessions. */
  async loadEntries(sessionId: SessionId): Promise<EntryRecord[]> {
    return this.db.getAll(ENTRIES, IDBKeyRange.bound([sessionId, 0], [sessionId, Number.MAX_SAFE_INTEGER]));
  }

  async getEntry(sessionId: SessionId, id: string): Promise<EntryRecord | undefined> {
    return this.db.getFromIndex(ENTRIES, BY_ID, [sessionId, id]);
  }

  async childrenOf(sessionId: SessionId, id: EntryId | null): Promise<EntryRecord[]> {
    return this.db.getAllFromIndex(ENTRIES, BY_PARENT, [sessionId, id ?? ROOT_PARENT]);
  }

  /** A new session with its first entries (import, fork), all or nothing. */
  async createSession(header: SessionHeader, entries: readonly JournalEntry[] = []): Promise<SessionRecord> {
    return this.write(async (tx) => {
      const sessions = tx.objectStore(SESSIONS);
      if (await sessions.get(header.id)) throw new StorageFailure(`A session with id ${header.id} already exists.`);
      const record: SessionRecord = { id: header.id, header, appendCount: 0, updatedAt: new Date().toISOString() };
      return this.appendWithin(tx, record, entries).then(() => ({ ...record, appendCount: entries.length }));
    });
  }

  /** Plain append (conversation): no desk check, since conversation never changes the revision. */
  async append(sessionId: SessionId, entries: readonly JournalEntry[]): Promise<EntryRecord[]> {
    return this.write(async (tx) => {
      const session = await this.requireSession(tx, sessionId);
      return this.appendWithin(tx, session, entries);
    });
  }

  /**
   * The revision-checked commit. Inside ONE transaction: read the branch head at `leafId`,
   * rebuild its state from the stored index, let `decide` judge it synchronously, append what it
   * returns. Nothing between the check and the append waits on anything but this transaction.
   */
  async commitChecked<R>(
    sessionId: SessionId,
    leafId: EntryId | null,
    decide: (state: BranchState) => CheckedAppend<R>,
  ): Promise<CommitOutcome<R>> {
    return this.write(async (tx) => {
      const session = await this.requireSession(tx, sessionId);
      const state = await this.stateWithin(tx, sessionId, leafId);
      const verdict = decide(state);
      if (!verdict.append) return { kind: 'declined', reason: verdict.reason } as const;
      const records = await this.appendWithin(tx, session, verdict.entries);
      return { kind: 'appended', records } as const;
    });
  }

  async deleteSession(sessionId: SessionId): Promise<void> {
    await this.write(async (tx) => {
      await tx.objectStore(SESSIONS).delete(sessionId);
      await tx.objectStore(ENTRIES).delete(IDBKeyRange.bound([sessionId, 0], [sessionId, Number.MAX_SAFE_INTEGER]));
    });
  }

  /** The state of the branch ending at `leafId`, from the stored index: two reads at most. */
  private async stateWithin(tx: WriteTx, sessionId: SessionId, leafId: EntryId | null): Promise<BranchState> {
    if (leafId === null) return branchStateFrom(sessionId, null, ROOT_LINK);
    const entries = tx.objectStore(ENTRIES).index(BY_ID);
    const leaf = await entries.get([sessionId, leafId]);
    if (!leaf) throw new StorageFailure(`The leaf ${leafId} is not in the stored journal.`);
    if (leaf.deskHead === null) return branchStateFrom(sessionId, null, ROOT_LINK);
    const head = leaf.deskHead === leaf.id ? leaf : await entries.get([sessionId, leaf.deskHead]);
    return branchStateFrom(sessionId, leaf.deskHead, head?.deskLink ?? ROOT_LINK);
  }

  private async requireSession(tx: WriteTx, sessionId: SessionId): Promise<SessionRecord> {
    const session = await tx.objectStore(SESSIONS).get(sessionId);
    if (!session) throw new StorageFailure(`Session ${sessionId} is not in the database (was it deleted in another tab?).`);
    return session;
  }

  /** Appends in order, computing each record's desk index from its parent's. */
  private async appendWithin(tx: WriteTx, session: SessionRecord, entries: readonly JournalEntry[]): Promise<EntryRecord[]> {
    const store = tx.objectStore(ENTRIES);
    const byId = store.index(BY_ID);
    const fresh = new Map<string, EntryRecord>();
    const records: EntryRecord[] = [];
    let seq = session.appendCount;
    for (const entry of entries) {
      const parent =
        entry.parentId === null ? undefined : (fresh.get(entry.parentId) ?? (await byId.get([session.id, entry.parentId])));
      let deskLink: DeskLinkState | null = null;
      if (isSeedDeskEntry(entry)) {
        const above =
          parent?.deskHead == null
            ? ROOT_LINK
            : ((fresh.get(parent.deskHead) ?? (await byId.get([session.id, parent.deskHead])))?.deskLink ?? ROOT_LINK);
        deskLink = foldDeskEntry(above, entry);
      }
      const record: EntryRecord = {
        sessionId: session.id,
        seq: seq++,
        id: entry.id,
        parentKey: parent ? parent.id : ROOT_PARENT,
        entry,
        deskHead: deskLink ? entry.id : (parent?.deskHead ?? null),
        deskLink,
      };
      await store.add(record);
      fresh.set(record.id, record);
      records.push(record);
    }
    await tx.objectStore(SESSIONS).put({ ...session, appendCount: seq, updatedAt: new Date().toISOString() });
    return records;
  }

  private async write<T>(work: (tx: WriteTx) => Promise<T>): Promise<T> {
    const tx = this.db.transaction([SESSIONS, ENTRIES], 'readwrite');
    const fault = this.fault;
    this.fault = null;
    try {
      const result = await work(tx);
      if (fault) failDeliberately(tx, fault);
      await tx.done;
      return result;
    } catch (error) {
      try {
        tx.abort();
      } catch {
        // Already finished or aborted: nothing more to undo.
      }
      await tx.done.catch(() => undefined);
      if (error instanceof StorageFailure) throw error;
      throw new StorageFailure(describeStorageError(error), error);
    }
  }
}

function failDeliberately(tx: WriteTx, fault: StoreFault): never {
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
