/**
 * Seeded fuzz of session file import: the real journals in fixtures/, mutated (cut and
 * repeated lines, flipped bytes, swapped lines, duplicate ids, parent cycles, self-parents,
 * orphans, a missing or wrong header, a 5 MB line, BOM, CRLF, empty and blank files), through
 * parseSessionJsonl and, when it accepts, SessionJournal.fromEntries.
 *
 * Replay: the seed is in the test name; FC_SEED=<seed> npx vitest run domain/journal/importFuzz.test.ts
 * One counterexample: FC_SEED=<seed> FC_PATH=<path> npx vitest run domain/journal/importFuzz.test.ts -t '<name>'
 */
import * as fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { seededIdSource } from '../ids';
import { reconstructBranch } from '../reconstruct';
import { SEED_DESK_CUSTOM_TYPE } from '../snapshot';
import { toSessionJsonl } from './exportJsonl';
import { parseSessionJsonl } from './importJsonl';
import type { ImportResult } from './importReport';
import { SessionJournal } from './journal';
import { FuzzFailure, check, createTally } from '../fuzz.testkit';
import { copyId, editFields, entryIndex, flipBit, linkCycle, swapLines, truncateLine } from './jsonlLines.testkit';

const DEFAULT_SEED = 20260717;
const PINNED_SEED = 5150;
const envSeed = process.env['FC_SEED'];
const SEED = envSeed !== undefined && envSeed !== '' ? Number(envSeed) : DEFAULT_SEED;
const PATH = process.env['FC_PATH'] || undefined;
/** About 4 s of CPU alone; the margin is for a busy machine (other test runs, browsers). */
const TIMEOUT = 60_000;

const fixture = (name: string): string => readFileSync(new URL(`../../fixtures/${name}`, import.meta.url), 'utf8');
const SMALL_V3 = fixture('pi-v3-seed-desk.jsonl');
const LARGE_V1 = fixture('omp-large-session-v1.jsonl');
/** A v3 chain with real content (the first 100 entries of the large file, migrated and exported), for id mutations on a longer file. */
const MEDIUM_V3 = (() => {
  const parsed = parseSessionJsonl(LARGE_V1, seededIdSource(3));
  if (!parsed.ok) throw new Error(`the large fixture must import: ${parsed.error.message}`);
  return toSessionJsonl(parsed.header, parsed.entries.slice(0, 100));
})();
const BASES = { small: SMALL_V3, large: LARGE_V1, medium: MEDIUM_V3 } as const;
type BaseName = keyof typeof BASES;

const FIVE_MB = 'x'.repeat(5 * 1024 * 1024);
/** Above this many entries, branch() is walked for a sample of ids rather than all (see checkFile). */
const WALK_ALL_LIMIT = 400;

// ---------------------------------------------------------------- mutations

type Mutation =
  | { readonly m: 'truncate'; readonly line: number; readonly at: number }
  | { readonly m: 'duplicate'; readonly line: number; readonly to: number }
  | { readonly m: 'flip'; readonly line: number; readonly at: number; readonly bit: number }
  | { readonly m: 'swap'; readonly a: number; readonly b: number }
  | { readonly m: 'delete'; readonly line: number }
  | { readonly m: 'dupId'; readonly a: number; readonly b: number }
  | { readonly m: 'cycle'; readonly a: number; readonly b: number }
  | { readonly m: 'selfParent'; readonly line: number }
  | { readonly m: 'orphan'; readonly line: number; readonly parent: string }
  | { readonly m: 'removeHeader' }
  | { readonly m: 'header'; readonly how: 'sessions' | 'noId' | 'emptyId' | 'numberId' | 'v99' | 'v2' | 'v1' | 'noVersion' | 'vString' | 'vNegative' | 'vFraction' | 'array' | 'proto' }
  | { readonly m: 'huge'; readonly line: number; readonly valid: boolean }
  | { readonly m: 'insert'; readonly line: number; readonly text: string }
  | { readonly m: 'bom' }
  | { readonly m: 'crlf' }
  | { readonly m: 'noFinalNewline' }
  | { readonly m: 'blankLines'; readonly line: number; readonly text: string }
  | { readonly m: 'empty' }
  | { readonly m: 'whitespace'; readonly text: string }
  | { readonly m: 'titleSlot'; readonly title: string };

