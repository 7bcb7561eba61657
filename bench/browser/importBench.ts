/**
 * Import, store side, for information beside the page's import: the same generated files, parsed
 * by the page's parser, then created in the store (deriving the journal itself, or handed the
 * journal the host builds anyway), then read back whole and by its head.
 */
import { seededIdSource } from '../../domain/ids';
import { parseSessionJsonl } from '../../domain/journal/importJsonl';
import { SessionJournal } from '../../domain/journal/journal';
import { JournalStore } from '../../web/src/worker/store';
import { loadJournal } from '../../web/src/worker/sessionLoad';
import { fileSegments, lineStartsOf } from '../../web/src/worker/segments';
import { branchyJournal, journalFile, linearJournal } from '../journals';

/** 100k entries; 10k in quick mode (`?quick`, set by `npm run bench -- --quick`). */
export const IMPORT_SIZE = new URLSearchParams(location.search).has('quick') ? 10_000 : 100_000;

export interface ImportStepTimes {
  readonly kind: string;
  readonly megabytes: number;
  readonly parseMs: number;
  readonly buildMs: number;
  /** createSession(header, entries): derives the journal, lays it out, writes it (each entry JSON.stringify'd). */
  readonly createMs: number;
  /** createSessionFrom(journal, the file's lines): the same without deriving the journal again, segments cut from the file as the page's import does. */
  readonly createFromJournalMs: number;
  /** Progress calls while storing (the bar must move). */
  readonly progressCalls: number;
  readonly loadMs: number;
  readonly headMs: number;
}

export async function importBench(): Promise<ImportStepTimes[]> {
  const out: ImportStepTimes[] = [];
  const store = await JournalStore.open('bench-import');
  for (const [kind, generated] of [['linear', linearJournal(IMPORT_SIZE)], ['branchy', branchyJournal(IMPORT_SIZE)]] as const) {
    const text = journalFile(generated);
    let start = performance.now();
    const parsed = parseSessionJsonl(text, seededIdSource(1));
    const parseMs = performance.now() - start;
    if (!parsed.ok) throw new Error(parsed.error.message);
    start = performance.now();
    const journal = SessionJournal.fromEntries(parsed.header, parsed.entries);
    const buildMs = performance.now() - start;
    let progressCalls = 0;
    start = performance.now();
    await store.createSession(parsed.header, parsed.entries, () => progressCalls++);
    const createMs = performance.now() - start;
    await store.deleteSession(parsed.header.id);
    const file = new Blob([text]);
    const source = fileSegments(file, lineStartsOf(new Uint8Array(await file.arrayBuffer())), parsed.lineOf);
    start = performance.now();
    await store.createSessionFrom(journal, undefined, source);
    const createFromJournalMs = performance.now() - start;
    start = performance.now();
    const loaded = await loadJournal(store, parsed.header.id);
    const loadMs = performance.now() - start;
    if (loaded?.size !== parsed.entries.length) throw new Error('the import did not read back whole');
    start = performance.now();
    await store.loadHead(parsed.header.id);
    const headMs = performance.now() - start;
    out.push({ kind, megabytes: text.length / 1e6, parseMs, buildMs, createMs, createFromJournalMs, progressCalls, loadMs, headMs });
    await store.deleteSession(parsed.header.id);
  }
  store.close();
  return out;
}
