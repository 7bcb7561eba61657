/**
 * The host's tree view as flat rows (OMP-5.7 `tree-selector.ts` `flattenTree`, mirrored by the HTML
 * export's `template.js`), plus what the playground adds to each row: desk summaries, revisions and
 * ARIA tree values.
 *
 * Layout rules, as the host's code has them:
 * - roots are `childrenOf(null)` (orphans included); children are ordered by timestamp (ISO string
 *   compare, ties in append order), and at every level the child whose subtree holds the active
 *   leaf moves to the front;
 * - depth-first; a node with more than one child indents its children by one level; the single
 *   child of a node that itself sits right after a branch gets one more level ("first generation
 *   after a branch: +1 for visual grouping"); any other single-child chain stays at its indent;
 * - several roots are treated as the children of a virtual branching root one level above the
 *   display (host: internal indent 1, shown at `indent - 1`). So the roots show at indent 0, and a
 *   root's first generation is grouped at indent 1, exactly as below a real branch point.
 *
 * Iterative throughout (an explicit stack): a 100k-deep chain does not touch the call stack.
 * O(n) apart from sorting the children of branch points by timestamp (O(n log n) at worst).
 *
 * This module runs in the worker: it imports `parseSnapshot` (zod) for a rare case only (a valid
 * desk entry below a corrupt one), but the import is static, so keep it off the main thread.
 */
import { FIXTURE_IDS } from '../fixture';
import type { EntryId, Revision } from '../ids';
import { parseSnapshot, reservedOf, type Snapshot } from '../snapshot';
import { entryText, entryTypeOf, isSeedDeskEntry, messageRole, type JournalEntry } from './entry';
import type { SessionJournal } from './journal';

export interface TreeRow {
  readonly id: EntryId;
  /** The tree parent: null for a root, including an orphan whose stored parentId is unknown. */
  readonly parentId: EntryId | null;
  /** Display indent (0-based), after the virtual-root shift. */
  readonly indent: number;
  /** The entry's `type`. */
  readonly type: string;
  /** Message role for a message (`'message'` if it has none), `'seed-desk'` for a seed desk entry, else the entry type. */
  readonly role: string;
  /** See `entryDisplayText`. */
  readonly text: string;
  readonly isSeedDesk: boolean;
  /** For a seed desk entry, the revision it creates (`journal.revision(id)`); null for every other row. */
  readonly revision: Revision | null;
  /** The global label on this entry (`journal.labelOf`), or null. */
  readonly label: string | null;
  /** On `branch(leafId)`. */
  readonly onActivePath: boolean;
  /** This is the active leaf. */
  readonly isLeaf: boolean;
  /** Tree children (not display children), whatever their indent. */
  readonly childCount: number;
  /** ARIA `aria-level`: `indent + 1`. */
  readonly level: number;
  /** ARIA `aria-posinset` (1-based) within the row's set; see `assignSets`. */
  readonly posInSet: number;
  /** ARIA `aria-setsize`. */
  readonly setSize: number;
}

export type TreeFilter = 'all' | 'conversation' | 'seed-desk';

type MutableRow = { -readonly [K in keyof TreeRow]: TreeRow[K] };

/** `basil-genovese 2, bean-scarlet 1 · agent on`; `nothing reserved · agent off` for an empty desk. */
function deskSummary(snapshot: Snapshot): string {
  const held: string[] = [];
  for (const id of FIXTURE_IDS) {
    const count = reservedOf(snapshot, id);
    if (count > 0) held.push(`${id} ${count}`);
  }
  return `${held.length > 0 ? held.join(', ') : 'nothing reserved'} · agent ${snapshot.agentEnabled ? 'on' : 'off'}`;
}

/** Message role, `'seed-desk'`, or the entry type. */
export function entryRoleOf(entry: JournalEntry): string {
  if (isSeedDeskEntry(entry)) return 'seed-desk';
  if (entry.type === 'message') return messageRole(entry) ?? 'message';
  return entryTypeOf(entry);
}

