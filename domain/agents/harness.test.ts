import { describe, expect, it } from 'vitest';
import { asSessionId, seededIdSource } from '../ids';
import { sessionHeader } from '../journal/entry';
import { SessionJournal } from '../journal/journal';
import { SEED_DESK_CUSTOM_TYPE } from '../snapshot';
import { appendDeskSnapshot, executeSeedDeskCall, runAgentInMemory } from './harness';
import type { ScriptedAgent } from './scriptedAgent';

function setup(agentEnabled = true) {
  const ids = seededIdSource(5);
  const journal = SessionJournal.empty(sessionHeader(asSessionId(ids.sessionId()), ids.now(), '/lab'));
  appendDeskSnapshot(journal, ids, { version: 1, agentEnabled, quantities: {} });
  return { ids, journal };
}

/** An agent that never stops querying, to exercise the step limit. */
function endlessQuerier(): ScriptedAgent {
  return {
    name: 'careless',
    goal: 'query forever',
    start: () => ({ kind: 'call', args: { op: 'query' }, thought: 'look' }),
    next: () => ({ kind: 'call', args: { op: 'query' }, thought: 'look again' }),
  };
}

describe('executeSeedDeskCall', () => {
  it('turns a schema failure into an isError observation without details, appending nothing', () => {
    const { ids, journal } = setup();
    const size = journal.size;
    const observation = executeSeedDeskCall(journal, ids, { op: 'act', id: 'bean-scarlet', packets: '1' });
    expect(observation).toMatchObject({ ok: false, isError: true });
    expect(observation.details).toBeUndefined();
    expect(observation.text).toContain('schema');
    expect(executeSeedDeskCall(journal, ids, { op: 'sell' }).isError).toBe(true);
    expect(journal.size).toBe(size);
  });

  it('turns the tool\'s own check (a field the op needs) into an isError observation naming the field, appending nothing', () => {
    const { ids, journal } = setup();
    const size = journal.size;
    const observation = executeSeedDeskCall(journal, ids, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1 });
    expect(observation).toMatchObject({ ok: false, isError: true });
    expect(observation.details).toBeUndefined();
    expect(observation.text).toMatch(/^seed_desk act is missing expectedRevision/);
    expect(journal.size).toBe(size);
  });

  it('appends one seed desk entry on the leaf for a commit and answers with the new revision', () => {
    const { ids, journal } = setup();
    const leaf = journal.leafId;
    const revision = journal.revision();
    const observation = executeSeedDeskCall(journal, ids, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: revision });
    expect(observation).toMatchObject({ ok: true, isError: false });
    const entry = journal.get(journal.leafId ?? '');
    expect(entry).toMatchObject({ type: 'custom', customType: SEED_DESK_CUSTOM_TYPE, parentId: leaf });
    expect(observation.details?.revision).toBe(journal.revision());
    expect(observation.text).toContain(`revision: ${journal.revision()}`);
  });

  it('returns a domain refusal as an ordinary observation with ok false', () => {
    const { ids, journal } = setup(false);
    const observation = executeSeedDeskCall(journal, ids, { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: journal.revision() });
    expect(observation).toMatchObject({ ok: false, isError: false, details: { ok: false, code: 'agent-disabled' } });
  });
});

describe('runAgentInMemory', () => {
  it('stops an agent that never finishes at maxSteps and says so', () => {
    const { ids, journal } = setup();
    const run = runAgentInMemory(endlessQuerier(), journal, ids, 4);
    expect(run.transcript).toHaveLength(4);
    expect(run.finished).toBe(false);
    expect(run.summary).toContain('4 calls');
  });

  it('calls between after every call, in order, and deny before it', () => {
    const { ids, journal } = setup();
    const seen: string[] = [];
    runAgentInMemory(endlessQuerier(), journal, ids, 3, {
      deny: (_args, index) => {
        seen.push(`deny ${index}`);
        return undefined;
      },
      between: (index) => seen.push(`between ${index}`),
    });
    expect(seen).toEqual(['deny 0', 'between 0', 'deny 1', 'between 1', 'deny 2', 'between 2']);
  });
});
