import { asEntryId } from '$domain/ids';
import type { SessionHeader } from '$domain/journal/entry';
import type { SessionJournal } from '$domain/journal/journal';
import type { HostEntry, HostSessionManager } from '../../../../extension/ompApi';
import { withRefusals } from './apiRefusals';
import { lazyMembers } from './lazyMembers';

/** A node of `getTree()`: the entry, its children ordered by timestamp, its label if any. */
export interface HostTreeNode {
  readonly entry: HostEntry;
  readonly children: HostTreeNode[];
  readonly label: string | undefined;
}

/** The reads the page's host offers, beyond the slice Seed Desk declares (extension/ompApi.ts). */
export interface PageSessionManager extends HostSessionManager {
  /** The session file's path; undefined for a session kept in no file. */
  getSessionFile(): string | undefined;
  getHeader(): SessionHeader;
  getLeafId(): string | null;
  getLeafEntry(): HostEntry | undefined;
  getEntry(id: string): HostEntry | undefined;
  getLabel(id: string): string | undefined;
  getTree(): HostTreeNode[];
}

/**
 * `ctx.sessionManager`: OMP's read-only session manager over the open journal, read fresh at each
 * call (the journal changes on switch, fork, import, reopen). Each read answers as OMP 18.2.3's
 * `SessionManager` does (src/session/session-manager.ts); the reads a browser cannot answer (files,
 * directories, artifacts, blobs) throw their sentence from the API table.
 */
export function sessionReads(current: () => SessionJournal): PageSessionManager {
  const entries = () => current().entries() as readonly HostEntry[];
  return withRefusals('ctx.sessionManager', {
    getSessionId: () => current().sessionId,
    // A session OMP keeps in no file answers undefined; the page's live in IndexedDB.
    getSessionFile: () => undefined,
    getHeader: () => current().header,
    getLeafId: () => current().leafId,
    getLeafEntry: () => {
      const journal = current();
      return journal.leafId === null ? undefined : (journal.get(journal.leafId) as HostEntry | undefined);
    },
    getEntry: (id: string) => current().get(id) as HostEntry | undefined,
    getLabel: (id: string) => current().labelOf(asEntryId(id)),
    getBranch: (fromId?: string) => branchOf(current(), fromId),
    getEntries: () => [...entries()],
    getTree: () => treeOf(entries(), current()),
    // The page names no session (see `pi.getSessionName`): undefined, as OMP answers for an unnamed one.
    getSessionName: (): string | undefined => undefined,
    // Computed in a chunk of its own (lazyMembers.ts), loaded before any extension runs.
    getUsageStatistics: () => lazyMembers().usageOf(entries()),
  });
}

/** `getBranch(fromId?)`: root to leaf, header excluded; [] for a null leaf or an unknown id. */
function branchOf(journal: SessionJournal, fromId: string | undefined): HostEntry[] {
  if (fromId !== undefined && !journal.has(fromId)) return [];
  return journal.branch(fromId === undefined ? journal.leafId : journal.get(fromId)?.id ?? null) as HostEntry[];
}

/**
 * OMP's `getTree()` (SessionIndex.tree): a node per entry in file order, each under its parent; an
 * entry with no parent, its own parent or a parent not in the session is a root; then every node's
 * children are sorted by timestamp (a stable sort, so equal times keep file order).
 */
function treeOf(entries: readonly HostEntry[], journal: SessionJournal): HostTreeNode[] {
  const nodes = new Map<string, HostTreeNode>();
  for (const entry of entries) nodes.set(entry.id, { entry, children: [], label: journal.labelOf(asEntryId(entry.id)) });
  const roots: HostTreeNode[] = [];
  for (const entry of entries) {
    const node = nodes.get(entry.id);
    if (!node) continue;
    const parent = entry.parentId === null || entry.parentId === entry.id ? undefined : nodes.get(entry.parentId);
    (parent ? parent.children : roots).push(node);
  }
  for (const node of nodes.values()) node.children.sort((a, b) => new Date(a.entry.timestamp).getTime() - new Date(b.entry.timestamp).getTime());
  return roots;
}
