/**
 * The journal against files the REAL host wrote (`@mariozechner/pi-coding-agent` 0.73.1
 * `SessionManager`, see fixtures/host-written/README.md) and against what that host reported when
 * it opened, forked and labelled them (fixtures/host-written/expectations.json). Each test names
 * the host behaviour it pins; the recorded expectations are the host's own answers, not ours.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import '../zodSetup';
import * as z from 'zod/mini';
import { asEntryId, seededIdSource, type EntryId } from '../ids';
import { toSessionJsonl } from './exportJsonl';
import { parseSessionJsonl } from './importJsonl';
import type { ImportResult } from './importReport';
import { SessionJournal } from './journal';
import { JournalError } from './journalError';

const dir = new URL('../../fixtures/host-written/', import.meta.url);
const text = (name: string): string => readFileSync(new URL(name, dir), 'utf8');

const HostOpenSchema = z.object({
  sessionId: z.string(),
  headerVersion: z.union([z.number(), z.string()]),
  leafId: z.nullable(z.string()),
  leafLine: z.nullable(z.number()),
  branchIds: z.array(z.nullable(z.string())),
  branchLines: z.array(z.nullable(z.number())),
  entryCount: z.number(),
  labels: z.array(z.object({ targetId: z.string(), label: z.string(), timestamp: z.optional(z.string()) })),
});
const LabelEntrySchema = z.object({ targetId: z.string(), label: z.string(), timestamp: z.string(), parentId: z.string() });
const ExpectationsSchema = z.object({
  host: z.string(),
  ids: z.record(z.string(), z.string()),
  errors: z.object({ labelUnknown: z.string(), branchUnknown: z.string(), forkUnknown: z.string() }),
  files: z.record(
    z.string(),
    z.object({
      shows: z.string(),
      open: HostOpenSchema,
      forkedFrom: z.optional(z.object({ file: z.string(), parentFileName: z.string(), leafId: z.string() })),
      headerKeys: z.optional(z.array(z.string())),
      inMemory: z.optional(z.object({ leafId: z.string(), branchIds: z.array(z.string()), entryIds: z.array(z.string()), labelEntries: z.array(LabelEntrySchema) })),
    }),
  ),
});

const expected = ExpectationsSchema.parse(JSON.parse(text('expectations.json')));
const id = (name: string): EntryId => {
  const value = expected.ids[name];
  if (value === undefined) throw new Error(`no recorded id ${name}`);
  return asEntryId(value);
};
const hostOpen = (name: string) => {
  const file = expected.files[name];
  if (!file) throw new Error(`no expectation recorded for ${name}`);
  return file.open;
};

function imported(name: string): { result: Extract<ImportResult, { ok: true }>; journal: SessionJournal } {
  const result = parseSessionJsonl(text(name), seededIdSource(11));
  if (!result.ok) throw new Error(`${name} was refused: ${result.error.message}`);
  return { result, journal: SessionJournal.fromEntries(result.header, result.entries) };
}

/** Leaf, active branch and labels (in the host's label-map order) as the host reported them. */
function expectSameAsHost(name: string, journal: SessionJournal): void {
  const host = hostOpen(name);
  expect(journal.leafId).toBe(host.leafId);
  expect(journal.branch().map((entry) => entry.id)).toEqual(host.branchIds);
  expect([...journal.allLabels()]).toEqual(host.labels.map(({ targetId, label }) => [targetId, label]));
}

it('the expectations come from the real host', () => {
  expect(expected.host).toBe('@mariozechner/pi-coding-agent@0.73.1');
});

