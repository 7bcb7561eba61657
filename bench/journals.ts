/**
 * Generated journals for the storage benchmarks, the same in Node (files for the real host) and in
 * the browser (sessions for the store). Deterministic: a seed gives the same entries, ids and text.
 */
import { asEntryId, asSessionId, type EntryId } from '../domain/ids';
import { assistantMessageEntry, customEntry, sessionHeader, userMessageEntry, type JournalEntry, type SessionHeader } from '../domain/journal/entry';
import { toSessionJsonl } from '../domain/journal/exportJsonl';
import { SEED_DESK_CUSTOM_TYPE } from '../domain/snapshot';

export interface GeneratedJournal {
  readonly header: SessionHeader;
  readonly entries: JournalEntry[];
}

const WORDS = ['sow', 'basil', 'bean', 'marigold', 'bed', 'packet', 'reserve', 'release', 'water', 'shade', 'frost', 'seedling', 'trellis', 'compost', 'harvest', 'row'];

/** A small deterministic generator (an LCG): benchmarks must not depend on Math.random. */
function numbers(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    state = (Math.imul(state, 1664525) + 1013904223) >>> 0;
    return state / 2 ** 32;
  };
}

function writer(seed: number, sessionTag: string) {
  const random = numbers(seed);
  let counter = 0;
  let clock = Date.UTC(2026, 0, 1);
  const text = (words: number) => Array.from({ length: words }, () => WORDS[Math.floor(random() * WORDS.length)]).join(' ');
  /** A user message, an assistant answer or (every 25th) a seed desk entry, by position. */
  const entryAt = (index: number, parentId: EntryId | null): JournalEntry => {
    clock += 1000;
    const place = { id: asEntryId((counter++).toString(16).padStart(8, '0')), parentId, timestamp: new Date(clock).toISOString() };
    if (index % 25 === 24) return customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: index % 2 === 0, quantities: { 'bean-scarlet': index % 6 } }, place);
    return index % 2 === 0 ? userMessageEntry(`message ${index}: ${text(8)}`, place) : assistantMessageEntry([{ type: 'text', text: text(14) }], place);
  };
  const header = sessionHeader(asSessionId(`bench-${sessionTag}-${seed}`), new Date(clock).toISOString(), '/bench');
  return { entryAt, header, random };
}

/** One chain: every entry the child of the one before. */
export function linearJournal(total: number, seed = 1): GeneratedJournal {
  const { entryAt, header } = writer(seed, `linear-${total}`);
  const entries: JournalEntry[] = [];
  for (let index = 0; index < total; index++) entries.push(entryAt(index, entries[index - 1]?.id ?? null));
  return { header, entries };
}

/**
 * Many branches: a main line where every 8th entry starts a side branch off an entry up to 60
 * back, and side branches that go on for a while; the last line is back on the main line.
 */
export function branchyJournal(total: number, seed = 2): GeneratedJournal {
  const { entryAt, header, random } = writer(seed, `branchy-${total}`);
  const entries: JournalEntry[] = [];
  const main: EntryId[] = [];
  let side: EntryId | null = null;
  for (let index = 0; index < total - 1; index++) {
    let parent: EntryId | null;
    if (side !== null && random() < 0.7) parent = side;
    else if (index % 8 === 7 && main.length > 0) parent = main[Math.max(0, main.length - 1 - Math.floor(random() * 60))] ?? null;
    else parent = main.at(-1) ?? null;
    const entry = entryAt(index, parent);
    entries.push(entry);
    if (parent === (main.at(-1) ?? null) && side === null) main.push(entry.id);
    else side = random() < 0.9 ? entry.id : null;
  }
  entries.push(entryAt(total - 1, main.at(-1) ?? null));
  return { header, entries };
}

/**
 * `total` entries whose last one (where a reopen puts the leaf) sits at depth `depth`: a main line
 * of `depth` entries, side branches of ten hung off it, and the main line's tip written last.
 */
export function sameDepthJournal(total: number, depth: number, seed = 3): GeneratedJournal {
  const { entryAt, header, random } = writer(seed, `depth-${depth}-of-${total}`);
  const entries: JournalEntry[] = [];
  const main: EntryId[] = [];
  for (let index = 0; index < depth; index++) {
    const entry = entryAt(index, main.at(-1) ?? null);
    entries.push(entry);
    main.push(entry.id);
  }
  let parent: EntryId | null = null;
  for (let index = depth; index < total - 1; index++) {
    if ((index - depth) % 10 === 0) parent = main[Math.floor(random() * (main.length - 1))] ?? null;
    const entry = entryAt(index, parent);
    entries.push(entry);
    parent = entry.id;
  }
  entries.push(entryAt(total - 1, main.at(-1) ?? null));
  return { header, entries };
}

export function journalFile(journal: GeneratedJournal): string {
  return toSessionJsonl(journal.header, journal.entries);
}
