import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asEntryId, asSessionId, type EntryId } from '../ids';
import { SEED_DESK_CUSTOM_TYPE } from '../snapshot';
import {
  assistantMessageEntry,
  customEntry,
  labelEntry,
  sessionHeader,
  toolResultEntry,
  userMessageEntry,
  type JournalEntry,
} from './entry';
import { SessionJournal } from './journal';
import { filterRows, flattenTree, type TreeRow } from './treeLayout';

const SID = asSessionId('0f1e2d3c-aaaa-4bbb-8ccc-ddddeeeeffff');
const HEADER = sessionHeader(SID, '2026-05-01T12:00:00.000Z', '/lab');
const id = (value: string): EntryId => asEntryId(value);
/** Minute `n` after noon, so string order is time order. */
const at = (n: number): string => new Date(Date.UTC(2026, 4, 1, 12, n)).toISOString();

const user = (entryId: string, parentId: string | null, text: string, minute = 0): JournalEntry =>
  userMessageEntry(text, { id: id(entryId), parentId: parentId === null ? null : id(parentId), timestamp: at(minute) });
const assistant = (entryId: string, parentId: string | null, text: string, minute = 0): JournalEntry =>
  assistantMessageEntry([{ type: 'text', text }], { id: id(entryId), parentId: parentId === null ? null : id(parentId), timestamp: at(minute) });
const desk = (entryId: string, parentId: string | null, data: unknown, minute = 0): JournalEntry =>
  customEntry(SEED_DESK_CUSTOM_TYPE, data, { id: id(entryId), parentId: parentId === null ? null : id(parentId), timestamp: at(minute) });
const snap = (quantities: Record<string, number>, agentEnabled = false) => ({ version: 1, agentEnabled, quantities });

function journalOf(entries: readonly JournalEntry[], leaf?: string | null): SessionJournal {
  const journal = SessionJournal.fromEntries(HEADER, entries);
  if (leaf !== undefined) journal.moveLeaf(leaf === null ? null : id(leaf));
  return journal;
}

const ids = (rows: readonly TreeRow[]) => rows.map((row) => row.id as string);
const indents = (rows: readonly TreeRow[]) => rows.map((row) => row.indent);
const byId = (rows: readonly TreeRow[], entryId: string): TreeRow => {
  const row = rows.find((r) => r.id === entryId);
  if (!row) throw new Error(`no row ${entryId}`);
  return row;
};

/**
 * The brief's set definition, checked independently of the implementation: a row's display parent
 * is the nearest preceding row at indent - 1 (none at indent 0); rows with the same display parent
 * form one set, numbered in order.
 */
function expectAriaConsistent(rows: readonly TreeRow[]): void {
  const groups = new Map<string, TreeRow[]>();
  const lastAtIndent: (TreeRow | undefined)[] = [];
  rows.forEach((row, i) => {
    expect(row.level).toBe(row.indent + 1);
    expect(row.posInSet).toBeGreaterThanOrEqual(1);
    expect(row.posInSet).toBeLessThanOrEqual(row.setSize);
    if (i === 0) expect(row.indent).toBe(0);
    else expect(row.indent).toBeLessThanOrEqual((rows[i - 1] as TreeRow).indent + 1);
    const parent = row.indent === 0 ? undefined : lastAtIndent[row.indent - 1];
    if (row.indent > 0) expect(parent, `row ${row.id} has a display parent`).toBeDefined();
    const key = parent ? `${parent.id}@${rows.indexOf(parent)}` : '(top)';
    const group = groups.get(key) ?? [];
    group.push(row);
    groups.set(key, group);
    lastAtIndent[row.indent] = row;
    lastAtIndent.length = row.indent + 1;
  });
  for (const group of groups.values()) {
    group.forEach((row, i) => {
      expect(row.level).toBe((group[0] as TreeRow).level);
      expect(row.setSize).toBe(group.length);
      expect(row.posInSet).toBe(i + 1);
    });
  }
}

