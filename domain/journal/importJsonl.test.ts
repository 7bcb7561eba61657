import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { asEntryId, seededIdSource, type IdSource } from '../ids';
import { parseSessionJsonl } from './importJsonl';
import type { ImportResult } from './importReport';
import { SessionJournal } from './journal';

const HEADER_V3 = '{"type":"session","version":3,"id":"sess-1","timestamp":"2026-01-01T00:00:00.000Z","cwd":"/lab"}';

const line = (value: unknown): string => JSON.stringify(value);
const entry = (id: string, parentId: string | null, extra: Record<string, unknown> = {}): string =>
  line({ type: 'message', id, parentId, timestamp: '2026-01-01T00:00:01.000Z', message: { role: 'user', content: 'hi' }, ...extra });
const file = (...lines: string[]): string => `${lines.join('\n')}\n`;

function expectOk(result: ImportResult): Extract<ImportResult, { ok: true }> {
  if (!result.ok) throw new Error(`expected ok, got: ${result.error.message}`);
  return result;
}

function titleSlot(title: string): string {
  const slot = { type: 'title', v: 1, title, source: 'user', updatedAt: '2026-01-01T00:00:00.000Z', pad: '' };
  const bare = new TextEncoder().encode(line(slot)).length;
  return line({ ...slot, pad: ' '.repeat(255 - bare) });
}

const ids = (): IdSource => seededIdSource(7);

describe('parseSessionJsonl: current (v3) files', () => {
  it('reads a minimal v3 file as it is', () => {
    const result = expectOk(parseSessionJsonl(file(HEADER_V3, entry('aaaa0001', null), entry('aaaa0002', 'aaaa0001')), ids()));
    expect(result.header).toEqual({ type: 'session', version: 3, id: 'sess-1', timestamp: '2026-01-01T00:00:00.000Z', cwd: '/lab' });
    expect(result.entries.map((e) => [e.id, e.parentId])).toEqual([
      ['aaaa0001', null],
      ['aaaa0002', 'aaaa0001'],
    ]);
    expect(result.migratedFrom).toBeNull();
    expect(result.hadTitleSlot).toBe(false);
    expect(result.skipped).toEqual([]);
    expect(result.warnings).toEqual([]);
    expect(result.lineCount).toBe(3);
  });

  it('keeps unknown entry types verbatim, key order included', () => {
    const odd = '{"type":"archive","id":"aaaa0002","parentId":"aaaa0001","timestamp":"t","targetId":"aaaa0001","archived":true}';
    const result = expectOk(parseSessionJsonl(file(HEADER_V3, entry('aaaa0001', null), odd), ids()));
    expect(JSON.stringify(result.entries[1])).toBe(odd);
  });

  it('strips a title slot on line 1 and folds its title into a header that has none', () => {
    const slot = titleSlot('Seed planning');
    expect(new TextEncoder().encode(`${slot}\n`).length).toBe(256);
    const result = expectOk(parseSessionJsonl(file(slot, HEADER_V3, entry('aaaa0001', null)), ids()));
    expect(result.hadTitleSlot).toBe(true);
    expect(result.header['title']).toBe('Seed planning');
    expect(result.entries).toHaveLength(1);
    expect(result.lineCount).toBe(3);
  });

  it("lets the slot's title win over the header's, as the host's loader folds it", () => {
    const header = HEADER_V3.replace('}', ',"title":"Old title"}');
    const result = expectOk(parseSessionJsonl(file(titleSlot('Slot title'), header), ids()));
    expect(result.header['title']).toBe('Slot title');
    expect(result.header['titleSource']).toBe('user');
  });

  it('reports a file that ends after its title slot', () => {
    expect(parseSessionJsonl(file(titleSlot('x')), ids())).toEqual({
      ok: false,
      error: { line: 2, message: 'Line 2: the file ends after its title line, so it has no session header.' },
    });
  });

  it('ignores a leading byte-order mark', () => {
    const result = expectOk(parseSessionJsonl(`\uFEFF${file(HEADER_V3, entry('aaaa0001', null))}`, ids()));
    expect(result.header.id).toBe('sess-1');
    expect(result.entries).toHaveLength(1);
  });

  it('tolerates CRLF line endings and a missing trailing newline', () => {
    const text = [HEADER_V3, entry('aaaa0001', null), entry('aaaa0002', 'aaaa0001')].join('\r\n');
    const result = expectOk(parseSessionJsonl(text, ids()));
    expect(result.entries.map((e) => e.id)).toEqual(['aaaa0001', 'aaaa0002']);
    expect(result.skipped).toEqual([]);
    expect(result.lineCount).toBe(3);
    const withTrailing = expectOk(parseSessionJsonl(`${text}\r\n`, ids()));
    expect(withTrailing.entries).toEqual(result.entries);
    expect(withTrailing.lineCount).toBe(3);
  });
});