const anyIndex = (lines: readonly string[], pick: number): number => (lines.length === 0 ? -1 : pick % lines.length);

/** A file as lines, so that several mutations of the 1 MB fixture split and join it once. */
interface Doc {
  lines: string[];
  trailing: boolean;
  boms: number;
}

function toDoc(text: string): Doc {
  const trailing = text.endsWith('\n');
  const lines = text.split('\n');
  if (trailing) lines.pop();
  return { lines, trailing, boms: 0 };
}

function render(doc: Doc): string {
  return `${'\ufeff'.repeat(doc.boms)}${doc.lines.length === 0 ? '' : `${doc.lines.join('\n')}${doc.trailing ? '\n' : ''}`}`;
}

function applyMutation(text: string, mutation: Mutation): string {
  const doc = toDoc(text);
  mutate(doc, mutation);
  return render(doc);
}

function mutate(doc: Doc, mutation: Mutation): void {
  const lines = doc.lines;
  switch (mutation.m) {
    case 'truncate':
      truncateLine(lines, anyIndex(lines, mutation.line), mutation.at);
      return;
    case 'duplicate': {
      const index = anyIndex(lines, mutation.line);
      if (index >= 0) lines.splice(mutation.to % (lines.length + 1), 0, lines[index]!);
      return;
    }
    case 'flip':
      flipBit(lines, anyIndex(lines, mutation.line), mutation.at, mutation.bit);
      return;
    case 'swap':
      swapLines(lines, anyIndex(lines, mutation.a), anyIndex(lines, mutation.b));
      return;
    case 'delete': {
      const index = entryIndex(lines, mutation.line);
      if (index >= 0) lines.splice(index, 1);
      return;
    }
    case 'dupId':
      copyId(lines, entryIndex(lines, mutation.a), entryIndex(lines, mutation.b));
      return;
    case 'cycle':
      linkCycle(lines, entryIndex(lines, mutation.a), entryIndex(lines, mutation.b));
      return;
    case 'selfParent':
      editFields(lines, entryIndex(lines, mutation.line), (value) => (value['parentId'] = value['id']));
      return;
    case 'orphan':
      editFields(lines, entryIndex(lines, mutation.line), (value) => (value['parentId'] = mutation.parent));
      return;
    case 'removeHeader':
      if (lines.length > 0) lines.shift();
      return;
    case 'header': {
      if (lines.length === 0) return;
      if (mutation.how === 'array') {
        lines[0] = `[${lines[0]}]`;
        return;
      }
      if (mutation.how === 'proto') {
        lines[0] = lines[0]!.replace(/}$/, ',"__proto__":{"type":"x"},"constructor":1,"toString":"s"}');
        return;
      }
      editFields(lines, 0, (value) => {
        if (mutation.how === 'sessions') value['type'] = 'sessions';
        else if (mutation.how === 'noId') delete value['id'];
        else if (mutation.how === 'emptyId') value['id'] = '';
        else if (mutation.how === 'numberId') value['id'] = 42;
        else if (mutation.how === 'v99') value['version'] = 99;
        else if (mutation.how === 'v2') value['version'] = 2;
        else if (mutation.how === 'v1') value['version'] = 1;
        else if (mutation.how === 'noVersion') delete value['version'];
        else if (mutation.how === 'vString') value['version'] = '3';
        else if (mutation.how === 'vNegative') value['version'] = -1;
        else value['version'] = 2.5;
      });
      return;
    }
    case 'huge': {
      const line = mutation.valid
        ? JSON.stringify({ type: 'message', id: 'huge0001', parentId: null, timestamp: '2026-01-01T00:00:00.000Z', message: { role: 'user', content: FIVE_MB } })
        : `{"type":"message","content":"${FIVE_MB}`;
      lines.splice(anyIndex(lines, mutation.line) + 1, 0, line);
      return;
    }
    case 'insert':
      lines.splice(anyIndex(lines, mutation.line) + 1, 0, mutation.text);
      return;
    case 'bom':
      doc.boms++;
      return;
    case 'crlf':
      for (let index = 0; index < lines.length; index++) if (index < lines.length - 1 || doc.trailing) lines[index] = `${lines[index]}\r`;
      return;
    case 'noFinalNewline':
      while (doc.trailing && lines.at(-1) === '') lines.pop();
      doc.trailing = false;
      return;
    case 'blankLines':
      lines.splice(anyIndex(lines, mutation.line) + 1, 0, mutation.text);
      return;
    case 'empty':
      Object.assign(doc, toDoc(''));
      return;
    case 'whitespace':
      Object.assign(doc, toDoc(mutation.text));
      return;
    case 'titleSlot':
      lines.unshift(JSON.stringify({ type: 'title', v: 1, title: mutation.title, source: 'user', updatedAt: '2026-01-01T00:00:00.000Z' }));
      if (lines.length === 1) doc.trailing = true;
      return;
  }
}