/** Every row's display parent must be one of its tree ancestors (the display never lies about structure). */
function expectDisplayParentsAreAncestors(journal: SessionJournal, rows: readonly TreeRow[]): void {
  const lastAtIndent: TreeRow[] = [];
  const rowById = new Map(rows.map((row) => [row.id as string, row]));
  for (const row of rows) {
    if (row.indent > 0) {
      const displayParent = lastAtIndent[row.indent - 1] as TreeRow;
      let cursor = row.parentId;
      while (cursor !== null && cursor !== displayParent.id) cursor = rowById.get(cursor)?.parentId ?? null;
      expect(cursor, `display parent of ${row.id} is an ancestor`).toBe(displayParent.id);
    }
    lastAtIndent[row.indent] = row;
    lastAtIndent.length = row.indent + 1;
  }
  expect(rows.length).toBe(journal.size);
}

describe('flattenTree layout', () => {
  it('gives an empty journal no rows', () => {
    expect(flattenTree(journalOf([]))).toEqual([]);
  });

  it('keeps a linear chain at indent 0, as one set, all on the active path', () => {
    const j = journalOf([user('u1', null, 'hi', 0), assistant('a1', 'u1', 'hello', 1), user('u2', 'a1', 'more', 2), assistant('a2', 'u2', 'ok', 3)]);
    const rows = flattenTree(j);
    expect(ids(rows)).toEqual(['u1', 'a1', 'u2', 'a2']);
    expect(indents(rows)).toEqual([0, 0, 0, 0]);
    expect(rows.map((r) => [r.level, r.posInSet, r.setSize])).toEqual([
      [1, 1, 4],
      [1, 2, 4],
      [1, 3, 4],
      [1, 4, 4],
    ]);
    expect(rows.map((r) => r.parentId)).toEqual([null, 'u1', 'a1', 'u2']);
    expect(rows.map((r) => r.role)).toEqual(['user', 'assistant', 'user', 'assistant']);
    expect(rows.map((r) => r.text)).toEqual(['hi', 'hello', 'more', 'ok']);
    expect(rows.every((r) => r.onActivePath)).toBe(true);
    expect(rows.map((r) => r.isLeaf)).toEqual([false, false, false, true]);
    expect(rows.map((r) => r.childCount)).toEqual([1, 1, 1, 0]);
    expect(rows.every((r) => r.revision === null && r.label === null && !r.isSeedDesk)).toBe(true);
    expectAriaConsistent(rows);
  });

  it('indents the children of a branch point by one and puts the active child first, whatever the timestamps', () => {
    // `late` is newer than `early`; the leaf is on `late`.
    const entries = [user('root', null, 'root', 0), assistant('early', 'root', 'early', 1), assistant('late', 'root', 'late', 2)];
    const onLate = flattenTree(journalOf(entries, 'late'));
    expect(ids(onLate)).toEqual(['root', 'late', 'early']);
    expect(indents(onLate)).toEqual([0, 1, 1]);
    expect(onLate.map((r) => [r.posInSet, r.setSize])).toEqual([
      [1, 1],
      [1, 2],
      [2, 2],
    ]);
    expect(onLate.map((r) => r.onActivePath)).toEqual([true, true, false]);
    expectAriaConsistent(onLate);

    const onEarly = flattenTree(journalOf(entries, 'early'));
    expect(ids(onEarly)).toEqual(['root', 'early', 'late']);
    // Leaf at the branch point itself: no child holds it, so timestamp order.
    expect(ids(flattenTree(journalOf(entries, 'root')))).toEqual(['root', 'early', 'late']);
  });

  it('orders siblings by timestamp, not append order, with ties in append order', () => {
    const entries = [
      user('root', null, 'root', 0),
      assistant('c', 'root', 'c', 5),
      assistant('a', 'root', 'a', 1),
      assistant('t1', 'root', 't1', 3),
      assistant('t2', 'root', 't2', 3),
    ];
    expect(ids(flattenTree(journalOf(entries, 'root')))).toEqual(['root', 'a', 't1', 't2', 'c']);
    // The active child jumps the queue; the rest keep their order.
    expect(ids(flattenTree(journalOf(entries, 't2')))).toEqual(['root', 't2', 'a', 't1', 'c']);
  });

  it('groups the first generation after a branch one level in, then stays flat (host rule)', () => {
    const j = journalOf(
      [
        user('root', null, 'root', 0),
        assistant('a', 'root', 'branch-a', 1),
        user('a2', 'a', 'after-a', 2),
        assistant('a3', 'a2', 'after-a-2', 3),
        assistant('b', 'root', 'branch-b', 4),
        user('b2', 'b', 'after-b', 5),
      ],
      'a3',
    );
    const rows = flattenTree(j);
    expect(ids(rows)).toEqual(['root', 'a', 'a2', 'a3', 'b', 'b2']);
    expect(indents(rows)).toEqual([0, 1, 2, 2, 1, 2]);
    // {root}, {a, b} under root, {a2, a3} under a (one set for the flat chain), {b2} under b.
    expect(rows.map((r) => [r.posInSet, r.setSize])).toEqual([
      [1, 1],
      [1, 2],
      [1, 2],
      [2, 2],
      [2, 2],
      [1, 1],
    ]);
    expectAriaConsistent(rows);
    expectDisplayParentsAreAncestors(j, rows);
  });

  it('nests branches inside branches', () => {
    const j = journalOf(
      [
        user('root', null, 'root', 0),
        assistant('a', 'root', 'a', 1),
        user('a1', 'a', 'a1', 2),
        user('a2', 'a', 'a2', 3),
        assistant('b', 'root', 'b', 4),
        assistant('a1x', 'a1', 'a1x', 5),
      ],
      'a2',
    );
    const rows = flattenTree(j);
    expect(ids(rows)).toEqual(['root', 'a', 'a2', 'a1', 'a1x', 'b']);
    expect(indents(rows)).toEqual([0, 1, 2, 2, 3, 1]);
    expect(rows.map((r) => r.childCount)).toEqual([2, 2, 0, 1, 0, 0]);
    expectAriaConsistent(rows);
    expectDisplayParentsAreAncestors(j, rows);
  });

  it('shows orphans as extra roots under a virtual root: roots at 0, their first generation at 1, active root first', () => {
    const j = journalOf(
      [
        user('r1', null, 'root-1', 0),
        assistant('r1a', 'r1', 'child-1', 1),
        user('r1b', 'r1a', 'grandchild-1', 2),
        // An orphan: its parent is not in the file.
        user('o1', 'gone0000', 'orphan', 3),
        assistant('o1a', 'o1', 'orphan child', 4),
      ],
      'o1a',
    );
    const rows = flattenTree(j);
    expect(ids(rows)).toEqual(['o1', 'o1a', 'r1', 'r1a', 'r1b']);
    expect(indents(rows)).toEqual([0, 1, 0, 1, 1]);
    expect(byId(rows, 'o1').parentId).toBeNull();
    expect(rows.map((r) => [r.posInSet, r.setSize])).toEqual([
      [1, 2],
      [1, 1],
      [2, 2],
      [1, 2],
      [2, 2],
    ]);
    expect(rows.map((r) => r.onActivePath)).toEqual([true, true, false, false, false]);
    expectAriaConsistent(rows);
    expectDisplayParentsAreAncestors(j, rows);
  });

  it('treats a self-parented entry as a root and nests one under a parent that comes later, like the journal', () => {
    const j = journalOf([user('late', 'early', 'points forward', 0), user('early', null, 'first', 1), user('self', 'self', 'self', 2)]);
    const rows = flattenTree(j, id('late'));
    expect(new Set(ids(rows))).toEqual(new Set(['late', 'early', 'self']));
    expect(byId(rows, 'late').parentId).toBe('early');
    expect(byId(rows, 'self').parentId).toBeNull();
    expect(rows.map((r) => r.onActivePath)).toEqual([true, true, false]);
    expectAriaConsistent(rows);
    expectDisplayParentsAreAncestors(j, rows);
  });

  it('has no active path and no leaf row for a null or unknown leaf; the leaf can be overridden', () => {
    const j = journalOf([user('u1', null, 'a', 0), assistant('a1', 'u1', 'b', 1)]);
    for (const leaf of [null, id('missing0')]) {
      const rows = flattenTree(j, leaf);
      expect(rows.some((r) => r.onActivePath || r.isLeaf)).toBe(false);
    }
    const rows = flattenTree(j, id('u1'));
    expect(rows.map((r) => [r.onActivePath, r.isLeaf])).toEqual([
      [true, true],
      [false, false],
    ]);
  });
});