describe('parseSessionJsonl: bad lines inside a session', () => {
  it('skips the lines the host skips (bad JSON, non-objects, a second header), reporting their physical line numbers; blank lines are ignored', () => {
    const text = file(
      HEADER_V3, // 1
      entry('aaaa0001', null), // 2
      '', // 3
      '{"type":"message", broken', // 4
      '[1,2]', // 5
      '{"type":"session","id":"again","parentId":null,"timestamp":"t"}', // 6
      entry('aaaa0002', 'aaaa0001'), // 7
    );
    const result = expectOk(parseSessionJsonl(text, ids()));
    expect(result.entries.map((e) => e.id)).toEqual(['aaaa0001', 'aaaa0002']);
    expect(result.skipped.map((note) => note.line)).toEqual([4, 5, 6]);
    expect(result.skipped[0]?.reason).toMatch(/^not valid JSON/);
    expect(result.skipped[1]?.reason).toBe('not a JSON object (an array)');
    expect(result.skipped[2]?.reason).toMatch(/second session header/);
    expect(result.lineCount).toBe(7);
  });

  it('keeps the last line of a duplicate id, as the host does, and names the line that replaced the earlier one', () => {
    const text = file(HEADER_V3, entry('aaaa0001', null), entry('aaaa0002', 'aaaa0001'), entry('aaaa0001', 'aaaa0002'));
    const result = expectOk(parseSessionJsonl(text, ids()));
    // Line 3 and line 4 now name each other: the loop is cut at its first line, which becomes a root.
    expect(result.entries.map((e) => [e.id, e.parentId])).toEqual([
      ['aaaa0002', null],
      ['aaaa0001', 'aaaa0002'],
    ]);
    expect(result.skipped).toEqual([{ line: 2, reason: 'id "aaaa0001" is used again on line 4, and the last line with an id wins, as in the host' }]);
    expect(result.warnings.map((note) => note.line)).toEqual([3, 3]);
    const journal = SessionJournal.fromEntries(result.header, result.entries);
    expect(journal.leafId).toBe('aaaa0001');
    expect(journal.branch().map((e) => e.id)).toEqual(['aaaa0002', 'aaaa0001']);
  });

  it('keeps an entry whose parent has not appeared (an orphan root) and warns with its line', () => {
    const text = file(HEADER_V3, entry('aaaa0001', null), entry('aaaa0002', 'gone0000'));
    const result = expectOk(parseSessionJsonl(text, ids()));
    expect(result.entries.map((e) => e.id)).toEqual(['aaaa0001', 'aaaa0002']);
    expect(result.warnings).toHaveLength(1);
    expect(result.warnings[0]?.line).toBe(3);
    expect(result.warnings[0]?.reason).toContain('"gone0000"');
    const journal = SessionJournal.fromEntries(result.header, result.entries);
    expect(journal.childrenOf(null)).toEqual(['aaaa0001', 'aaaa0002']);
  });
});

