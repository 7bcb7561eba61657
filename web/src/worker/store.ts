import { openDB, unwrap, type DBSchema, type IDBPDatabase, type IDBPTransaction } from 'idb';
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
const BY_SESSION = 'bySession';
const LAST_SESSION_KEY = 'lastSession';
const PROGRESS_EVERY = 2000;
/** IndexedDB keys cannot be null, so a root's parent key is this string. */
const ROOT_PARENT = '';

export interface SessionRecord {
  readonly id: SessionId;
  readonly header: SessionHeader;
  readonly createdAt: string;
}

/**
 * One journal entry plus the derived desk index, rebuildable from the entries alone:
 * `deskHead` is the nearest seed desk entry at or above this entry and `deskLink` the state of
 * the branch ending here. Records never change once written, so a branch head read in a commit
 * transaction is one index read.
 */
export interface EntryRecord {
  readonly sessionId: SessionId;
  /** Append order across the database (autoIncrement); within a session it is the file order. */
  readonly seq: number;
  readonly id: EntryId;
  readonly parentKey: string;
  readonly entry: JournalEntry;
  readonly deskHead: EntryId | null;
  readonly deskLink: DeskLinkState;
}

type NewEntryRecord = Omit<EntryRecord, 'seq'>;

interface PlaygroundDB extends DBSchema {
  sessions: { key: string; value: SessionRecord };
  entries: {
    key: number;
    value: EntryRecord;
    indexes: { byId: [string, string]; byParent: [string, string]; bySession: [string, number] };
  };
  meta: { key: string; value: string };
}

type WriteTx = IDBPTransaction<PlaygroundDB, ('sessions' | 'entries')[], 'readwrite'>;
type Scope = ('sessions' | 'entries')[];
const BOTH: Scope = [SESSIONS, ENTRIES];
const ENTRIES_ONLY: Scope = [ENTRIES];

export type StoreFault = 'abort' | 'quota' | 'close';

export interface StoreHooks {
  /** The connection is gone for good until a reconnect; writes must stop. */
  readonly onLost?: (reason: string) => void;
  /** Opening waits for another tab to let go of an older connection. */
  readonly onBlocked?: () => void;
}