describe('flattenTree row content', () => {
  it('shows global labels, whatever the branch of the label entry', () => {
    const j = journalOf([
      user('u1', null, 'start', 0),
      assistant('a1', 'u1', 'reply', 1),
      labelEntry(id('u1'), 'checkpoint', { id: id('l1'), parentId: id('a1'), timestamp: at(2) }),
    ]);
    const rows = flattenTree(j);
    expect(byId(rows, 'u1').label).toBe('checkpoint');
    expect(byId(rows, 'a1').label).toBeNull();
    expect(byId(rows, 'l1')).toMatchObject({ type: 'label', role: 'label', text: 'checkpoint' });
  });

  it('summarises seed desk entries and gives the revision each creates', () => {
    const j = journalOf([
      user('u1', null, 'reserve', 0),
      desk('d1', 'u1', snap({ 'bean-scarlet': 1, 'basil-genovese': 2 }, true), 1),
      desk('d2', 'd1', snap({}), 2),
      assistant('a1', 'd2', 'done', 3),
    ]);
    const rows = flattenTree(j);
    expect(byId(rows, 'd1')).toMatchObject({
      type: 'custom',
      role: 'seed-desk',
      isSeedDesk: true,
      text: 'basil-genovese 2, bean-scarlet 1 · agent on',
      revision: `${SID}:d1`,
    });
    expect(byId(rows, 'd2')).toMatchObject({ text: 'nothing reserved · agent off', revision: `${SID}:d2` });
    expect(byId(rows, 'a1').revision).toBeNull();
  });

  it('says "invalid snapshot" for an entry whose own data fails, and still shows a valid entry below it', () => {
    const j = journalOf([
      desk('bad', null, snap({ 'marigold-french': 9 }), 0),
      desk('good', 'bad', snap({ 'marigold-french': 3 }), 1),
      desk('bad2', 'good', { nonsense: true }, 2),
    ]);
    const rows = flattenTree(j);
    expect(byId(rows, 'bad').text).toBe('invalid snapshot');
    expect(byId(rows, 'good').text).toBe('marigold-french 3 · agent off');
    expect(byId(rows, 'bad2').text).toBe('invalid snapshot');
    expect(byId(rows, 'good').revision).toBe(`${SID}:good`);
  });

  it('gives roles and texts for the other entry types', () => {
    const j = journalOf([
      user('u1', null, 'go', 0),
      assistantMessageEntry([{ type: 'toolCall', id: 'c1', name: 'seed_desk', arguments: {} }], { id: id('a1'), parentId: id('u1'), timestamp: at(1) }, 'toolUse'),
      toolResultEntry({ toolCallId: 'c1', toolName: 'seed_desk', content: [{ type: 'text', text: 'ok' }], details: {}, isError: false }, { id: id('t1'), parentId: id('a1'), timestamp: at(2) }),
      customEntry('other-ext', { x: 1 }, { id: id('c1'), parentId: id('t1'), timestamp: at(3) }),
      { type: 'custom_message', customType: 'note', content: 'a note', display: true, id: id('m1'), parentId: id('c1'), timestamp: at(4) },
      { type: 'model_change', provider: 'p', modelId: 'm', id: id('mc'), parentId: id('m1'), timestamp: at(5) },
      { type: 'thinking_level_change', thinkingLevel: 'high', id: id('tl'), parentId: id('mc'), timestamp: at(6) },
      { type: 'compaction', summary: 's', firstKeptEntryId: 'u1', tokensBefore: 12345, id: id('cp'), parentId: id('tl'), timestamp: at(7) },
      { type: 'branch_summary', fromId: 'cp', summary: 'went left', id: id('bs'), parentId: id('cp'), timestamp: at(8) },
      labelEntry(id('u1'), undefined, { id: id('lc'), parentId: id('bs'), timestamp: at(9) }),
      { type: 'mystery', id: id('my'), parentId: id('lc'), timestamp: at(10) },
    ] as JournalEntry[]);
    const rows = flattenTree(j);
    expect(rows.map((r) => [r.id, r.role, r.text])).toEqual([
      ['u1', 'user', 'go'],
      ['a1', 'assistant', '[tool call: seed_desk]'],
      ['t1', 'toolResult', 'ok'],
      ['c1', 'custom', 'other-ext'],
      ['m1', 'custom_message', 'a note'],
      ['mc', 'model_change', 'p/m'],
      ['tl', 'thinking_level_change', 'high'],
      ['cp', 'compaction', '12k tokens'],
      ['bs', 'branch_summary', 'went left'],
      ['lc', 'label', '(cleared)'],
      ['my', 'mystery', ''],
    ]);
    expect(rows.some((r) => r.isSeedDesk)).toBe(false);
  });
});

