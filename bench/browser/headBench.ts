/**
 * Reopen, store side: the head read (what the first view needs) and the full load, for sessions
 * of 5k and 50k entries whose last entry sits at the same branch depth. Each session is created
 * as an import is (segments) and then grows by ordinary appends, as a session in use does.
 */
import { sameDepthJournal, type GeneratedJournal } from '../journals';
import { JournalStore } from '../../web/src/worker/store';
import { loadJournal, openSessionHead } from '../../web/src/worker/sessionLoad';

export const HEAD_SIZES = [5_000, 50_000] as const;
export const HEAD_DEPTH = 1_000;
const APPENDED = 20;
const QUICK = new URLSearchParams(location.search).has('quick');
const HEAD_ROUNDS = QUICK ? 3 : 41;
const LOAD_ROUNDS = QUICK ? 1 : 5;

export interface HeadBenchResult {
  /** Per size: head reads, full loads (ms), and what the head said. */
  readonly sizes: { readonly size: number; readonly head: number[]; readonly load: number[]; readonly entryCount: number; readonly depth: number }[];
}

async function stored(store: JournalStore, journal: GeneratedJournal): Promise<void> {
  const created = journal.entries.slice(0, -APPENDED);
  await store.createSession(journal.header, created);
  for (const entry of journal.entries.slice(-APPENDED)) await store.append(journal.header.id, entry.parentId, [entry]);
}

export async function headBench(): Promise<HeadBenchResult> {
  const journals = HEAD_SIZES.map((size) => sameDepthJournal(size, HEAD_DEPTH));
  const writer = await JournalStore.open('bench-head');
  for (const journal of journals) await stored(writer, journal);
  writer.close();
  // A fresh connection, as a page load has.
  const store = await JournalStore.open('bench-head');
  const head = journals.map(() => [] as number[]);
  const load = journals.map(() => [] as number[]);
  for (let round = 0; round < HEAD_ROUNDS; round++) {
    for (let k = 0; k < journals.length; k++) {
      const index = (k + round) % journals.length;
      const start = performance.now();
      const found = await openSessionHead(store, journals[index]!.header.id);
      head[index]!.push(performance.now() - start);
      if (!found || found.entryCount !== journals[index]!.entries.length) throw new Error('the head read did not find the session whole');
    }
  }
  const depths: number[] = [];
  for (let round = 0; round < LOAD_ROUNDS; round++) {
    for (let k = 0; k < journals.length; k++) {
      const index = (k + round) % journals.length;
      const start = performance.now();
      const journal = await loadJournal(store, journals[index]!.header.id);
      load[index]!.push(performance.now() - start);
      if (!journal || journal.size !== journals[index]!.entries.length) throw new Error('the full load lost entries');
      depths[index] = journal.depthOf(journal.leafId ?? '') ?? -1;
    }
  }
  store.close();
  return {
    sizes: journals.map((journal, index) => ({ size: journal.entries.length, head: head[index]!, load: load[index]!, entryCount: journal.entries.length, depth: depths[index] ?? -1 })),
  };
}