describe('parseSessionJsonl: refused files', () => {
  it('refuses a first line that is not a session header, with line 1 and nothing else', () => {
    const result = parseSessionJsonl(file(entry('aaaa0001', null), HEADER_V3), ids());
    expect(result).toEqual({
      ok: false,
      error: {
        line: 1,
        message: 'Line 1 is not a session header: a session file starts with a line of type "session", and this one has type "message".',
      },
    });
  });

  it('refuses a first line that is not JSON', () => {
    const result = parseSessionJsonl(file('hello', HEADER_V3), ids());
    expect(result.ok).toBe(false);
    if (!result.ok) {
      expect(result.error.line).toBe(1);
      expect(result.error.message).toMatch(/^Line 1 is not a session header: it is not valid JSON/);
    }
  });

  it('refuses a header without a string id', () => {
    const result = parseSessionJsonl('{"type":"session","version":3,"id":42}\n', ids());
    expect(result).toEqual({ ok: false, error: { line: 1, message: 'Line 1 is not a session header: it has no session "id" string.' } });
  });

  it('blames the first non-empty line, counted physically', () => {
    const result = parseSessionJsonl('\n\n{"type":"label"}\n', ids());
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.line).toBe(3);
  });

  it('refuses a file written by a newer host', () => {
    const result = parseSessionJsonl(file(HEADER_V3.replace('"version":3', '"version":4'), entry('aaaa0001', null)), ids());
    expect(result).toEqual({
      ok: false,
      error: { line: 1, message: 'Line 1 cannot be read: this session was written by a newer host (version 4); this playground reads up to 3.' },
    });
  });

  it('refuses an empty file (or one of blank lines) with a clear message', () => {
    const message = 'The file is empty: a session file starts with a {"type":"session",…} header line.';
    expect(parseSessionJsonl('', ids())).toEqual({ ok: false, error: { line: 1, message } });
    const blank = parseSessionJsonl('\n  \r\n', ids());
    expect(blank).toEqual({ ok: false, error: { line: 3, message } });
  });
});

describe('parseSessionJsonl: migration', () => {
  const V1_HEADER = '{"type":"session","id":"old-1","timestamp":"2025-01-01T00:00:00.000Z","cwd":"/x","provider":"anthropic","thinkingLevel":"off"}';
  const v1 = (type: string, extra: Record<string, unknown> = {}): string => line({ type, timestamp: '2025-01-01T00:00:01.000Z', ...extra });

  it('migrates a v1 file to one chain of fresh 8-character ids, as the host does', () => {
    const text = file(
      V1_HEADER, // index 0
      v1('message', { message: { role: 'user', content: 'a' } }), // index 1
      v1('message', { message: { role: 'hookMessage', content: 'b' } }), // index 2
      v1('compaction', { summary: 's', firstKeptEntryIndex: 2, tokensBefore: 10 }), // index 3
      v1('compaction', { summary: 's', firstKeptEntryIndex: 0, tokensBefore: 10 }), // index 4: header
      v1('compaction', { summary: 's', firstKeptEntryIndex: 99, tokensBefore: 10 }), // index 5: out of range
      v1('model_change', { provider: 'anthropic', modelId: 'm' }),
    );
    const result = expectOk(parseSessionJsonl(text, ids()));
    expect(result.migratedFrom).toBe(1);
    expect(result.header['version']).toBe(3);
    expect(result.header).toMatchObject({ provider: 'anthropic', thinkingLevel: 'off', id: 'old-1' });

    const entries = result.entries;
    expect(entries).toHaveLength(6);
    expect(new Set(entries.map((e) => e.id)).size).toBe(6);
    for (const e of entries) expect(e.id).toHaveLength(8);
    expect(entries[0]?.parentId).toBeNull();
    entries.slice(1).forEach((e, i) => expect(e.parentId).toBe(entries[i]?.id));

    expect(entries[1]?.['message']).toEqual({ role: 'custom', content: 'b' });
    expect(entries[2]?.['firstKeptEntryId']).toBe(entries[1]?.id);
    for (const compaction of entries.slice(2, 5)) expect(compaction).not.toHaveProperty('firstKeptEntryIndex');
    expect(entries[3]).not.toHaveProperty('firstKeptEntryId');
    expect(entries[4]).not.toHaveProperty('firstKeptEntryId');
    expect(result.warnings.map((w) => w.line)).toEqual([5, 6]);

    // The host assigns id and parentId onto the entry, so they follow its own keys.
    expect(Object.keys(entries[5] ?? {})).toEqual(['type', 'timestamp', 'provider', 'modelId', 'id', 'parentId']);
    const journal = SessionJournal.fromEntries(result.header, entries);
    expect(journal.leafId).toBe(entries[5]?.id);
    expect(journal.branch()).toHaveLength(6);
  });

  it('counts firstKeptEntryIndex in parsed lines, not physical ones, as the host does', () => {
    const text = file(V1_HEADER, '', 'not json', v1('message', { n: 1 }), v1('compaction', { firstKeptEntryIndex: 1 }));
    const result = expectOk(parseSessionJsonl(text, ids()));
    expect(result.entries[1]?.['firstKeptEntryId']).toBe(result.entries[0]?.id);
    expect(result.skipped.map((s) => s.line)).toEqual([3]);
  });

  it('treats an explicit version 1 like a missing one', () => {
    const result = expectOk(parseSessionJsonl(file(V1_HEADER.replace('"id"', '"version":1,"id"'), v1('message')), ids()));
    expect(result.migratedFrom).toBe(1);
    expect(result.entries[0]?.id).toHaveLength(8);
  });

  it('keeps a v1 line with no type or timestamp in the chain, as the host migrates every line', () => {
    const result = expectOk(parseSessionJsonl(file(V1_HEADER, v1('message'), '{"message":{}}', v1('message')), ids()));
    expect(result.skipped).toEqual([]);
    expect(result.entries).toHaveLength(3);
    expect(result.entries[1]).toMatchObject({ message: {}, parentId: result.entries[0]?.id });
    expect(result.entries[1]?.type).toBeUndefined();
    expect(result.entries[2]?.parentId).toBe(result.entries[1]?.id);
  });

  it('keeps v2 ids and only renames hookMessage', () => {
    const header = HEADER_V3.replace('"version":3', '"version":2');
    const text = file(header, entry('abcd0001', null), entry('abcd0002', 'abcd0001', { message: { role: 'hookMessage', content: 'x' } }));
    const result = expectOk(parseSessionJsonl(text, ids()));
    expect(result.migratedFrom).toBe(2);
    expect(result.header['version']).toBe(3);
    expect(result.entries.map((e) => [e.id, e.parentId])).toEqual([
      ['abcd0001', null],
      ['abcd0002', 'abcd0001'],
    ]);
    expect(result.entries[1]?.['message']).toEqual({ role: 'custom', content: 'x' });
  });

  it('does not rename hookMessage in a v3 file (the host only migrates older files)', () => {
    const text = file(HEADER_V3, entry('abcd0001', null, { message: { role: 'hookMessage' } }));
    expect(expectOk(parseSessionJsonl(text, ids())).entries[0]?.['message']).toEqual({ role: 'hookMessage' });
  });

  it('refuses, without throwing, when the id source cannot produce fresh ids', () => {
    const stuck: IdSource = { entryId: () => 'same0000', sessionId: () => 's', now: () => 't' };
    const result = parseSessionJsonl(file(V1_HEADER, v1('message'), v1('message')), stuck);
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.line).toBe(3);
  });
});