describe('filterRows', () => {
  const j = journalOf(
    [
      user('u1', null, 'q', 0),
      desk('d1', 'u1', snap({ 'basil-genovese': 1 }), 1),
      assistant('a1', 'd1', 'r', 2),
      customEntry('other-ext', {}, { id: id('x1'), parentId: id('a1'), timestamp: at(3) }),
      desk('d2', 'a1', snap({ 'basil-genovese': 2 }), 4),
      labelEntry(id('u1'), 'here', { id: id('lb'), parentId: id('d2'), timestamp: at(5) }),
    ],
    'x1',
  );
  const rows = flattenTree(j);

  it('returns every row for all', () => {
    expect(filterRows(rows, 'all')).toEqual(rows);
  });

  it('keeps messages for conversation, plus the leaf, with indents unchanged and sets recomputed', () => {
    const kept = filterRows(rows, 'conversation');
    expect(ids(kept)).toEqual(['u1', 'a1', 'x1']);
    for (const row of kept) expect(row.indent).toBe(byId(rows, row.id).indent);
    expectAriaConsistentForFiltered(kept);
  });

  it('keeps seed desk entries for seed-desk, plus the leaf', () => {
    const kept = filterRows(rows, 'seed-desk');
    expect(ids(kept)).toEqual(['d1', 'x1', 'd2']);
    expect(kept.map((r) => r.indent)).toEqual([0, 1, 1]);
    expect(kept.map((r) => [r.posInSet, r.setSize])).toEqual([
      [1, 1],
      [1, 2],
      [2, 2],
    ]);
  });

  it('does not touch its input', () => {
    const before = structuredClone(rows);
    filterRows(rows, 'seed-desk');
    filterRows(rows, 'conversation');
    expect(rows).toEqual(before);
  });
});

