import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { seededIdSource, type IdSource } from '../ids';
import { parseSessionJsonl, type ImportResult } from './importJsonl';
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
  it('skips malformed and invalid lines, reporting their physical line numbers; blank lines are ignored', () => {
    const text = file(
      HEADER_V3, // 1
      entry('aaaa0001', null), // 2
      '', // 3
      '{"type":"message", broken', // 4
      '[1,2]', // 5
      '{"type":"message","parentId":null,"timestamp":"t"}', // 6: no id
      '{"type":"session","id":"again","parentId":null,"timestamp":"t"}', // 7
      entry('aaaa0002', 'aaaa0001'), // 8
    );
    const result = expectOk(parseSessionJsonl(text, ids()));
    expect(result.entries.map((e) => e.id)).toEqual(['aaaa0001', 'aaaa0002']);
    expect(result.skipped.map((note) => note.line)).toEqual([4, 5, 6, 7]);
    expect(result.skipped[0]?.reason).toMatch(/^not valid JSON/);
    expect(result.skipped[1]?.reason).toBe('not a JSON object (an array)');
    expect(result.skipped[2]?.reason).toMatch(/^"id": /);
    expect(result.skipped[3]?.reason).toMatch(/second session header/);
    expect(result.lineCount).toBe(8);
  });

  it('skips a duplicate id and names the line where it first appeared', () => {
    const text = file(HEADER_V3, entry('aaaa0001', null), entry('aaaa0002', 'aaaa0001'), entry('aaaa0001', 'aaaa0002'));
    const result = expectOk(parseSessionJsonl(text, ids()));
    expect(result.entries.map((e) => e.id)).toEqual(['aaaa0001', 'aaaa0002']);
    expect(result.skipped).toEqual([{ line: 4, reason: 'duplicate id "aaaa0001", first used on line 2' }]);
    expect(() => SessionJournal.fromEntries(result.header, result.entries)).not.toThrow();
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

  it('skips a v1 line with no type or timestamp and chains around it', () => {
    const result = expectOk(parseSessionJsonl(file(V1_HEADER, v1('message'), '{"message":{}}', v1('message')), ids()));
    expect(result.skipped.map((s) => s.line)).toEqual([3]);
    expect(result.entries[1]?.parentId).toBe(result.entries[0]?.id);
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

describe('reserved ids', () => {
  it('skips an entry whose id is "root": it would share a revision with the empty branch', () => {
    const result = expectOk(parseSessionJsonl(file(HEADER_V3, entry('root', null), entry('a0000001', null)), ids()));
    expect(result.entries.map((e) => e.id)).toEqual(['a0000001']);
    expect(result.skipped).toHaveLength(1);
    expect(result.skipped[0]?.line).toBe(2);
    expect(result.skipped[0]?.reason).toContain('root');
  });
});
