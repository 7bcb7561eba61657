/**
 * What an edited version is (issue 36): whether its text is the shipped one, and whether it is
 * the learner's own change to an edited version, from the files and the editor's word about what
 * they were changed from.
 */
import { describe, expect, it } from 'vitest';
import { differingFiles, versionOf } from './editedVersion';

const SHIPPED = { 'a.ts': 'guard();\nact();', 'b.ts': 'read();' };
const BROKEN = { 'a.ts': 'act();' };
const MENDED = { 'a.ts': 'if (ok) guard();\nact();' };

describe('versionOf', () => {
  it('a first edit is changed from the shipped files; the shipped text run unchanged is the shipped text', () => {
    expect(versionOf(BROKEN, SHIPPED, 'shipped', null)).toEqual({ text: 'changed', editedFrom: 'shipped' });
    expect(versionOf({}, SHIPPED, 'shipped', null)).toEqual({ text: 'as-shipped', editedFrom: 'shipped' });
    // A file sent with its shipped text is no edit.
    expect(versionOf({ 'b.ts': 'read();' }, SHIPPED, 'last-run', null)).toEqual({ text: 'as-shipped', editedFrom: 'shipped' });
  });

  it('a change to a broken version that ran is the learner\'s own, even back to the shipped text', () => {
    const broken = { files: BROKEN, editedVersion: versionOf(BROKEN, SHIPPED, 'shipped', null) };
    expect(versionOf(MENDED, SHIPPED, 'last-run', broken)).toEqual({ text: 'changed', editedFrom: 'an-edit' });
    expect(versionOf({ 'a.ts': SHIPPED['a.ts'] }, SHIPPED, 'last-run', broken)).toEqual({ text: 'as-shipped', editedFrom: 'an-edit' });
  });

  it('"Discard my edits" then "Run my version": the shipped files, whatever ran before', () => {
    const broken = { files: BROKEN, editedVersion: versionOf(BROKEN, SHIPPED, 'shipped', null) };
    expect(versionOf({}, SHIPPED, 'shipped', broken)).toEqual({ text: 'as-shipped', editedFrom: 'shipped' });
  });

  it('a version run again unchanged is what it was: the broken one stays a first edit, a mend stays a mend', () => {
    const broken = { files: BROKEN, editedVersion: versionOf(BROKEN, SHIPPED, 'shipped', null) };
    expect(versionOf(BROKEN, SHIPPED, 'last-run', broken)).toEqual({ text: 'changed', editedFrom: 'shipped' });
    const mended = { files: MENDED, editedVersion: { text: 'changed', editedFrom: 'an-edit' } as const };
    expect(versionOf(MENDED, SHIPPED, 'last-run', mended)).toEqual({ text: 'changed', editedFrom: 'an-edit' });
  });

  it('a change to the shipped text run as a version is no change to an edit', () => {
    const discarded = { files: {}, editedVersion: { text: 'as-shipped', editedFrom: 'shipped' } as const };
    expect(versionOf(MENDED, SHIPPED, 'last-run', discarded)).toEqual({ text: 'changed', editedFrom: 'shipped' });
  });

  it('"Reset this step" running the step\'s version again keeps what it was, and types nothing of the learner\'s', () => {
    const mended = { files: MENDED, editedVersion: { text: 'changed', editedFrom: 'an-edit' } as const };
    expect(versionOf(BROKEN, SHIPPED, 'restore', mended)).toEqual({ text: 'changed', editedFrom: 'shipped' });
    expect(versionOf(MENDED, SHIPPED, 'restore', mended)).toEqual({ text: 'changed', editedFrom: 'an-edit' });
  });

  it('a record stored before issue 36 (no version) counts as a first edit', () => {
    expect(versionOf(MENDED, SHIPPED, 'last-run', { files: BROKEN })).toEqual({ text: 'changed', editedFrom: 'an-edit' });
    expect(versionOf(MENDED, SHIPPED, 'last-run', { files: {} })).toEqual({ text: 'changed', editedFrom: 'shipped' });
  });
});

describe('differingFiles', () => {
  it('keeps only the files whose text is not the shipped one', () => {
    expect(differingFiles({ 'a.ts': 'x', 'b.ts': 'read();' }, SHIPPED)).toEqual({ 'a.ts': 'x' });
  });
});