/**
 * After a filter, indents may skip levels, so the display parent is the nearest preceding row with a
 * smaller indent; sets are the rows sharing it and their indent.
 */
function expectAriaConsistentForFiltered(rows: readonly TreeRow[]): void {
  const groups = new Map<string, TreeRow[]>();
  rows.forEach((row, i) => {
    let p = i - 1;
    while (p >= 0 && (rows[p] as TreeRow).indent >= row.indent) p--;
    const key = `${p}:${row.indent}`;
    groups.set(key, [...(groups.get(key) ?? []), row]);
  });
  for (const group of groups.values()) {
    group.forEach((row, i) => expect([row.posInSet, row.setSize, row.level]).toEqual([i + 1, group.length, row.indent + 1]));
  }
}

// ---------------------------------------------------------------- random trees against the host's recursive walk

/** The host's `template.js` `flattenTree`, recursive, on a `getTree`-style tree: the oracle. */
function hostReference(journal: SessionJournal, leafId: EntryId | null): { id: string; indent: number }[] {
  interface Node {
    id: EntryId;
    timestamp: string;
    seq: number;
    children: Node[];
  }
  const nodes = new Map<string, Node>();
  for (const entry of journal.entries()) nodes.set(entry.id, { id: entry.id, timestamp: entry.timestamp ?? '', seq: journal.seqOf(entry.id) ?? 0, children: [] });
  const roots: Node[] = [];
  for (const entry of journal.entries()) {
    const node = nodes.get(entry.id) as Node;
    const parent = entry.parentId === null ? undefined : nodes.get(entry.parentId);
    // Host getTree: any known parent but itself (a parent on a later line included).
    if (parent && parent !== node) parent.children.push(node);
    else roots.push(node);
  }
  const byTime = (a: Node, b: Node) => (a.timestamp < b.timestamp ? -1 : a.timestamp > b.timestamp ? 1 : a.seq - b.seq);
  const sortAll = (list: Node[]) => {
    list.sort(byTime);
    for (const node of list) sortAll(node.children);
  };
  sortAll(roots);
  const containsActive = new Map<Node, boolean>();
  const mark = (node: Node): boolean => {
    let has = node.id === leafId;
    for (const child of node.children) if (mark(child)) has = true;
    containsActive.set(node, has);
    return has;
  };
  roots.forEach(mark);
  const activeFirst = (list: Node[]) => [...list.filter((n) => containsActive.get(n)), ...list.filter((n) => !containsActive.get(n))];
  const result: { id: string; indent: number }[] = [];
  const multipleRoots = roots.length > 1;
  const walk = (list: Node[], indent: number, justBranched: boolean) => {
    for (const node of activeFirst(list)) {
      result.push({ id: node.id, indent: multipleRoots ? Math.max(0, indent - 1) : indent });
      const multipleChildren = node.children.length > 1;
      const childIndent = multipleChildren || (justBranched && indent > 0) ? indent + 1 : indent;
      walk(node.children, childIndent, multipleChildren);
    }
  };
  walk(roots, multipleRoots ? 1 : 0, multipleRoots);
  return result;
}