/**
 * What a row shows after its role:
 * - message / custom_message: `entryText`;
 * - seed desk entry: the desk it writes (`deskSummary`), or `invalid snapshot` when its own data
 *   fails validation (a valid entry below a corrupt one still shows its own data);
 * - the host's other display strings, without their brackets: a custom entry's `customType`, a
 *   label's text or `(cleared)`, a branch summary's text, a compaction's `Nk tokens`, a model
 *   change's model, a thinking level change's level; anything else `''`.
 */
export function entryDisplayText(journal: SessionJournal, entry: JournalEntry): string {
  if (isSeedDeskEntry(entry)) return deskEntryText(journal, entry);
  switch (entry.type) {
    case 'message':
    case 'custom_message':
      return entryText(entry);
    case 'custom':
      return stringField(entry, 'customType');
    case 'label': {
      const label = stringField(entry, 'label');
      return label.length > 0 ? label : '(cleared)';
    }
    case 'branch_summary':
      return stringField(entry, 'summary');
    case 'compaction': {
      const tokens = entry['tokensBefore'];
      return typeof tokens === 'number' && Number.isFinite(tokens) ? `${Math.round(tokens / 1000)}k tokens` : '';
    }
    case 'model_change': {
      const provider = stringField(entry, 'provider');
      const modelId = stringField(entry, 'modelId');
      if (modelId.length > 0) return provider.length > 0 ? `${provider}/${modelId}` : modelId;
      return stringField(entry, 'model');
    }
    case 'thinking_level_change':
      return stringField(entry, 'thinkingLevel');
    default:
      return '';
  }
}

function stringField(entry: JournalEntry, key: string): string {
  const value = entry[key];
  return typeof value === 'string' ? value : '';
}

function deskEntryText(journal: SessionJournal, entry: JournalEntry): string {
  const state = journal.state(entry.id);
  if (state.ok) return deskSummary(state.snapshot);
  if (state.corruptEntryId === entry.id) return 'invalid snapshot';
  // A corrupt ancestor keeps the branch corrupt, so the index never parsed this entry's own data.
  const own = parseSnapshot(entry['data']);
  return own.ok ? deskSummary(own.snapshot) : 'invalid snapshot';
}

/** Timestamp order (stable, so ties keep append order), then the child on the active path first. */
function orderChildren(journal: SessionJournal, ids: readonly EntryId[], active: ReadonlySet<string>): readonly EntryId[] {
  if (ids.length <= 1) return ids;
  const stamps = ids.map((id) => journal.get(id)?.timestamp ?? '');
  let sorted = true;
  for (let i = 1; i < stamps.length && sorted; i++) sorted = (stamps[i - 1] as string) <= (stamps[i] as string);
  let ordered: EntryId[];
  if (sorted) {
    ordered = [...ids];
  } else {
    const order = ids.map((_, i) => i).sort((a, b) => {
      const x = stamps[a] as string;
      const y = stamps[b] as string;
      return x < y ? -1 : x > y ? 1 : a - b;
    });
    ordered = order.map((i) => ids[i] as EntryId);
  }
  const activeAt = ordered.findIndex((id) => active.has(id));
  if (activeAt > 0) ordered.unshift(...ordered.splice(activeAt, 1));
  return ordered;
}

/**
 * The whole tree as display rows, depth-first, for the branch ending at `leafId` (the journal's
 * leaf by default). An unknown or null `leafId` gives no active path and no leaf row.
 */
