import { describe, expect, it } from 'vitest';
import { asEntryId, asRevision, asSessionId, cryptoIdSource, freshEntryId, seededIdSource, type IdSource } from './ids';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-8[0-9a-f]{3}-[0-9a-f]{12}$/;

describe('branded ids', () => {
  it('are the same strings at run time', () => {
    expect(asSessionId('s-1')).toBe('s-1');
    expect(asEntryId('abcd1234')).toBe('abcd1234');
    expect(asRevision('s-1:root')).toBe('s-1:root');
  });
});

describe('seededIdSource', () => {
  it('gives the same ids for the same seed', () => {
    const a = seededIdSource(42);
    const b = seededIdSource(42);
    const fromA = [a.entryId(), a.sessionId(), a.now(), a.entryId()];
    const fromB = [b.entryId(), b.sessionId(), b.now(), b.entryId()];
    expect(fromA).toEqual(fromB);
  });

  it('gives different ids for different seeds', () => {
    expect(seededIdSource(1).entryId()).not.toBe(seededIdSource(2).entryId());
  });

  it('treats seed 0 like seed 1 (xorshift cannot start from 0)', () => {
    expect(seededIdSource(0).entryId()).toBe(seededIdSource(1).entryId());
  });

  it('makes 8-hex-character entry ids that do not repeat over a long run', () => {
    const source = seededIdSource(7);
    const ids = Array.from({ length: 2000 }, () => source.entryId());
    for (const id of ids) expect(id).toMatch(/^[0-9a-f]{8}$/);
    expect(new Set(ids).size).toBe(ids.length);
  });

  it('makes UUID-shaped session ids', () => {
    const source = seededIdSource(99);
    const a = source.sessionId();
    const b = source.sessionId();
    expect(a).toMatch(UUID);
    expect(b).toMatch(UUID);
    expect(a).not.toBe(b);
  });

  it('runs a clock that starts at the given time and ticks one second per call', () => {
    const source = seededIdSource(3, Date.UTC(2026, 4, 1, 12, 0, 0));
    expect(source.now()).toBe('2026-05-01T12:00:01.000Z');
    expect(source.now()).toBe('2026-05-01T12:00:02.000Z');
  });

  it('defaults the clock to 2026-01-01', () => {
    expect(seededIdSource(3).now()).toBe('2026-01-01T00:00:01.000Z');
  });
});

describe('freshEntryId', () => {
  const scripted = (ids: string[]): IdSource => {
    let i = 0;
    return { entryId: () => ids[i++ % ids.length] ?? 'unused00', sessionId: () => 'unused', now: () => '2026-01-01T00:00:00.000Z' };
  };

  it('returns the first id that is not taken', () => {
    const taken = new Set(['aaaaaaaa', 'bbbbbbbb']);
    expect(freshEntryId(scripted(['aaaaaaaa', 'bbbbbbbb', 'cccccccc']), (id) => taken.has(id))).toBe('cccccccc');
  });

  it('throws after 100 collisions instead of looping forever', () => {
    let calls = 0;
    const source: IdSource = { entryId: () => (calls++, 'aaaaaaaa'), sessionId: () => 'x', now: () => 'y' };
    expect(() => freshEntryId(source, () => true)).toThrow(/100 attempts/);
    expect(calls).toBe(100);
  });
});

describe('cryptoIdSource', () => {
  it('makes 8-character entry ids, UUID session ids and ISO timestamps', () => {
    expect(cryptoIdSource.entryId()).toMatch(/^[0-9a-f]{8}$/);
    expect(cryptoIdSource.sessionId()).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    const now = cryptoIdSource.now();
    expect(new Date(now).toISOString()).toBe(now);
  });
});
