import { describe, expect, it } from 'vitest';
import { deskLines, queryText, statusText } from './deskText';
import { asRevision } from './ids';
import { deskRows, EMPTY_SNAPSHOT } from './snapshot';

const REV = asRevision('sess-1:ab12cd34');
const twoBasil = deskRows({ version: 1, agentEnabled: false, quantities: { 'basil-genovese': 2 } });

describe('deskLines', () => {
  it('writes one line per item, exactly "<id>: <n> available, <n> reserved"', () => {
    expect(deskLines(twoBasil)).toEqual([
      'basil-genovese: 6 available, 2 reserved',
      'bean-scarlet: 5 available, 0 reserved',
      'marigold-french: 3 available, 0 reserved',
    ]);
  });

  it('writes nothing for no rows', () => {
    expect(deskLines([])).toEqual([]);
  });
});

describe('queryText', () => {
  it('puts the revision on its own last line', () => {
    expect(queryText(twoBasil, REV)).toBe(
      'basil-genovese: 6 available, 2 reserved\nbean-scarlet: 5 available, 0 reserved\nmarigold-french: 3 available, 0 reserved\nrevision: sess-1:ab12cd34',
    );
  });
});

describe('statusText', () => {
  it('says nothing is reserved and the agent is off on a fresh desk', () => {
    expect(statusText(deskRows(EMPTY_SNAPSHOT), false, asRevision('s:root'))).toBe('Seed desk: nothing reserved; agent off; revision s:root');
  });

  it('lists what the branch holds and the grant', () => {
    const rows = deskRows({ version: 1, agentEnabled: true, quantities: { 'basil-genovese': 2, 'marigold-french': 1 } });
    expect(statusText(rows, true, REV)).toBe('Seed desk: holding 2 basil-genovese, 1 marigold-french; agent on; revision sess-1:ab12cd34');
  });
});
