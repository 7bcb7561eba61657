import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { asEntryId, seededIdSource } from '../ids';
import { toSessionJsonl } from './exportJsonl';
import { parseSessionJsonl } from './importJsonl';
import type { ImportResult } from './importReport';
import { SessionJournal } from './journal';

// Copies of real host journals live in fixtures/ (fixtures/README.md says where each came from).
const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8');

function expectOk(result: ImportResult): Extract<ImportResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected ok, got line ${result.error.line}: ${result.error.message}`);
  return result;
}

function roundTrip(loaded: Extract<ImportResult, { ok: true }>): { text: string; again: Extract<ImportResult, { ok: true }> } {
  const text = toSessionJsonl(loaded.header, loaded.entries);
  return { text, again: expectOk(parseSessionJsonl(text, seededIdSource(99))) };
}

describe('fixture: OMP large v1 session (973 KB, linear, pre-tree)', () => {
  const text = fixture('omp-large-session-v1.jsonl');

  it('migrates to one chain of 1018 entries with the leaf on the last', () => {
    const result = expectOk(parseSessionJsonl(text, seededIdSource(5)));
    expect(result.migratedFrom).toBe(1);
    expect(result.header).toMatchObject({ type: 'session', version: 3, id: 'd703a1a9-1b7b-4fb1-b512-c9738b1fe617' });
    expect(result.entries).toHaveLength(1018);
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.lineCount).toBe(1019);
    expect(result.entries[0]?.parentId).toBeNull();
    result.entries.slice(1).forEach((entry, i) => expect(entry.parentId).toBe(result.entries[i]?.id));

    const journal = SessionJournal.fromEntries(result.header, result.entries);
    expect(journal.leafId).toBe(result.entries.at(-1)?.id);
    expect(journal.branch()).toHaveLength(1018);
  });

  it('survives export and re-import unchanged', () => {
    const loaded = expectOk(parseSessionJsonl(text, seededIdSource(5)));
    const { again } = roundTrip(loaded);
    expect(again.migratedFrom).toBeNull();
    expect(again.header).toEqual(loaded.header);
    expect(again.entries).toEqual(loaded.entries);
  });

  it('parses quickly (linear work; budget generous for slow CI machines)', () => {
    parseSessionJsonl(text, seededIdSource(5)); // warm-up: JIT and zod schema caches
    const start = performance.now();
    parseSessionJsonl(text, seededIdSource(6));
    expect(performance.now() - start).toBeLessThan(250);
  });
});

describe('fixture: PI v3 session with seed desk entries on two branches', () => {
  const text = fixture('pi-v3-seed-desk.jsonl');

  it('reconstructs the active branch (leaf on the last line) and the abandoned one', () => {
    const result = expectOk(parseSessionJsonl(text, seededIdSource(5)));
    expect(result.migratedFrom).toBeNull();
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    const journal = SessionJournal.fromEntries(result.header, result.entries);
    expect(journal.leafId).toBe('ac711ce8');

    expect(journal.state()).toEqual({
      ok: true,
      sessionId: '01a2375c-1cf0-7018-89a5-8d86d60cc943',
      revision: '01a2375c-1cf0-7018-89a5-8d86d60cc943:35cb8510',
      deskHead: '35cb8510',
      snapshot: { version: 1, agentEnabled: true, quantities: { 'bean-scarlet': 4 } },
    });

    const other = journal.state(asEntryId('14559baa'));
    expect(other.ok && other.snapshot).toEqual({ version: 1, agentEnabled: false, quantities: { 'marigold-french': 1 } });
    journal.moveLeaf(asEntryId('ba144a19'));
    expect(journal.state().revision).toBe('01a2375c-1cf0-7018-89a5-8d86d60cc943:14559baa');
  });

  it('exports back byte for byte (it is host output) and re-imports identically', () => {
    const loaded = expectOk(parseSessionJsonl(text, seededIdSource(5)));
    const { text: exported, again } = roundTrip(loaded);
    expect(exported).toBe(text);
    expect(again.header).toEqual(loaded.header);
    expect(again.entries).toEqual(loaded.entries);
  });
});