// ---------------------------------------------------------------- generators

const pick = fc.nat({ max: 100_000 });
const oddId = fc.constantFrom('missing0', 'aface3c7', '__proto__', 'constructor', 'toString', 'hasOwnProperty', '', ' ', 'x'.repeat(300), '🌱🌱🌱🌱');
/** Extra lines a real file might hold: other entry types, desk entries good and bad, junk. */
const insertedLine: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom(
    '{"type":"compaction","timestamp":"t","summary":"s","firstKeptEntryIndex":2}',
    '{"type":"compaction","timestamp":"t","summary":"s","firstKeptEntryIndex":99999}',
    '{"type":"compaction","timestamp":"t","summary":"s","firstKeptEntryIndex":-1}',
    '{"type":"compaction","timestamp":"t","summary":"s","firstKeptEntryIndex":1.5}',
    '{"type":"compaction","timestamp":"t","summary":"s","firstKeptEntryIndex":"2"}',
    '{"type":"label","id":"lab00001","parentId":null,"timestamp":"t","targetId":"aface3c7","label":"x"}',
    '{"type":"session","version":3,"id":"second-header","timestamp":"t"}',
    '{"type":"archive","id":"unk00001","parentId":"aface3c7","timestamp":"t","whatever":[1,2,3]}',
    `{"type":"custom","customType":"${SEED_DESK_CUSTOM_TYPE}","data":{"version":1,"agentEnabled":true,"quantities":{"basil-genovese":9}},"id":"bad00001","parentId":"f5397ae1","timestamp":"t"}`,
    `{"type":"custom","customType":"${SEED_DESK_CUSTOM_TYPE}","data":{"version":1,"agentEnabled":true,"quantities":{"__proto__":1}},"id":"bad00002","parentId":"40b71d17","timestamp":"t"}`,
    `{"type":"custom","customType":"${SEED_DESK_CUSTOM_TYPE}","data":{"version":1,"agentEnabled":false,"quantities":{"bean-scarlet":2}},"id":"ok000001","parentId":"35cb8510","timestamp":"t"}`,
    `{"type":"custom","customType":"${SEED_DESK_CUSTOM_TYPE}","data":null,"id":"bad00003","timestamp":"t","parentId":null}`,
    '{"type":"message","id":"__proto__","parentId":null,"timestamp":"t","message":{"role":"user","content":"p"}}',
    '{"type":"message","id":"nokey001","timestamp":"t"}',
    '{"type":"message","id":"badts001","parentId":null,"timestamp":5}',
    '{"type":"","id":"empty001","parentId":null,"timestamp":"t"}',
    '{"type":"message","id":"","parentId":null,"timestamp":"t"}',
    '{"type":"message","id":"emptypar","parentId":"","timestamp":"t"}',
    '{"type":"title","title":"late title"}',
    'null',
    '[]',
    '42',
    '"text"',
    '{',
    '}{',
    '{"a":1}{"b":2}',
    '\u0000',
    '\u2028',
  ),
  fc.json({ maxDepth: 2 }),
  fc.string({ unit: 'grapheme', maxLength: 30 }),
);