const treeArb = fc
  .array(
    fc.record({
      parent: fc.oneof(fc.constant(-1), fc.nat({ max: 60 }), fc.constant(-2)), // -1 root, -2 orphan
      minute: fc.nat({ max: 5 }),
      kind: fc.constantFrom('user', 'assistant', 'desk', 'custom'),
    }),
    { minLength: 0, maxLength: 40 },
  )
  .chain((specs) => fc.tuple(fc.constant(specs), fc.option(fc.nat({ max: Math.max(0, specs.length - 1) }), { nil: null })));

function buildRandom(specs: readonly { parent: number; minute: number; kind: string }[]): JournalEntry[] {
  return specs.map((spec, i) => {
    const entryId = `e${String(i).padStart(7, '0')}`;
    const parentId = spec.parent === -1 || i === 0 ? null : spec.parent === -2 ? 'nowhere0' : `e${String(spec.parent % i).padStart(7, '0')}`;
    if (spec.kind === 'desk') return desk(entryId, parentId, i % 5 === 0 ? { bad: true } : snap({ 'bean-scarlet': i % 6 }), spec.minute);
    if (spec.kind === 'custom') return customEntry('other', {}, { id: id(entryId), parentId: parentId === null ? null : id(parentId), timestamp: at(spec.minute) });
    return spec.kind === 'user' ? user(entryId, parentId, entryId, spec.minute) : assistant(entryId, parentId, entryId, spec.minute);
  });
}

