import * as fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseSeedsArgs, SEEDS_USAGE, splitSlashCommand } from './parse';

function expectUsage(args: string): string {
  const parsed = parseSeedsArgs(args);
  expect(parsed.kind).toBe('usage');
  if (parsed.kind !== 'usage') return '';
  expect(parsed.message).toContain('Usage');
  expect(parsed.message).toContain(SEEDS_USAGE);
  return parsed.message;
}

describe('splitSlashCommand', () => {
  it('splits the name from the raw remainder after the first space, untrimmed', () => {
    expect(splitSlashCommand('/seeds reserve basil-genovese 2')).toEqual({ name: 'seeds', args: 'reserve basil-genovese 2' });
    expect(splitSlashCommand('/seeds  query ')).toEqual({ name: 'seeds', args: ' query ' });
  });

  it('gives empty args when there is no space', () => {
    expect(splitSlashCommand('/seeds')).toEqual({ name: 'seeds', args: '' });
  });

  it('is null for a line that is not a slash command', () => {
    expect(splitSlashCommand('seeds query')).toBeNull();
    expect(splitSlashCommand(' /seeds query')).toBeNull();
    expect(splitSlashCommand('')).toBeNull();
  });
});

describe('parseSeedsArgs: subcommands', () => {
  it('query without a family', () => {
    expect(parseSeedsArgs('query')).toEqual({ kind: 'query' });
    expect(parseSeedsArgs('  query  ')).toEqual({ kind: 'query' });
  });

  it('query with a family, passed on exactly (the domain filters)', () => {
    expect(parseSeedsArgs('query bean')).toEqual({ kind: 'query', family: 'bean' });
    expect(parseSeedsArgs('query Bean')).toEqual({ kind: 'query', family: 'Bean' });
  });

  it('reserve and release with an id and a count', () => {
    expect(parseSeedsArgs('reserve basil-genovese 2')).toEqual({ kind: 'reservation', action: 'reserve', id: 'basil-genovese', packets: 2, packetsText: '2' });
    expect(parseSeedsArgs('release  bean-scarlet\t1')).toEqual({ kind: 'reservation', action: 'release', id: 'bean-scarlet', packets: 1, packetsText: '1' });
  });

  it('passes ids on unchecked: the domain judges the target', () => {
    expect(parseSeedsArgs('reserve Basil-genovese 2')).toMatchObject({ kind: 'reservation', id: 'Basil-genovese' });
    expect(parseSeedsArgs('reserve __proto__ 2')).toMatchObject({ kind: 'reservation', id: '__proto__' });
  });

  it('agent on and agent off', () => {
    expect(parseSeedsArgs('agent on')).toEqual({ kind: 'grant', enabled: true });
    expect(parseSeedsArgs('agent off')).toEqual({ kind: 'grant', enabled: false });
  });
});

describe('parseSeedsArgs: plain digits become numbers, anything else stays text for the domain to refuse', () => {
  it.each([
    ['2', 2],
    ['0', 0],
    ['007', 7],
    ['9007199254740992', 2 ** 53],
  ])('%s → %s', (text, packets) => {
    expect(parseSeedsArgs(`reserve basil-genovese ${text}`)).toEqual({ kind: 'reservation', action: 'reserve', id: 'basil-genovese', packets, packetsText: text });
  });

  it.each(['1.5', '-1', '+3', '1.0', 'abc', '1e3', '0x10', '1.', '.5', '2abc', 'NaN', 'Infinity', '--1'])('%s stays the text %s', (text) => {
    const parsed = parseSeedsArgs(`release basil-genovese ${text}`);
    expect(parsed).toEqual({ kind: 'reservation', action: 'release', id: 'basil-genovese', packets: text, packetsText: text });
  });
});

describe('parseSeedsArgs: usage', () => {
  it.each(['', '   '])('no subcommand (%j)', (args) => {
    expect(expectUsage(args)).toContain('needs a subcommand');
  });

  it.each(['reserve', 'reserve basil-genovese', 'reserve basil-genovese 2 3', 'release', 'release bean-scarlet', 'release a b c'])(
    'wrong arity: %j',
    (args) => {
      expect(expectUsage(args)).toContain('needs an id and a packet count');
    },
  );

  it('query with two families', () => {
    expect(expectUsage('query bean basil')).toContain('at most one family');
  });

  it.each(['agent', 'agent yes', 'agent ON', 'agent on now', 'agent on off'])('agent without exactly on|off: %j', (args) => {
    expect(expectUsage(args)).toContain('on or off');
  });

  it.each(['grant', 'Query', 'RESERVE basil-genovese 2', 'list', '/seeds query'])('unknown subcommand %j', (args) => {
    expect(expectUsage(args)).toContain('Unknown subcommand');
  });

  it('usage lists every subcommand', () => {
    expect(SEEDS_USAGE).toBe('Usage:\n  /seeds query [family]\n  /seeds reserve <id> <packets>\n  /seeds release <id> <packets>\n  /seeds agent on|off');
  });

  it('never throws, whatever the line', () => {
    for (const args of ['\u0000', '🌱 🌱', 'reserve \n basil 2', 'query '.repeat(1000), 'constructor', '__proto__', 'toString 1 2']) {
      expect(() => parseSeedsArgs(args)).not.toThrow();
    }
  });
});

describe('parseSeedsArgs: any input', () => {
  it('never throws and always answers with a known kind (seed 20260301)', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.array(fc.constantFrom('query', 'reserve', 'release', 'agent', 'on', 'off', 'bean', '2', '1.5', ' ', '\t')).map((w) => w.join(' '))), (args) => {
        const parsed = parseSeedsArgs(args);
        expect(['query', 'reservation', 'grant', 'usage']).toContain(parsed.kind);
        if (parsed.kind === 'usage') expect(parsed.message).toContain('Usage');
      }),
      { seed: 20260301, numRuns: 300 },
    );
  });
});
