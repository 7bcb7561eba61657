/**
 * Issue 37's lesson: what a line of the learner's own extension said, read against the notes its
 * custom entries hold (goalNotes.ts), as the `note` goal condition reads it.
 */
import { describe, expect, it } from 'vitest';
import type { StampedFact } from './facts';
import { noteLinesOf, saysOfLine } from './goalNotes';

let seq = 0;
const line = (text: string, onBranch: string | null, offBranch: string[] = [], appended = 0): StampedFact => ({
  kind: 'own-line',
  text,
  custom: { appended, onBranch: onBranch === null ? {} : { 'my-note': { text: onBranch } }, offBranch: { 'my-note': offBranch.map((note) => ({ text: note })) } },
  seq: ++seq,
  extension: 'own',
});
const moved: StampedFact = { kind: 'navigated', entryId: 'e1', seq: 0 };
const reopened: StampedFact = { kind: 'reopened', from: 'e1', to: 'e2', behind: null, seq: 0 };
const at = (fact: StampedFact): StampedFact => ({ ...fact, seq: ++seq });

describe('whose note a line names', () => {
  it('this branch’s, another branch’s, or neither', () => {
    const [mine, other, neither, none] = noteLinesOf(
      [line("This branch's note: sow the beans", 'sow the beans', ['sow the peas']), line("This branch's note: sow the peas", 'sow the beans', ['sow the peas']), line('This branch has no note yet.', 'sow the beans'), line('This branch has no note yet.', null)],
      'my-note',
    );
    expect([mine, other, neither, none].map((item) => item && saysOfLine(item))).toEqual(['this-branch', 'another-branch', null, null]);
  });

  it('a note that is part of this branch’s own is not another branch’s', () => {
    const [item] = noteLinesOf([line("This branch's note: sow the beans early", 'sow the beans early', ['sow the beans'])], 'my-note');
    expect(item && saysOfLine(item)).toBe('this-branch');
  });

  it('another custom type, or data without a text, holds no note', () => {
    const [item] = noteLinesOf([line("This branch's note: sow the beans", 'sow the beans')], 'their-note');
    expect(item && saysOfLine(item)).toBeNull();
  });
});

describe('the first line after a move or a reopen', () => {
  it('is the first own line after it, when it appended nothing', () => {
    const lines = noteLinesOf([at(moved), line('a', 'a'), line('a', 'a'), at(reopened), line('a', 'a')], 'my-note');
    expect(lines.map((item) => item.firstAfter)).toEqual([['moved'], [], ['reopened']]);
  });

  it('a write right after the move is not a read of what the extension rebuilt, nor is the read after it', () => {
    const lines = noteLinesOf([at(moved), line('Noted on this branch: a', 'a', [], 1), line("This branch's note: a", 'a')], 'my-note');
    expect(lines.map((item) => [item.firstAfter, item.wrote])).toEqual([
      [[], 'something'],
      [[], 'nothing'],
    ]);
  });

  it('a different note off the branch is `otherNote`; the same text off the branch is not', () => {
    const [different, same] = noteLinesOf([line('x', 'a', ['b']), line('x', 'a', ['a'])], 'my-note');
    expect([different?.otherNote, same?.otherNote]).toEqual([true, false]);
  });
});
