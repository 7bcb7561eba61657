/**
 * Domain benchmark (issue 2): does the cost of a revision lookup and of reconstructing the
 * active branch follow the branch, not the journal? Journals of 1k, 10k and 100k entries share
 * the same active branch (same depth, same seed desk entries); the rest is sibling branches.
 * A naive "scan every entry, last snapshot wins" is the baseline the lesson warns against.
 */
import { rounds } from './limits';
import { asEntryId, asSessionId, seededIdSource, type EntryId } from '../domain/ids';
import { customEntry, sessionHeader, userMessageEntry, type JournalEntry } from '../domain/journal/entry';
import { SessionJournal } from '../domain/journal/journal';
import { reconstructBranch } from '../domain/reconstruct';
import { parseSnapshot, SEED_DESK_CUSTOM_TYPE } from '../domain/snapshot';
import { formatMicros, median, printTable, saveFigures, timeOp } from './stats';

const BRANCH_DEPTH = 200;
const DESK_EVERY = 10;
const SIZES = [1_000, 10_000, 100_000] as const;

function buildJournal(total: number): SessionJournal {
  const ids = seededIdSource(42);
  const sessionId = asSessionId('bench-session');
  const journal = SessionJournal.empty(sessionHeader(sessionId, ids.now(), '/bench'));
  let counter = 0;
  const nextId = (): EntryId => asEntryId((counter++).toString(16).padStart(8, '0'));
  const entryAt = (depth: number, parentId: EntryId | null): JournalEntry => {
    const place = { id: nextId(), parentId, timestamp: ids.now() };
    return depth % DESK_EVERY === DESK_EVERY - 1
      ? customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: true, quantities: { 'basil-genovese': (depth % 8) + 0 } }, place)
      : userMessageEntry(`message at depth ${depth}`, place);
  };
  // Side branches first: each hangs off a point of the (future) active path, so they are siblings.
  const active: EntryId[] = [];
  for (let depth = 0; depth < BRANCH_DEPTH; depth++) {
    const entry = entryAt(depth, journal.leafId);
    journal.append(entry);
    active.push(entry.id);
  }
  let fork = 0;
  while (journal.size < total) {
    const from = active[fork++ % active.length] ?? null;
    journal.moveLeaf(from);
    const length = Math.min(50, total - journal.size);
    for (let i = 0; i < length; i++) journal.append(entryAt(i + 3, journal.leafId));
  }
  journal.moveLeaf(active.at(-1) ?? null);
  return journal;
}

/** The instinct the lesson corrects: the latest snapshot in the whole file, whatever its branch. */
function naiveScan(journal: SessionJournal): unknown {
  let latest: unknown;
  for (const entry of journal.entries()) {
    if (entry.type === 'custom' && entry['customType'] === SEED_DESK_CUSTOM_TYPE) latest = entry['data'];
  }
  return parseSnapshot(latest);
}

interface Ratios {
  revision: number;
  state: number;
  walk: number;
  scan: number;
}

export function runDomainBench(): { rows: string[][]; ratios: Ratios } {
  const journals = SIZES.map((size) => ({ size, journal: buildJournal(size) }));
  const ops = journals.map(({ size, journal }) => {
    const leaf = journal.leafId;
    return {
      revision: () => timeOp(() => journal.revision(leaf), { batch: 20_000, samples: 15 }),
      state: () => timeOp(() => journal.state(leaf), { batch: 20_000, samples: 15 }),
      walk: () => timeOp(() => reconstructBranch(journal.sessionId, journal.branch(leaf)), { batch: 200, samples: 5 }),
      scan: () => timeOp(() => naiveScan(journal), { batch: size >= 100_000 ? 3 : size >= 10_000 ? 20 : 200, samples: 3 }),
    };
  });
  // Round-robin over the sizes so drift on a noisy machine hits every size alike; median of rounds.
  const ROUNDS = rounds(9, 1);
  const collected = ops.map(() => ({ revision: [] as number[], state: [] as number[], walk: [] as number[], scan: [] as number[] }));
  // Round -1 only warms up: every operation on every size runs before any is timed, so the JIT has
  // settled on code that serves all sizes (timing 1k first, while it still specialised, made 1k
  // look slower than 100k in some runs).
  for (let round = -1; round < ROUNDS; round++) {
    ops.forEach((op, i) => {
      if (round < 0) {
        op.revision();
        op.state();
        op.walk();
        return;
      }
      const bucket = collected[i]!;
      bucket.revision.push(op.revision());
      bucket.state.push(op.state());
      bucket.walk.push(op.walk());
      bucket.scan.push(op.scan());
    });
  }
  const results = journals.map(({ size, journal }, i) => ({
    size,
    depth: journal.branch().length,
    revision: median(collected[i]!.revision),
    state: median(collected[i]!.state),
    walk: median(collected[i]!.walk),
    scan: median(collected[i]!.scan),
  }));
  const rows = results.map((r) => [
    r.size.toLocaleString('en'),
    String(r.depth),
    formatMicros(r.revision),
    formatMicros(r.state),
    formatMicros(r.walk),
    formatMicros(r.scan),
  ]);
  const first = results[0]!;
  const last = results.at(-1)!;
  const ratios: Ratios = {
    revision: last.revision / first.revision,
    state: last.state / first.state,
    walk: last.walk / first.walk,
    scan: last.scan / first.scan,
  };
  rows.push(['t(100k)/t(1k)', '', ratios.revision.toFixed(2), ratios.state.toFixed(2), ratios.walk.toFixed(2), ratios.scan.toFixed(2)]);
  return { rows, ratios };
}

const isMain = process.argv[1]?.endsWith('domain.bench.ts');
if (isMain) {
  const { rows, ratios } = runDomainBench();
  printTable(
    `Domain (Node ${process.version}); medians; active branch depth ${BRANCH_DEPTH}, a seed desk entry every ${DESK_EVERY}`,
    ['entries', 'depth', 'revision lookup', 'state (index)', 'reconstruct (branch walk)', 'naive scan (baseline)'],
    rows,
  );
  const ok = ratios.revision <= 1.2 && ratios.state <= 1.2 && ratios.walk <= 1.2;
  const last = rows[rows.length - 2] ?? [];
  await saveFigures('domain', [
    { issue: 2, measure: 'revision lookup at 100k entries (median)', value: last[2] ?? '', target: '', met: null },
    { issue: 2, measure: 'revision lookup t(100k)/t(1k)', value: ratios.revision.toFixed(2), target: '≤ 1.2', met: ratios.revision <= 1.2 },
    { issue: 2, measure: 'active-branch state t(100k)/t(1k)', value: ratios.state.toFixed(2), target: '≤ 1.2', met: ratios.state <= 1.2 },
    { issue: 2, measure: 'branch-walk reconstruction t(100k)/t(1k)', value: ratios.walk.toFixed(2), target: '≤ 1.2', met: ratios.walk <= 1.2 },
    { issue: 2, measure: 'naive whole-file scan t(100k)/t(1k) (baseline)', value: ratios.scan.toFixed(0), target: '', met: null },
  ]);
  console.log(`\nTarget t(100k)/t(1k) ≤ 1.2 at equal depth: ${ok ? 'met' : 'NOT met'} (revision ${ratios.revision.toFixed(2)}, state ${ratios.state.toFixed(2)}, walk ${ratios.walk.toFixed(2)}; the naive scan grows ${ratios.scan.toFixed(0)}×)`);
}