export function flattenTree(journal: SessionJournal, leafId: EntryId | null = journal.leafId): TreeRow[] {
  const active = new Set<string>();
  for (const entry of journal.branch(leafId)) active.add(entry.id);
  const leaf = leafId !== null && active.has(leafId) ? leafId : null;

  const roots = orderChildren(journal, journal.childrenOf(null), active);
  const multipleRoots = roots.length > 1;
  // Host coordinates: with a virtual root the roots sit at 1 and the display is shifted left by 1.
  const shift = multipleRoots ? 1 : 0;

  // The explicit stack, as parallel arrays (cheaper than one object per frame).
  const stackId: EntryId[] = [];
  const stackParent: (EntryId | null)[] = [];
  const stackIndent: number[] = [];
  const stackBranched: boolean[] = [];
  for (let i = roots.length - 1; i >= 0; i--) {
    stackId.push(roots[i] as EntryId);
    stackParent.push(null);
    stackIndent.push(shift);
    stackBranched.push(multipleRoots);
  }

  const rows: MutableRow[] = [];
  while (stackId.length > 0) {
    const id = stackId.pop() as EntryId;
    const parentId = stackParent.pop() as EntryId | null;
    const indent = stackIndent.pop() as number;
    const justBranched = stackBranched.pop() as boolean;
    const entry = journal.get(id);
    if (!entry) continue; // cannot happen: childrenOf only lists indexed entries
    const children = journal.childrenOf(id);
    const seedDesk = isSeedDeskEntry(entry);
    const displayIndent = indent - shift;
    rows.push({
      id,
      parentId,
      indent: displayIndent,
      type: entryTypeOf(entry),
      role: entryRoleOf(entry),
      text: entryDisplayText(journal, entry),
      isSeedDesk: seedDesk,
      revision: seedDesk ? journal.revision(id) : null,
      label: journal.labelOf(id) ?? null,
      onActivePath: active.has(id),
      isLeaf: id === leaf,
      childCount: children.length,
      level: displayIndent + 1,
      posInSet: 0,
      setSize: 0,
    });
    if (children.length === 0) continue;
    const branches = children.length > 1;
    const childIndent = branches || (justBranched && indent > 0) ? indent + 1 : indent;
    const ordered = orderChildren(journal, children, active);
    for (let i = ordered.length - 1; i >= 0; i--) {
      stackId.push(ordered[i] as EntryId);
      stackParent.push(id);
      stackIndent.push(childIndent);
      stackBranched.push(branches);
    }
  }
  assignSets(rows);
  return rows;
}

/**
 * ARIA sets over a row sequence, the way a flat `role="tree"` with `aria-level` is read: a row's
 * display parent is the nearest preceding row with a smaller indent (none for a top-level row), and
 * the rows with the same display parent and the same indent form one set. In `flattenTree` output an
 * indent never rises by more than one from a row to the next, so the display parent is exactly the
 * nearest preceding row at `indent - 1`, and a chain that stays flat after a branch is one set under
 * the row that opened it. Filtered rows may skip levels; the same rule still gives consistent sets.
 */
function assignSets(rows: MutableRow[]): void {
  // Open sets, innermost last: the indent and the rows collected so far.
  const openIndent: number[] = [];
  const openMembers: MutableRow[][] = [];
  const close = (): void => {
    openIndent.pop();
    const members = openMembers.pop() as MutableRow[];
    for (const row of members) row.setSize = members.length;
  };
  for (const row of rows) {
    while (openIndent.length > 0 && (openIndent[openIndent.length - 1] as number) > row.indent) close();
    if (openIndent.length > 0 && openIndent[openIndent.length - 1] === row.indent) {
      const members = openMembers[openMembers.length - 1] as MutableRow[];
      members.push(row);
      row.posInSet = members.length;
    } else {
      openIndent.push(row.indent);
      openMembers.push([row]);
      row.posInSet = 1;
    }
  }
  while (openIndent.length > 0) close();
}

const CONVERSATION_ROLES: ReadonlySet<string> = new Set(['user', 'assistant', 'toolResult']);

function keeps(filter: TreeFilter, row: TreeRow): boolean {
  if (row.isLeaf || filter === 'all') return true;
  if (filter === 'seed-desk') return row.isSeedDesk;
  return row.type === 'custom_message' || (row.type === 'message' && CONVERSATION_ROLES.has(row.role));
}

/**
 * The rows a filter shows, in order, indents unchanged; the active leaf always stays.
 * `conversation` keeps user/assistant/toolResult messages and custom_message entries; `seed-desk`
 * keeps seed desk entries. ARIA sets are recomputed over the kept rows (new row objects; the input
 * is not touched); `all` returns a copy of the array with the same rows.
 */
export function filterRows(rows: readonly TreeRow[], filter: TreeFilter): TreeRow[] {
  if (filter === 'all') return [...rows];
  const kept: MutableRow[] = [];
  for (const row of rows) if (keeps(filter, row)) kept.push({ ...row });
  assignSets(kept);
  return kept;
}