const mutationArb: fc.Arbitrary<Mutation> = fc.oneof(
  { weight: 4, arbitrary: fc.record({ m: fc.constant('truncate' as const), line: pick, at: pick }) },
  { weight: 3, arbitrary: fc.record({ m: fc.constant('duplicate' as const), line: pick, to: pick }) },
  { weight: 4, arbitrary: fc.record({ m: fc.constant('flip' as const), line: pick, at: pick, bit: fc.nat({ max: 7 }) }) },
  { weight: 3, arbitrary: fc.record({ m: fc.constant('swap' as const), a: pick, b: pick }) },
  { weight: 2, arbitrary: fc.record({ m: fc.constant('delete' as const), line: pick }) },
  { weight: 3, arbitrary: fc.record({ m: fc.constant('dupId' as const), a: pick, b: pick }) },
  { weight: 3, arbitrary: fc.record({ m: fc.constant('cycle' as const), a: pick, b: pick }) },
  { weight: 2, arbitrary: fc.record({ m: fc.constant('selfParent' as const), line: pick }) },
  { weight: 2, arbitrary: fc.record({ m: fc.constant('orphan' as const), line: pick, parent: oddId }) },
  { weight: 1, arbitrary: fc.constant({ m: 'removeHeader' as const }) },
  {
    weight: 3,
    arbitrary: fc.record({
      m: fc.constant('header' as const),
      how: fc.constantFrom('sessions' as const, 'noId' as const, 'emptyId' as const, 'numberId' as const, 'v99' as const, 'v2' as const, 'v1' as const, 'noVersion' as const, 'vString' as const, 'vNegative' as const, 'vFraction' as const, 'array' as const, 'proto' as const),
    }),
  },
  { weight: 3, arbitrary: fc.record({ m: fc.constant('insert' as const), line: pick, text: insertedLine }) },
  { weight: 1, arbitrary: fc.constant({ m: 'bom' as const }) },
  { weight: 1, arbitrary: fc.constant({ m: 'crlf' as const }) },
  { weight: 1, arbitrary: fc.constant({ m: 'noFinalNewline' as const }) },
  { weight: 1, arbitrary: fc.record({ m: fc.constant('blankLines' as const), line: pick, text: fc.constantFrom('', ' ', '\t', '\r', '   \r', '\u00a0', '\ufeff') }) },
  { weight: 1, arbitrary: fc.record({ m: fc.constant('titleSlot' as const), title: fc.constantFrom('Seed planning', '', '\u202etitle') }) },
);

/** Whole-file replacements, rarer: they end the story for every mutation before them. */
const finalArb: fc.Arbitrary<Mutation | null> = fc.oneof(
  { weight: 40, arbitrary: fc.constant(null) },
  { weight: 1, arbitrary: fc.constant({ m: 'empty' as const }) },
  { weight: 1, arbitrary: fc.record({ m: fc.constant('whitespace' as const), text: fc.constantFrom(' ', '\n', '\n\n\n', '\r\n', ' \t \n  \r\n', '\ufeff', '\ufeff\n', '\u00a0\n') }) },
  { weight: 1, arbitrary: fc.record({ m: fc.constant('huge' as const), line: pick, valid: fc.boolean() }) },
);

interface Case {
  readonly base: BaseName;
  readonly mutations: readonly Mutation[];
  readonly final: Mutation | null;
}

const caseArb: fc.Arbitrary<Case> = fc.record({
  base: fc.oneof({ weight: 6, arbitrary: fc.constant('small' as const) }, { weight: 3, arbitrary: fc.constant('medium' as const) }, { weight: 1, arbitrary: fc.constant('large' as const) }),
  mutations: fc.array(mutationArb, { minLength: 1, maxLength: 4 }),
  final: finalArb,
});

const BASE_DOCS = { small: toDoc(SMALL_V3), medium: toDoc(MEDIUM_V3), large: toDoc(LARGE_V1) } as const;

function build(c: Case): string {
  const base = BASE_DOCS[c.base];
  const doc: Doc = { lines: [...base.lines], trailing: base.trailing, boms: 0 };
  for (const mutation of [...c.mutations, ...(c.final ? [c.final] : [])]) mutate(doc, mutation);
  return render(doc);
}

// ---------------------------------------------------------------- the checks

const { tally, count, missing } = createTally();
let filesSeen = 0;

/** The file's lines as the import counts them (BOM dropped, a final '\n' ends the last line). */
function physicalLines(text: string): string[] {
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split('\n');
  if (lines.at(-1) === '') lines.pop();
  return lines;
}

