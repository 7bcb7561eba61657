/**
 * The fact log the tutorial's checks read: every fact numbered in order and stamped with the
 * extension the host ran when it was noted; the newest 500 kept; `nextSeq` is where a step's window starts.
 */
import { describe, expect, it } from 'vitest';
import type { HostView } from '../protocol/messages';
import { hostView } from './fakeConnection.testkit';
import { FactLog } from './facts.svelte';
import { viewOf } from './viewOf.testkit.svelte';

describe('FactLog', () => {
  it('numbers facts from 1 in the order they happen, and nextSeq names the number the next one gets', () => {
    const log = new FactLog();
    expect(log.nextSeq).toBe(1);
    log.note({ kind: 'new-session' });
    log.note({ kind: 'navigated', entryId: 'entry-2' });
    expect(log.facts).toEqual([
      { kind: 'new-session', seq: 1, extension: 'shipped' },
      { kind: 'navigated', entryId: 'entry-2', seq: 2, extension: 'shipped' },
    ]);
    expect(log.nextSeq).toBe(3);
  });

  it('stamps each fact with the extension running when it was noted, not the one running later', () => {
    let running: HostView = hostView();
    const log = new FactLog(() => running);
    log.note({ kind: 'forked' });
    running = hostView({ extension: 'edited', editedVersion: { text: 'changed', editedFrom: 'shipped' } });
    log.note({ kind: 'refused', code: 'stale-revision', via: 'line', change: null, deskEntries: { before: 1, after: 1 } });
    running = hostView({ extension: 'edited', editedVersion: { text: 'as-shipped', editedFrom: 'an-edit' } });
    log.note({ kind: 'forked' });
    expect(log.facts.map((fact) => [fact.kind, fact.extension, fact.version])).toEqual([
      ['forked', 'shipped', undefined],
      ['refused', 'edited', { text: 'changed', editedFrom: 'shipped' }],
      ['forked', 'edited', { text: 'as-shipped', editedFrom: 'an-edit' }],
    ]);
  });

  it('an answer that says which version ran is stamped with that one, not the one running when it arrives', () => {
    const log = new FactLog(() => hostView());
    log.note({ kind: 'said', text: 'hi' }, 'edited', { text: 'changed', editedFrom: 'an-edit' });
    log.note({ kind: 'said', text: 'hi' }, 'shipped', { text: 'changed', editedFrom: 'an-edit' });
    expect(log.facts.map((fact) => [fact.extension, fact.version])).toEqual([
      ['edited', { text: 'changed', editedFrom: 'an-edit' }],
      ['shipped', undefined],
    ]);
  });

  it('keeps the newest 500 facts; the numbering goes on past the dropped ones', () => {
    const log = new FactLog();
    for (let index = 0; index < 503; index++) log.note({ kind: 'foreign-append' });
    expect(log.facts).toHaveLength(500);
    expect(log.facts[0]?.seq).toBe(4);
    expect(log.facts.at(-1)?.seq).toBe(503);
    expect(log.nextSeq).toBe(504);
  });

  it('a view reading the facts draws again when one is noted', () => {
    const log = new FactLog();
    const view = viewOf(() => log.facts.map((fact) => fact.kind));
    log.note({ kind: 'closing-answer', value: 'yes' });
    expect(view.now()).toEqual(['closing-answer']);
    expect(view.shown).toEqual([[], ['closing-answer']]);
    view.stop();
  });
});