describe('import opens what the host opens, with the same leaf and active branch', () => {
  it('a branched session with seed desk entries and labels set, re-set and cleared', () => {
    const { journal, result } = imported('branched-labels.jsonl');
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(journal.size).toBe(hostOpen('branched-labels.jsonl').entryCount);
    expectSameAsHost('branched-labels.jsonl', journal);
    // Re-set keeps a label's place, clear-then-set moves it last: s1, a2, then u1.
    expect([...journal.allLabels().keys()]).toEqual([id('s1'), id('a2'), id('u1')]);
  });

  it('header version as the string "3": no migration, same ids', () => {
    const { journal, result } = imported('version-string-3.jsonl');
    expect(hostOpen('version-string-3.jsonl').headerVersion).toBe('3');
    expect(result.migratedFrom).toBeNull();
    expectSameAsHost('version-string-3.jsonl', journal);
  });

  it('a duplicate id: the last line with it wins, for the leaf, the branch and the entry itself', () => {
    const { journal, result } = imported('duplicate-ids.jsonl');
    expectSameAsHost('duplicate-ids.jsonl', journal);
    // The early line was a seed desk entry under a1; the winner is the last line, an assistant message under u4.
    expect(journal.get(id('a4'))).toMatchObject({ type: 'message', parentId: id('u4') });
    expect(result.skipped).toEqual([{ line: 5, reason: `id "${id('a4')}" is used again on line 18, and the last line with an id wins, as in the host` }]);
    expect(journal.state()).toMatchObject({ ok: true, deskHead: id('s3') });
  });

  it('a parent that appears on a later line is still the parent', () => {
    const { journal, result } = imported('parent-later-line.jsonl');
    expectSameAsHost('parent-later-line.jsonl', journal);
    expect(result.warnings).toEqual([{ line: 15, reason: `parent "${id('s3')}" comes later, on line 16; linked to it, as the host does` }]);
    // The desk of the leaf comes from s3, the parent read after its child.
    expect(journal.state()).toMatchObject({ ok: true, deskHead: id('s3'), snapshot: { agentEnabled: true, quantities: { 'basil-genovese': 1 } } });
  });

  it('an entry without parentId or with "" is a root, and the branch starts there', () => {
    const { journal, result } = imported('parent-missing-or-empty.jsonl');
    expectSameAsHost('parent-missing-or-empty.jsonl', journal);
    expect(result.warnings.map((note) => note.line)).toEqual([7, 15]);
    expect(journal.get(id('u2'))?.parentId).toBeNull();
  });

  it('an entry without timestamp or without type is kept (the second as an unknown entry) on the branch', () => {
    const { journal, result } = imported('missing-timestamp-or-type.jsonl');
    expectSameAsHost('missing-timestamp-or-type.jsonl', journal);
    expect(result.skipped).toEqual([]);
    expect(journal.get(id('s3'))).not.toHaveProperty('timestamp');
    expect(journal.get(id('u4'))).not.toHaveProperty('type');
    expect(journal.state()).toMatchObject({ ok: true, deskHead: id('s3') });
  });

  it('a BOM, CRLF line ends, a blank and a whitespace-only line read like the plain file', () => {
    const { journal, result } = imported('crlf-blank-lines-bom.jsonl');
    expectSameAsHost('crlf-blank-lines-bom.jsonl', journal);
    expect(result.skipped).toEqual([]);
  });

  describe('v1 files (ids are fresh on every migration, so lines are compared, not ids)', () => {
    /** The branch as the file's own lines, ids and parents left out (the migration replaces them). */
    const branchAsLines = (name: string, journal: SessionJournal) => {
      const strip = (entry: Record<string, unknown>) => Object.fromEntries(Object.entries(entry).filter(([key]) => key !== 'id' && key !== 'parentId'));
      const lines = text(name).split('\n');
      const host = hostOpen(name).branchLines.map((line) => strip(JSON.parse(lines[(line ?? 0) - 1] ?? 'null') as Record<string, unknown>));
      return { ours: journal.branch().map((entry) => strip(entry)), host };
    };

    it('header version null means v1: migrated into one chain in file order, the leaf on the last line', () => {
      const { journal, result } = imported('version-null.jsonl');
      expect(result.migratedFrom).toBe(1);
      const { ours, host } = branchAsLines('version-null.jsonl', journal);
      expect(ours).toEqual(host);
      expect(journal.leafId).toBe(journal.lastAppendedId());
    });

    it('v1 entries without a timestamp are all kept in the chain', () => {
      const { journal, result } = imported('v1-no-timestamps.jsonl');
      expect(result.skipped).toEqual([]);
      const { ours, host } = branchAsLines('v1-no-timestamps.jsonl', journal);
      expect(ours).toEqual(host);
      expect(ours.filter((entry) => !('timestamp' in entry))).toHaveLength(2);
    });
  });
});

describe('seed desk lines are never silently dropped on import', () => {
  it('a seed desk entry without timestamp is kept; its invalid snapshot makes the branch corrupt although a valid one follows', () => {
    const { journal, result } = imported('desk-no-timestamp-invalid.jsonl');
    expectSameAsHost('desk-no-timestamp-invalid.jsonl', journal);
    expect(result.skipped).toEqual([]);
    expect(journal.get(asEntryId('bad00001'))).not.toHaveProperty('timestamp');
    expect(journal.leafId).toBe('good0001');
    expect(journal.state()).toMatchObject({ ok: false, corruptEntryId: 'bad00001' });
  });
});