describe('parseSessionJsonl: hostile input', () => {
  it('keeps __proto__ keys as data and pollutes nothing', () => {
    const text = file(
      HEADER_V3.replace('}', ',"__proto__":{"polluted":true}}'),
      '{"type":"message","id":"aaaa0001","parentId":null,"timestamp":"t","__proto__":{"polluted":true}}',
    );
    const result = expectOk(parseSessionJsonl(text, ids()));
    expect(Object.hasOwn(result.header, '__proto__')).toBe(true);
    expect(Object.hasOwn(result.entries[0] ?? {}, '__proto__')).toBe(true);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    expect((result.header as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('handles a 5 MB line and odd unicode', () => {
    const big = 'x'.repeat(5 * 1024 * 1024);
    const text = file(HEADER_V3, entry('aaaa0001', null, { blob: big }), `{"type":"message","id":"\u{1F331}\uD800","broken":"${big}`, entry('\u00e9\u200b', 'aaaa0001'));
    const result = expectOk(parseSessionJsonl(text, ids()));
    expect(result.entries.map((e) => e.id)).toEqual(['aaaa0001', '\u00e9\u200b']);
    expect(result.skipped.map((s) => s.line)).toEqual([3]);
    expect(result.skipped[0]?.reason.length).toBeLessThan(300);
  });

  it('never throws, and whatever it accepts SessionJournal.fromEntries accepts', () => {
    const jsonish = fc.oneof(
      fc.string(),
      fc.json(),
      fc.constantFrom(HEADER_V3, entry('aaaa0001', null), entry('aaaa0002', 'aaaa0001'), entry('aaaa0001', 'zzzz'), '{"type":"title","title":"t"}'),
    );
    fc.assert(
      fc.property(fc.array(jsonish, { maxLength: 12 }), fc.constantFrom('\n', '\r\n'), (lines, eol) => {
        const result = parseSessionJsonl(lines.join(eol), seededIdSource(3));
        if (result.ok) expect(() => SessionJournal.fromEntries(result.header, result.entries)).not.toThrow();
        else expect(result.error.line).toBeGreaterThanOrEqual(1);
      }),
      { numRuns: 400 },
    );
  });
});

describe('deliberately stricter than the host: refused with the line to blame', () => {
  it('refuses an entry whose id is "root": it would share a revision with the empty branch', () => {
    const result = parseSessionJsonl(file(HEADER_V3, entry('a0000001', null), entry('root', 'a0000001')), ids());
    expect(result).toEqual({ ok: false, error: { line: 3, message: expect.stringMatching(/^Line 3: the entry id "root" is reserved: .*nothing was imported\.$/) } });
  });

  it.each([
    ['no id', '{"type":"message","parentId":null,"timestamp":"t"}', 'none'],
    ['an empty id', '{"type":"message","id":"","parentId":null,"timestamp":"t"}', 'a string, empty'],
    ['a numeric id', '{"type":"message","id":7,"parentId":null,"timestamp":"t"}', 'a number'],
  ])('refuses an entry with %s', (_name, bad, kind) => {
    const result = parseSessionJsonl(file(HEADER_V3, entry('a0000001', null), '', bad), ids());
    expect(result).toEqual({ ok: false, error: { line: 4, message: `Line 4: the entry has no usable id (${kind}), so nothing can name it as a parent or as the leaf; nothing was imported.` } });
  });

  it.each([
    ['type', '{"type":5,"id":"a0000002","parentId":null,"timestamp":"t"}', 'a number'],
    ['timestamp', '{"type":"message","id":"a0000002","parentId":null,"timestamp":{}}', 'an object'],
  ])('refuses a %s that is present but not a string', (key, bad, kind) => {
    expect(parseSessionJsonl(file(HEADER_V3, bad), ids())).toEqual({ ok: false, error: { line: 2, message: `Line 2: "${key}" is ${kind}, not a string; nothing was imported.` } });
  });

  it.each([4, '4', 3.5])('refuses header version %j (above 3), which pi 0.73.1 would open as v3', (version) => {
    const header = HEADER_V3.replace('"version":3', `"version":${JSON.stringify(version)}`);
    const result = parseSessionJsonl(file(header, entry('a0000001', null)), ids());
    expect(result).toEqual({ ok: false, error: { line: 1, message: expect.stringContaining('Line 1 cannot be read: this session was written by a newer host') } });
  });

  it.each([true, 'three', ''])('refuses header version %j, which is not a number', (version) => {
    const header = HEADER_V3.replace('"version":3', `"version":${JSON.stringify(version)}`);
    const result = parseSessionJsonl(file(header), ids());
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.error.line).toBe(1);
  });
});

describe('opened as the host opens them', () => {
  it('reads header version "3" as 3 (no migration) and null as a missing version (v1, migrated)', () => {
    const three = expectOk(parseSessionJsonl(file(HEADER_V3.replace('"version":3', '"version":"3"'), entry('a0000001', null)), ids()));
    expect(three.migratedFrom).toBeNull();
    expect(three.entries.map((e) => e.id)).toEqual(['a0000001']);
    expect(three.header.version).toBe(3);
    const two = expectOk(parseSessionJsonl(file(HEADER_V3.replace('"version":3', '"version":"2"'), entry('a0000001', null)), ids()));
    expect(two.migratedFrom).toBe(2);
    const none = expectOk(parseSessionJsonl(file(HEADER_V3.replace('"version":3', '"version":null'), entry('a0000001', null), entry('a0000002', null)), ids()));
    expect(none.migratedFrom).toBe(1);
    // v1 migration gives every line a fresh id and chains them in file order, whatever they said.
    expect(none.entries.map((e) => e.id)).not.toContain('a0000001');
    expect(none.entries[1]?.parentId).toBe(none.entries[0]?.id);
  });

  it.each([
    ['no parentId', '{"type":"message","id":"a0000002","timestamp":"t"}', 'has no parentId'],
    ['an empty parentId', '{"type":"message","id":"a0000002","parentId":"","timestamp":"t"}', 'has an empty parentId'],
    ['a numeric parentId', '{"type":"message","id":"a0000002","parentId":1,"timestamp":"t"}', 'has a parentId that is a number'],
    ['itself as parent', '{"type":"message","id":"a0000002","parentId":"a0000002","timestamp":"t"}', 'names itself as its parent'],
  ])('makes an entry with %s a root (null), as the host reads it, with a warning', (_name, odd, why) => {
    const result = expectOk(parseSessionJsonl(file(HEADER_V3, entry('a0000001', null), odd), ids()));
    expect(result.entries[1]?.parentId).toBeNull();
    expect(result.warnings).toEqual([{ line: 3, reason: `the entry ${why}: it is a root, as the host reads it` }]);
    const journal = SessionJournal.fromEntries(result.header, result.entries);
    expect(journal.branch().map((e) => e.id)).toEqual(['a0000002']);
  });

  it('keeps an entry without timestamp or without type (an unknown entry) on the branch', () => {
    const result = expectOk(
      parseSessionJsonl(file(HEADER_V3, entry('a0000001', null), '{"type":"message","id":"a0000002","parentId":"a0000001"}', '{"id":"a0000003","parentId":"a0000002","timestamp":"t"}'), ids()),
    );
    expect(result.skipped).toEqual([]);
    expect(result.entries[1]?.timestamp).toBeUndefined();
    expect(result.entries[2]?.type).toBeUndefined();
    const journal = SessionJournal.fromEntries(result.header, result.entries);
    expect(journal.leafId).toBe('a0000003');
    expect(journal.branch().map((e) => e.id)).toEqual(['a0000001', 'a0000002', 'a0000003']);
  });

  it('keeps a seed desk line lacking fields the host does not need, and validates its snapshot like any other', () => {
    const desk = (id: string, parentId: string | undefined, data: unknown, timestamp?: string) =>
      line({ type: 'custom', customType: 'seed-desk-state-v1', ...(data === undefined ? {} : { data }), id, ...(parentId === undefined ? {} : { parentId }), ...(timestamp === undefined ? {} : { timestamp }) });
    const valid = { version: 1, agentEnabled: false, quantities: { 'basil-genovese': 1 } };
    const text = file(
      HEADER_V3,
      desk('d0000001', undefined, valid), // no parentId, no timestamp: a root
      desk('d0000002', 'd0000001', undefined), // no data at all: an invalid snapshot
      desk('d0000003', 'd0000002', valid, '2026-01-01T00:00:02.000Z'), // valid, but below the invalid one
    );
    const result = expectOk(parseSessionJsonl(text, ids()));
    expect(result.skipped).toEqual([]);
    expect(result.entries.map((e) => e.id)).toEqual(['d0000001', 'd0000002', 'd0000003']);
    const journal = SessionJournal.fromEntries(result.header, result.entries);
    expect(journal.seedDeskEntryCount).toBe(3);
    expect(journal.state(asEntryId('d0000001'))).toMatchObject({ ok: true });
    expect(journal.state()).toMatchObject({ ok: false, corruptEntryId: 'd0000002', deskHead: 'd0000003' });
  });

  it('links a parent that appears on a later line and says so', () => {
    const result = expectOk(parseSessionJsonl(file(HEADER_V3, entry('a0000002', 'a0000001'), entry('a0000001', null), entry('a0000003', 'a0000002')), ids()));
    expect(result.warnings).toEqual([{ line: 2, reason: 'parent "a0000001" comes later, on line 3; linked to it, as the host does' }]);
    const journal = SessionJournal.fromEntries(result.header, result.entries);
    expect(journal.leafId).toBe('a0000003');
    expect(journal.branch().map((e) => e.id)).toEqual(['a0000001', 'a0000002', 'a0000003']);
  });

  it('cuts a loop of parents at its first line (the host would walk it forever)', () => {
    const result = expectOk(parseSessionJsonl(file(HEADER_V3, entry('a0000001', 'a0000003'), entry('a0000002', 'a0000001'), entry('a0000003', 'a0000002')), ids()));
    expect(result.entries.map((e) => e.parentId)).toEqual([null, 'a0000001', 'a0000002']);
    expect(result.warnings.at(-1)).toEqual({ line: 2, reason: 'its parents lead back to it (3 entries in a loop); it is kept as a root, where the host would walk the loop forever' });
    const journal = SessionJournal.fromEntries(result.header, result.entries);
    expect(journal.branch().map((e) => e.id)).toEqual(['a0000001', 'a0000002', 'a0000003']);
  });
});