function checkFile(text: string, sampleSeed: number): ImportResult {
  filesSeen++;
  let result: ImportResult;
  try {
    result = parseSessionJsonl(text, seededIdSource(17));
  } catch (error) {
    throw new FuzzFailure(`parseSessionJsonl threw: ${String(error)}`);
  }
  if (!result.ok) {
    count('refused');
    check(Number.isInteger(result.error.line) && result.error.line >= 1, `a refusal names line ${result.error.line}`);
    check(typeof result.error.message === 'string' && result.error.message.trim().length > 0, 'a refusal without a message');
    check(!('entries' in result) && !('header' in result), 'a refusal carries a header or entries');
    return result;
  }
  count('accepted');
  if (result.skipped.length > 0) count('accepted with skipped lines');
  if (result.warnings.length > 0) count('accepted with warnings');
  const lines = physicalLines(text);
  check(result.lineCount === lines.length, `lineCount ${result.lineCount} but the file has ${lines.length} lines`);
  for (const note of [...result.skipped, ...result.warnings]) {
    check(Number.isInteger(note.line) && note.line >= 1 && note.line <= result.lineCount, `a note names line ${note.line} of ${result.lineCount}`);
    check(typeof note.reason === 'string' && note.reason.trim().length > 0, `the note on line ${note.line} has no reason`);
  }
  for (const note of result.skipped) check(lines[note.line - 1]!.trim() !== '', `a blank line ${note.line} was reported as skipped`);
  // Every non-blank line after the header (and title slot) is either an entry or a skipped line.
  const nonBlank = lines.filter((line) => line.trim() !== '').length;
  check(result.entries.length + result.skipped.length === nonBlank - 1 - (result.hadTitleSlot ? 1 : 0), `entries ${result.entries.length} + skipped ${result.skipped.length} != non-blank lines ${nonBlank} - header${result.hadTitleSlot ? ' - title' : ''}`);
  check(typeof result.header.id === 'string' && result.header.id.length > 0 && result.header['type'] === 'session', 'the header has a session id');
  check(result.header['version'] === 3, 'the header is current after import');
  const ids = new Set<string>();
  for (const entry of result.entries) {
    check(typeof entry.id === 'string' && entry.id.length > 0, 'an entry without an id');
    check(!ids.has(entry.id), `duplicate id ${entry.id} among the entries`);
    check(entry.parentId === null || (typeof entry.parentId === 'string' && entry.parentId.length > 0), `entry ${entry.id} has parentId ${String(entry.parentId)}`);
    check(entry.type !== 'session', 'a second header became an entry');
    ids.add(entry.id);
  }

  let journal: SessionJournal;
  try {
    journal = SessionJournal.fromEntries(result.header, result.entries);
  } catch (error) {
    throw new FuzzFailure(`SessionJournal.fromEntries threw after an accepted import: ${String(error)}`);
  }
  check(journal.size === result.entries.length, 'the journal holds every entry');
  check(journal.leafId === (result.entries.at(-1)?.id ?? null), 'the leaf is on the last entry');
  // Every branch ends (a cycle would never end; the length bound turns that into a failure, not a hang).
  // Walking every branch is quadratic: on the 1,000-entry file (a v1 chain, whose ids the import
  // assigns, so no id mutation reaches it) a sample of 40 walks stands in for all of them.
  const all = result.entries;
  const sample = new Set<number>();
  for (let k = 0; k < Math.min(12, all.length); k++) sample.add((sampleSeed + k * 7919) % all.length);
  sample.add(all.length - 1);
  const walked = new Set<number>(sample);
  if (all.length > WALK_ALL_LIMIT) for (let k = 0; k < 40; k++) walked.add((sampleSeed + k * 104_729) % all.length);
  for (let index = 0; index < all.length; index++) {
    if (all.length > WALK_ALL_LIMIT && !walked.has(index)) continue;
    const id = all[index]!.id;
    const path = journal.branch(id);
    check(path.length >= 1 && path.length <= all.length, `branch(${id}) has length ${path.length}`);
    check(path.at(-1)?.id === id, `branch(${id}) does not end at ${id}`);
    if (!sample.has(index)) continue;
    for (let k = 1; k < path.length; k++) check(path[k]!.parentId === path[k - 1]!.id, `branch(${id}) is not a parent chain`);
    const reference = reconstructBranch(journal.sessionId, path);
    check(isDeepStrictEqual(journal.state(id), reference), `state(${id}) disagrees with reconstructBranch(branch(${id})):\n${JSON.stringify(journal.state(id))}\n${JSON.stringify(reference)}`);
    if (!reference.ok) count('a corrupt branch');
  }
  return result;
}