describe('deliberately stricter than the host, with the line to blame', () => {
  it.each([
    ['version-4.jsonl', 1, /^Line 1 cannot be read: this session was written by a newer host \(version 4\)/],
    ['entry-id-root.jsonl', 18, /^Line 18: the entry id "root" is reserved/],
    ['entry-without-id.jsonl', 18, /^Line 18: the entry has no usable id \(none\)/],
  ])('%s: the host opens it, the playground refuses it', (name, line, message) => {
    expect(hostOpen(name).entryCount).toBeGreaterThan(0);
    const result = parseSessionJsonl(text(name), seededIdSource(11));
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.line).toBe(line);
    expect(result.error.message).toMatch(message);
  });
});

describe('forking (createBranchedSession) keeps what the host keeps', () => {
  const fork = () => {
    const { journal } = imported('branched-labels.jsonl');
    const forkedFrom = expected.files['forked-from-s2.jsonl']?.forkedFrom;
    if (!forkedFrom) throw new Error('no fork recorded');
    return { parent: journal, child: journal.forkToNewSession(seededIdSource(12), asEntryId(forkedFrom.leafId)), forkedFrom };
  };
  const recorded = () => {
    const file = expected.files['forked-from-s2.jsonl'];
    if (!file?.inMemory || !file.headerKeys) throw new Error('no fork recorded');
    return { ...file.inMemory, headerKeys: file.headerKeys };
  };

  it('the same path entries, with their original ids', () => {
    const { child } = fork();
    const { entryIds, labelEntries } = recorded();
    // The host re-appends the label entries after the path, so the path is all but the last ones.
    expect(child.entries().filter((entry) => entry.type !== 'label').map((entry) => entry.id)).toEqual(entryIds.slice(0, entryIds.length - labelEntries.length));
  });

  it('labels of the path re-appended in the host label map order, each with its original timestamp', () => {
    const { child } = fork();
    const ours = child.entries().filter((entry) => entry.type === 'label').map((entry) => ({ targetId: entry['targetId'], label: entry['label'], timestamp: entry.timestamp }));
    expect(ours).toEqual(recorded().labelEntries.map(({ targetId, label, timestamp }) => ({ targetId, label, timestamp })));
    expect([...child.allLabels()]).toEqual(recorded().labelEntries.map(({ targetId, label }) => [targetId, label]));
  });

  it("parentSession is the parent's session file name, the name its export gets", () => {
    const { child, forkedFrom } = fork();
    expect(child.header.parentSession).toBe(forkedFrom.parentFileName);
  });

  it('the header keeps the key order the host writes', () => {
    const { child } = fork();
    const firstLine = toSessionJsonl(child.header, child.entries()).split('\n')[0] ?? '';
    expect(Object.keys(JSON.parse(firstLine) as object)).toEqual(recorded().headerKeys);
  });

  it('re-parents onto the nearest kept ancestor where the host keeps a dangling parentId (the host defect is not copied)', () => {
    const { child } = fork();
    // The host's file: u2 still names the dropped label entry, so its reopen cuts the branch at u2.
    const hostFork = text('forked-from-s2.jsonl').split('\n').filter((line) => line.length > 0).map((line) => JSON.parse(line) as { id?: string; parentId?: string });
    const hostU2 = hostFork.find((entry) => entry.id === id('u2'));
    expect(hostFork.some((entry) => entry.id === hostU2?.parentId)).toBe(false);
    expect(hostOpen('forked-from-s2.jsonl').branchIds[0]).toBe(id('u2'));
    // Ours: u2 hangs off s1, so the fork's branch (and its reopen) holds the whole path.
    expect(child.get(id('u2'))?.parentId).toBe(id('s1'));
    const reopened = SessionJournal.fromEntries(child.header, child.entries());
    expect(reopened.branch().map((entry) => entry.id).slice(0, 6)).toEqual(['u1', 'a1', 's1', 'u2', 'a2', 's2'].map(id));
    expect(reopened.state()).toMatchObject({ ok: true, snapshot: { quantities: { 'basil-genovese': 2, 'bean-scarlet': 1 } } });
  });

  it('the host fork file itself imports with the host leaf and (cut-short) branch', () => {
    const { journal } = imported('forked-from-s2.jsonl');
    expectSameAsHost('forked-from-s2.jsonl', journal);
  });
});

