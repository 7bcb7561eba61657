import { describe, expect, it } from 'vitest';
import { asEntryId, asSessionId, freshEntryId, seededIdSource, type EntryId } from '../ids';
import { SEED_DESK_CUSTOM_TYPE } from '../snapshot';
import {
  assistantMessageEntry,
  customEntry,
  labelEntry,
  sessionHeader,
  toolResultEntry,
  userMessageEntry,
  type JournalEntry,
  type SessionHeader,
} from './entry';
import { toSessionJsonl } from './exportJsonl';
import { parseSessionJsonl } from './importJsonl';
import { SessionJournal } from './journal';

const TS = '2026-01-01T00:00:00.000Z';

describe('toSessionJsonl', () => {
  it("writes the header in the host's key order, other keys after in their own order, version forced to 3", () => {
    const header = {
      cwd: '/lab',
      parentSession: '/sessions/a.jsonl',
      id: 'sess-1',
      title: 'Seeds',
      type: 'session',
      timestamp: TS,
      provider: 'anthropic',
    } as unknown as SessionHeader;
    const [first] = toSessionJsonl(header, []).split('\n');
    expect(first).toBe(
      `{"type":"session","version":3,"id":"sess-1","timestamp":"${TS}","cwd":"/lab","parentSession":"/sessions/a.jsonl","title":"Seeds","provider":"anthropic"}`,
    );
    const old = { type: 'session', version: 1, id: 'x' } as unknown as SessionHeader;
    expect(toSessionJsonl(old, [])).toBe('{"type":"session","version":3,"id":"x"}\n');
  });

  it('writes a custom entry with customType and data before id, as the host does', () => {
    const data = { version: 1, agentEnabled: false, quantities: { 'bean-scarlet': 2 } };
    const entry = customEntry(SEED_DESK_CUSTOM_TYPE, data, { id: asEntryId('abcd1234'), parentId: null, timestamp: TS });
    const lines = toSessionJsonl(sessionHeader(asSessionId('s'), TS, '/lab'), [entry]).split('\n');
    expect(lines[1]).toBe(
      `{"type":"custom","customType":"seed-desk-state-v1","data":{"version":1,"agentEnabled":false,"quantities":{"bean-scarlet":2}},"id":"abcd1234","parentId":null,"timestamp":"${TS}"}`,
    );
  });

  it('ends every line, the last included, with a single newline', () => {
    const header = sessionHeader(asSessionId('s'), TS, '/lab');
    const entries = [userMessageEntry('hi', { id: asEntryId('aaaa0001'), parentId: null, timestamp: TS })];
    const text = toSessionJsonl(header, entries);
    expect(text.endsWith('}\n')).toBe(true);
    expect(text.endsWith('\n\n')).toBe(false);
    expect(text.split('\n')).toHaveLength(3);
    expect(toSessionJsonl(header, [])).toBe(`${JSON.stringify(header)}\n`);
  });

  it('keeps a __proto__ key in the header as data', () => {
    const header = JSON.parse('{"type":"session","id":"s","__proto__":{"x":1}}') as SessionHeader;
    expect(toSessionJsonl(header, [])).toBe('{"type":"session","version":3,"id":"s","__proto__":{"x":1}}\n');
  });

  it('round-trips a branched, labelled journal through import unchanged', () => {
    const ids = seededIdSource(42);
    const journal = SessionJournal.empty(sessionHeader(asSessionId(ids.sessionId()), ids.now(), '/lab'));
    const place = (): { id: EntryId; parentId: EntryId | null; timestamp: string } => ({
      id: freshEntryId(ids, (id) => journal.has(id)),
      parentId: journal.leafId,
      timestamp: ids.now(),
    });
    const add = (build: (p: ReturnType<typeof place>) => JournalEntry): EntryId => {
      const entry = build(place());
      journal.append(entry);
      return entry.id;
    };

    const ask = add((p) => userMessageEntry('Reserve two beans', p));
    const call = add((p) =>
      assistantMessageEntry([{ type: 'toolCall', id: 'call-1', name: 'seed_desk', arguments: { op: 'query' } }], p, 'toolUse'),
    );
    add((p) =>
      toolResultEntry({ toolCallId: 'call-1', toolName: 'seed_desk', content: [{ type: 'text', text: 'ok' }], details: { ok: true }, isError: false }, p),
    );
    const beans = add((p) => customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: false, quantities: { 'bean-scarlet': 2 } }, p));
    add((p) => labelEntry(beans, 'two beans', p));

    journal.moveLeaf(call);
    const basil = add((p) => customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: true, quantities: { 'basil-genovese': 1 } }, p));
    add((p) => labelEntry(ask, 'start', p));
    add((p) => labelEntry(ask, undefined, p));
    add((p) => assistantMessageEntry([{ type: 'text', text: 'Basil held.' }], p));

    const text = toSessionJsonl(journal.header, journal.entries());
    const result = parseSessionJsonl(text, seededIdSource(1));
    if (!result.ok) throw new Error(result.error.message);
    expect(result.header).toEqual(journal.header);
    expect(result.entries).toEqual(journal.entries());
    expect(result.entries.map((e) => JSON.stringify(e))).toEqual(journal.entries().map((e) => JSON.stringify(e)));
    expect(result).toMatchObject({ migratedFrom: null, hadTitleSlot: false, skipped: [], warnings: [] });

    const reopened = SessionJournal.fromEntries(result.header, result.entries);
    expect(reopened.childrenOf(call)).toHaveLength(2);
    expect(reopened.labelOf(beans)).toBe('two beans');
    expect(reopened.labelOf(ask)).toBeUndefined();
    expect(reopened.state().ok && reopened.state().deskHead).toBe(basil);
    expect(toSessionJsonl(result.header, result.entries)).toBe(text);
  });
});