function connect(name: string, events: { blocking: () => void; terminated: () => void; blocked: () => void }): Promise<IDBPDatabase<PlaygroundDB>> {
  return openDB<PlaygroundDB>(name, DB_VERSION, {
    upgrade(database) {
      database.createObjectStore(SESSIONS, { keyPath: 'id' });
      const entries = database.createObjectStore(ENTRIES, { keyPath: 'seq', autoIncrement: true });
      entries.createIndex(BY_ID, ['sessionId', 'id'], { unique: true });
      entries.createIndex(BY_PARENT, ['sessionId', 'parentKey']);
      entries.createIndex(BY_SESSION, ['sessionId', 'seq']);
      database.createObjectStore(META);
    },
    blocking: events.blocking,
    terminated: events.terminated,
    blocked: events.blocked,
  });
}

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

  private db: IDBPDatabase<PlaygroundDB> | null;
  /** Why the connection is gone (another tab upgraded or deleted the database, the browser closed it). */
  private lost: string | null = null;

  private constructor(
    db: IDBPDatabase<PlaygroundDB>,
    private readonly name: string,
    private readonly hooks: StoreHooks,
  ) {
    this.db = db;
  }

  static async open(name = DB_NAME, hooks: StoreHooks = {}): Promise<JournalStore> {
    let store: JournalStore | null = null;
    const db = await connect(name, JournalStore.connectionEvents(() => store, hooks));
    store = new JournalStore(db, name, hooks);
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
  }

  private loseConnection(reason: string): void {
    // Let go at once: the other tab's upgrade or deletion waits for every connection to close.
    this.db?.close();
    this.db = null;
    this.lost = reason;
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

  async listSessions(): Promise<SessionRecord[]> {
    const all = await this.connection().getAll(SESSIONS);
    return all.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  }

  async countEntries(sessionId: SessionId): Promise<number> {
    return this.connection().countFromIndex(ENTRIES, BY_SESSION, sessionRange(sessionId));
  }

  async getSession(id: SessionId): Promise<SessionRecord | undefined> {
    return this.connection().get(SESSIONS, id);
  }

  async lastSessionId(): Promise<SessionId | undefined> {
    return (await this.connection().get(META, LAST_SESSION_KEY)) as SessionId | undefined;
  }

  async setLastSession(id: SessionId): Promise<void> {
    await this.connection().put(META, id, LAST_SESSION_KEY);
  }

  /** Entries of a session in append order: one index range read, no scan of other sessions. */
  async loadEntries(sessionId: SessionId): Promise<EntryRecord[]> {
    return this.connection().getAllFromIndex(ENTRIES, BY_SESSION, sessionRange(sessionId));
  }

  async getEntry(sessionId: SessionId, id: string): Promise<EntryRecord | undefined> {
    return this.connection().getFromIndex(ENTRIES, BY_ID, [sessionId, id]);
  }

  async childrenOf(sessionId: SessionId, id: EntryId | null): Promise<EntryRecord[]> {
    return this.connection().getAllFromIndex(ENTRIES, BY_PARENT, [sessionId, id ?? ROOT_PARENT]);
  }

  /** A new session with its first entries (import, fork), all or nothing. */
  async createSession(header: SessionHeader, entries: readonly JournalEntry[] = [], onProgress?: (done: number, total: number) => void): Promise<SessionRecord> {
    return this.write(async (tx) => {
      const sessions = tx.objectStore(SESSIONS);
      if (await sessions.get(header.id)) throw new StorageFailure(`A session with id ${header.id} already exists.`);
      const record: SessionRecord = { id: header.id, header, createdAt: new Date().toISOString() };
      await sessions.add(record);
      await this.appendWithin(tx, header.id, null, entries, onProgress);
      return record;
    });
  }

  /** Plain append (conversation): no desk check, since conversation never changes the revision. */
  async append(sessionId: SessionId, leafId: EntryId | null, entries: readonly JournalEntry[]): Promise<EntryRecord[]> {
    return this.write(async (tx) => {
      const misplaced = firstNotOnLeaf(leafId, entries);
      if (misplaced) throw misplaced;
      const leaf = await this.readLeaf(tx, sessionId, leafId);
      return this.appendWithin(tx, sessionId, leaf, entries);
    });
  }

  /**
   * The revision-checked commit, in ONE transaction: read the branch head at `leafId`, let
   * `decide` judge that stored state synchronously, append what it returns. Nothing between the
   * check and the append waits on anything but this transaction.
   *
   * With `expected` (the state the caller's memory holds), an approving verdict is appended
   * speculatively: the head read and the adds are queued together and the transaction aborts
   * unless the stored head matches `expected`. Records never change once written, so a match
   * means `decide` saw exactly the stored state; a miss falls back to read-then-decide. This
   * saves one wait on the read, the difference between a checked commit and a bare one.
   */
  async commitChecked<R>(
    sessionId: SessionId,
    leafId: EntryId | null,
    decide: (state: BranchState) => CheckedAppend<R>,
    expected?: BranchState,
  ): Promise<CommitOutcome<R>> {
    const scope = leafId === null ? BOTH : ENTRIES_ONLY;
    if (expected && this.fault === null) {
      const verdict = decide(expected);
      if (verdict.append) {
        const records = await this.appendIfHeadIs(scope, sessionId, leafId, expected, verdict.entries);
        if (records) return { kind: 'appended', records };
      }
    }
    return this.write(async (tx) => {
      const leaf = await this.readLeaf(tx, sessionId, leafId);
      const verdict = decide(leaf ? branchStateFrom(sessionId, leaf.deskHead, leaf.deskLink) : branchStateFrom(sessionId, null, ROOT_LINK));
      if (!verdict.append) return { kind: 'declined', reason: verdict.reason } as const;
      const misplaced = firstNotOnLeaf(leafId, verdict.entries);
      if (misplaced) throw misplaced;
      const records = await this.appendWithin(tx, sessionId, leaf, verdict.entries);
      return { kind: 'appended', records } as const;
    }, scope);
  }

  /**
   * The speculative append, on the raw IndexedDB API: the head read and the adds leave in one
   * batch and nothing waits in between (the idb wrapper's promise hops cost a measurable share of
   * a commit here). Resolves null when the stored head is not the expected one: nothing was kept.
   */
  private appendIfHeadIs(scope: Scope, sessionId: SessionId, leafId: EntryId | null, expected: BranchState, entries: readonly JournalEntry[]): Promise<EntryRecord[] | null> {
    const parent = leafId === null ? undefined : { id: leafId, deskHead: expected.deskHead, deskLink: linkOf(expected) };
    const misplaced = firstNotOnLeaf(leafId, entries);
    if (misplaced) return Promise.reject(misplaced);
    const drafts = draftChain(sessionId, parent, entries);
    return new Promise((resolve, reject) => {
      let mismatch = false;
      let tx: IDBTransaction | undefined;
      try {
        const transaction = unwrap(this.connection()).transaction(scope, 'readwrite');
        tx = transaction;
        const store = transaction.objectStore(ENTRIES);
        const head = leafId === null ? transaction.objectStore(SESSIONS).get(sessionId) : store.index(BY_ID).get([sessionId, leafId]);
        const adds = drafts.map((draft) => store.add(draft));
        head.onsuccess = () => {
          const stored = head.result as EntryRecord | SessionRecord | undefined;
          const storedHead = stored === undefined ? undefined : leafId === null ? null : (stored as EntryRecord).deskHead;
          if (storedHead !== expected.deskHead) {
            mismatch = true;
            transaction.abort();
          }
        };
        transaction.oncomplete = () => resolve(drafts.map((draft, index) => ({ ...draft, seq: adds[index]?.result as number })));
      } catch (error) {
        // An add that throws at once (say, DataCloneError) must not let the earlier adds commit.
        try {
          tx?.abort();
        } catch {
          // Never started, or already finished.
        }
        reject(new StorageFailure(describeStorageError(error), error));
        return;
      }
      // A mismatch (or a missing head) is retried on the read-then-decide path, which reports it properly.
      const started = tx;
      started.onabort = () => (mismatch ? resolve(null) : reject(new StorageFailure(describeStorageError(started.error), started.error)));
    });
  }

  async deleteSession(sessionId: SessionId): Promise<void> {
    await this.write(async (tx) => {
      await tx.objectStore(SESSIONS).delete(sessionId);
      let cursor = await tx.objectStore(ENTRIES).index(BY_SESSION).openCursor(sessionRange(sessionId));
      while (cursor) {
        await cursor.delete();
        cursor = await cursor.continue();
      }
    });
  }

  /**
   * The branch head for a commit: the leaf's own record carries its desk state, so this is one
   * index read. A missing leaf (or, for an empty branch, a missing session) means the database
   * changed underneath this tab: the write must not go ahead.
   */
  private async readLeaf(tx: WriteTx, sessionId: SessionId, leafId: EntryId | null): Promise<EntryRecord | null> {
    if (leafId === null) {
      if (!(await tx.objectStore(SESSIONS).get(sessionId))) throw new StorageFailure(missingSession(sessionId));
      return null;
    }
    const leaf = await tx.objectStore(ENTRIES).index(BY_ID).get([sessionId, leafId]);
    if (!leaf) throw new StorageFailure(`The entry ${leafId} is not in the stored journal of session ${sessionId} (was the database cleared in another tab?).`);
    return leaf;
  }

  /** Appends in order; each record's desk index comes from its parent's (the leaf or this batch). */
  private async appendWithin(
    tx: WriteTx,
    sessionId: SessionId,
    leaf: EntryRecord | null,
    entries: readonly JournalEntry[],
    onProgress?: (done: number, total: number) => void,
  ): Promise<EntryRecord[]> {
    const store = tx.objectStore(ENTRIES);
    const drafts = draftChain(sessionId, leaf ?? undefined, entries);
    // Queue every add before waiting on any: a 100k-entry import is one batch, not 100k waits.
    let done = 0;
    const keys = await Promise.all(
      drafts.map((draft) =>
        store.add(draft as EntryRecord).then((key) => {
          done++;
          if (onProgress && (done % PROGRESS_EVERY === 0 || done === drafts.length)) onProgress(done, drafts.length);
          return key;
        }),
      ),
    );
    return drafts.map((draft, index) => ({ ...draft, seq: keys[index] as number }));
  }

  private async write<T>(work: (tx: WriteTx) => Promise<T>, scope: Scope = BOTH): Promise<T> {
    const fault = this.fault;
    this.fault = null;
    if (fault === 'close') this.loseConnection('The database connection was closed in the middle of a commit (injected for the demo).');
    const tx = this.connection().transaction(scope, 'readwrite');
    try {
      const result = await work(tx);
      if (fault && fault !== 'close') failDeliberately(tx, fault);
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

type DeskParent = Pick<EntryRecord, 'id' | 'deskHead' | 'deskLink'>;

/**
 * The records for a batch whose first entry hangs off `leaf`. A parent that is neither the leaf
 * nor an entry of the batch is an orphan reference from an import: kept as a root, as the host's
 * tree does. An import may name a parent on a later line (the importer leaves no loops): each
 * record is derived after its parent, as SessionJournal links it, and kept in file order.
 */
function draftChain(sessionId: SessionId, leaf: DeskParent | undefined, entries: readonly JournalEntry[]): NewEntryRecord[] {
  const known = new Map<string, DeskParent>();
  if (leaf) known.set(leaf.id, leaf);
  const drafts = new Map<string, NewEntryRecord>();
  for (const entry of parentsFirst(entries, leaf?.id)) {
    const parent = entry.parentId === null ? undefined : known.get(entry.parentId);
    const above = parent?.deskLink ?? ROOT_LINK;
    const isDesk = isSeedDeskEntry(entry);
    const draft: NewEntryRecord = {
      sessionId,
      id: entry.id,
      parentKey: parent ? parent.id : ROOT_PARENT,
      entry,
      deskHead: isDesk ? entry.id : (parent?.deskHead ?? null),
      deskLink: isDesk ? foldDeskEntry(above, entry) : above,
    };
    known.set(draft.id, draft);
    drafts.set(draft.id, draft);
  }
  return entries.map((entry) => drafts.get(entry.id) as NewEntryRecord);
}

/** The batch reordered so each entry follows its parent within the batch; file order otherwise. */
function parentsFirst(entries: readonly JournalEntry[], leafId: EntryId | undefined): readonly JournalEntry[] {
  const at = new Map<string, number>();
  entries.forEach((entry, index) => at.set(entry.id, index));
  const forward = entries.some((entry, index) => entry.parentId !== null && entry.parentId !== leafId && (at.get(entry.parentId) ?? -1) > index);
  if (!forward) return entries;
  const out: JournalEntry[] = [];
  const placed = new Set<string>();
  for (const entry of entries) {
    const chain: JournalEntry[] = [];
    for (let cursor: JournalEntry | undefined = entry; cursor && !placed.has(cursor.id); ) {
      placed.add(cursor.id);
      chain.push(cursor);
      const parentAt: number | undefined = cursor.parentId === null ? undefined : at.get(cursor.parentId);
      cursor = parentAt === undefined ? undefined : entries[parentAt];
    }
    out.push(...chain.reverse());
  }
  return out;
}

/**
 * Appends (not imports) must hang off the leaf they name: the derived index of a record is
 * computed from that leaf, so any other parent would index the entry wrongly.
 */
function firstNotOnLeaf(leafId: EntryId | null, entries: readonly JournalEntry[]): StorageFailure | null {
  const first = entries[0];
  if (!first || first.parentId === leafId) return null;
  return new StorageFailure(`Entry ${first.id} hangs off ${first.parentId ?? '(none)'}, not off the leaf ${leafId ?? '(none)'}: nothing was appended.`);
}

function linkOf(state: BranchState): DeskLinkState {
  return state.ok ? { ok: true, snapshot: state.snapshot } : { ok: false, corruptEntryId: state.corruptEntryId, problem: state.problem };
}

function sessionRange(sessionId: SessionId): IDBKeyRange {
  return IDBKeyRange.bound([sessionId, 0], [sessionId, Number.MAX_SAFE_INTEGER]);
}

function missingSession(sessionId: SessionId): string {
  return `Session ${sessionId} is not in the database (was it deleted in another tab?).`;
}

function failDeliberately(tx: WriteTx, fault: Exclude<StoreFault, 'close'>): never {
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