describe('unknown ids are errors, in the host words', () => {
  it('labelling, forking from and moving to an entry that does not exist', () => {
    const { journal } = imported('branched-labels.jsonl');
    const size = journal.size;
    const missing = asEntryId('nope1234');
    expect(() => journal.appendLabel(missing, 'x', { id: asEntryId('lab00001'), timestamp: '2026-12-03T09:00:00.000Z' })).toThrow(new JournalError(expected.errors.labelUnknown));
    expect(() => journal.forkToNewSession(seededIdSource(1), missing)).toThrow(new JournalError(expected.errors.forkUnknown));
    expect(() => journal.moveLeaf(missing)).toThrow(new JournalError(expected.errors.branchUnknown));
    expect(journal.size).toBe(size);
  });

  it('a label on an existing entry is appended at the leaf and wins', () => {
    const { journal } = imported('branched-labels.jsonl');
    const entry = journal.appendLabel(id('a1'), 'answer', { id: asEntryId('lab00001'), timestamp: '2026-12-03T09:00:00.000Z' });
    expect(entry).toMatchObject({ type: 'label', parentId: id('a4'), targetId: id('a1'), label: 'answer' });
    expect(journal.leafId).toBe('lab00001');
    expect(journal.labelOf(id('a1'))).toBe('answer');
  });
});

describe('navigation as the host /tree does it', () => {
  it('navigating to the entry that is already the leaf changes nothing, even a user message', () => {
    const { journal } = imported('branched-labels.jsonl');
    journal.moveLeaf(id('u4'));
    expect(journal.navigateTo(id('u4'))).toEqual({ leafId: id('u4') });
    expect(journal.leafId).toBe(id('u4'));
  });

  it("a user message's editor text joins its text blocks with no separator", () => {
    const { journal } = imported('branched-labels.jsonl');
    // The host wrote u1 with two text blocks: "Reserve two " and "basil packets".
    expect(journal.navigateTo(id('u1'))).toEqual({ leafId: null, editorText: 'Reserve two basil packets' });
  });
});

describe('exports keep opening in the host', () => {
  it.each(['branched-labels.jsonl', 'forked-from-s2.jsonl'])('%s exports byte for byte as the host wrote it', (name) => {
    const { result } = imported(name);
    expect(toSessionJsonl(result.header, result.entries)).toBe(text(name));
  });

  // verify-exports.mts opened each of our exports in the real host and recorded what it saw.
  const OpenedSchema = z.object({
    host: z.string(),
    results: z.record(z.string(), z.object({ same: z.boolean(), host: z.object({ leafId: z.nullable(z.string()), branchIds: z.array(z.string()), entryIds: z.array(z.string()) }) })),
  });
  const opened = OpenedSchema.parse(JSON.parse(text('exports-opened-by-host.json')));
  const openedBy = (name: string) => {
    const result = opened.results[name];
    if (!result) throw new Error(`no host record for the export of ${name}`);
    return result;
  };

  it('every accepted file, exported, opened in the host with our leaf, branch and entries', () => {
    expect(opened.host).toBe(expected.host);
    const names = Object.keys(opened.results).filter((name) => name !== 'playground-fork-export.jsonl');
    expect(names.length).toBeGreaterThanOrEqual(11);
    for (const name of names) {
      const { journal } = imported(name);
      const host = openedBy(name).host;
      expect(host.leafId, name).toBe(journal.leafId);
      expect(host.branchIds, name).toEqual(journal.branch().map((entry) => entry.id));
      expect(host.entryIds, name).toEqual(journal.entries().map((entry) => entry.id));
    }
  });

  it('our fork exports byte for byte as the file the host opened, with our whole re-parented branch', () => {
    const { journal } = imported('branched-labels.jsonl');
    const fork = journal.forkToNewSession(seededIdSource(12), id('s2'));
    expect(toSessionJsonl(fork.header, fork.entries())).toBe(text('playground-fork-export.jsonl'));
    const host = openedBy('playground-fork-export.jsonl').host;
    expect(host.leafId).toBe(fork.leafId);
    expect(host.branchIds).toEqual(fork.branch().map((entry) => entry.id));
    expect(host.branchIds.slice(0, 6)).toEqual(['u1', 'a1', 's1', 'u2', 'a2', 's2'].map(id));
  });
});