const property = () =>
  fc.property(caseArb, fc.nat(), (c, sampleSeed) => {
    for (const mutation of [...c.mutations, ...(c.final ? [c.final] : [])]) count(`mutation ${mutation.m}`);
    checkFile(build(c), sampleSeed);
  });

describe('session import fuzz: mutated fixtures', () => {
  it(`≥ 1,000 mutated files: never throws, refusals name a line, notes name lines, accepted files load and agree (seed ${SEED})`, ({ task }) => {
    filesSeen = 0;
    tally.clear();
    fc.assert(property(), { seed: SEED, path: PATH, numRuns: 1100, verbose: 1 });
    task.meta.fuzzInputs = filesSeen;
    if (PATH === undefined) {
      expect(filesSeen).toBeGreaterThanOrEqual(1_000);
      const wanted = ['refused', 'accepted', 'accepted with skipped lines', 'accepted with warnings', 'a corrupt branch', 'mutation huge', 'mutation empty', 'mutation whitespace', 'mutation cycle', 'mutation selfParent', 'mutation dupId', 'mutation bom', 'mutation crlf'];
      expect(missing(wanted)).toEqual([]);
    }
  }, TIMEOUT);

  it(`pinned regression seed ${PINNED_SEED}`, () => {
    fc.assert(property(), { seed: PINNED_SEED, numRuns: 200 });
  }, TIMEOUT);
});

describe('pinned mutations', () => {
  const ok = (text: string) => {
    const result = checkFile(text, 1);
    if (!result.ok) throw new Error(`expected the file to be accepted: ${result.error.message}`);
    return result;
  };
  const refused = (text: string) => {
    const result = checkFile(text, 1);
    if (result.ok) throw new Error('expected the file to be refused');
    return result.error;
  };
  const lines = SMALL_V3.trimEnd().split('\n');

  it('a parent cycle a→b→a: both kept, both walks end', () => {
    const result = ok(applyMutation(SMALL_V3, { m: 'cycle', a: 1, b: 2 }));
    // Line 3's parent (line 4) comes later: linked, so the loop closes and is cut at line 3, a root.
    expect(result.warnings.map((note) => note.line)).toEqual([3, 3]);
    expect(result.entries[1]?.parentId).toBeNull();
  });

  it('a self-parent: a root, walked once', () => {
    const result = ok(applyMutation(SMALL_V3, { m: 'selfParent', line: 2 }));
    expect(result.warnings.map((note) => note.line)).toEqual([4]);
  });

  it('a duplicate id: the earlier line is skipped with its line number (the last line wins, as in the host)', () => {
    const result = ok(applyMutation(SMALL_V3, { m: 'dupId', a: 0, b: 3 }));
    expect(result.skipped.map((note) => note.line)).toEqual([2]);
  });

  it('empty, whitespace-only, removed and wrong headers are refused with a line', () => {
    expect(refused('').line).toBe(1);
    expect(refused(' \n\r\n\t\n').line).toBeGreaterThanOrEqual(1);
    expect(refused('\ufeff').line).toBe(1);
    expect(refused(applyMutation(SMALL_V3, { m: 'removeHeader' })).line).toBe(1);
    for (const how of ['sessions', 'noId', 'emptyId', 'numberId', 'v99', 'array'] as const) expect(refused(applyMutation(SMALL_V3, { m: 'header', how })).line).toBe(1);
    // The host compares the version with numbers, so the string "3" is version 3.
    expect(ok(applyMutation(SMALL_V3, { m: 'header', how: 'vString' })).migratedFrom).toBeNull();
  });

  it('BOM and CRLF read like the plain file', () => {
    const plain = ok(SMALL_V3);
    expect(ok(applyMutation(applyMutation(SMALL_V3, { m: 'crlf' }), { m: 'bom' })).entries.map((entry) => entry.id)).toEqual(plain.entries.map((entry) => entry.id));
  });

  it('an inserted 5 MB line is read (valid) or skipped with its line (invalid)', () => {
    expect(ok(applyMutation(SMALL_V3, { m: 'huge', line: 2, valid: true })).entries).toHaveLength(lines.length);
    expect(ok(applyMutation(SMALL_V3, { m: 'huge', line: 2, valid: false })).skipped.map((note) => note.line)).toEqual([4]);
  });
});