describe('flattenTree on random trees', () => {
  it('matches the host walk, keeps ARIA sets consistent and display parents truthful; filters stay consistent', () => {
    fc.assert(
      fc.property(treeArb, ([specs, leafPick]) => {
        const entries = buildRandom(specs);
        const j = journalOf(entries, leafPick === null ? null : (entries[leafPick]?.id ?? null));
        const rows = flattenTree(j);
        expect(rows.map((r) => ({ id: r.id as string, indent: r.indent }))).toEqual(hostReference(j, j.leafId));
        expectAriaConsistent(rows);
        expectDisplayParentsAreAncestors(j, rows);
        const activeIds = new Set(j.branch().map((e) => e.id as string));
        for (const row of rows) {
          expect(row.onActivePath).toBe(activeIds.has(row.id));
          expect(row.isLeaf).toBe(row.id === j.leafId);
          expect(row.childCount).toBe(j.childrenOf(row.id).length);
        }
        for (const filter of ['conversation', 'seed-desk'] as const) {
          const kept = filterRows(rows, filter);
          if (j.leafId !== null) expect(kept.some((r) => r.id === j.leafId)).toBe(true);
          expectAriaConsistentForFiltered(kept);
        }
      }),
      { seed: 20260501, numRuns: 300 },
    );
  });
});

// ---------------------------------------------------------------- size

function chain(length: number): JournalEntry[] {
  const entries: JournalEntry[] = [];
  for (let i = 0; i < length; i++) {
    const entryId = `c${String(i).padStart(7, '0')}`;
    const parentId = i === 0 ? null : `c${String(i - 1).padStart(7, '0')}`;
    entries.push(i % 2 === 0 ? user(entryId, parentId, `u${i}`) : assistant(entryId, parentId, `a${i}`));
  }
  return entries;
}

/** A bushy session: a conversation with a desk entry every 10th step and a side branch every 50th. */
function bushy(size: number): JournalEntry[] {
  const entries: JournalEntry[] = [];
  let tip: string | null = null;
  for (let i = 0; entries.length < size; i++) {
    const entryId = `b${String(i).padStart(7, '0')}`;
    const minute = i % 60;
    if (i % 50 === 49 && tip !== null) {
      const parent = entries[Math.floor(entries.length / 2)]?.id ?? tip;
      entries.push(user(entryId, parent, `side ${i}`, minute));
      continue;
    }
    entries.push(i % 10 === 0 ? desk(entryId, tip, snap({ 'basil-genovese': i % 9 }, i % 20 === 0), minute) : user(entryId, tip, `m ${i}`, minute));
    tip = entryId;
  }
  return entries;
}

describe('flattenTree at size', () => {
  it('lays out a 100k-deep chain without overflowing the stack', () => {
    const j = journalOf(chain(100_000));
    const started = performance.now();
    const rows = flattenTree(j);
    const took = performance.now() - started;
    expect(rows.length).toBe(100_000);
    expect(rows.every((r) => r.indent === 0 && r.setSize === 100_000)).toBe(true);
    expect(rows.at(-1)?.isLeaf).toBe(true);
    expect(took).toBeLessThan(3000);
    // Building the 100k-entry journal first takes seconds of its own on a loaded machine: only the layout is timed.
  }, 30_000);

  it('lays out 10k bushy entries in well under 200 ms', () => {
    const j = journalOf(bushy(10_000));
    flattenTree(journalOf(bushy(500))); // warm up
    const started = performance.now();
    const rows = flattenTree(j);
    const took = performance.now() - started;
    expect(rows.length).toBe(10_000);
    expect(took).toBeLessThan(200);
    expectAriaConsistentForFiltered(filterRows(rows, 'seed-desk'));
  });
});
