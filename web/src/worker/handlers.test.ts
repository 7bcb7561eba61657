import 'fake-indexeddb/auto';
/**
 * The handler map against the protocol: one handler per request type, and what each answers is
 * what the page's client accepts (parsed with the same `ResultSchemas`), driven through a real
 * host on fake-indexeddb as the worker drives it.
 */
import { describe, expect, it } from 'vitest';
import { ResultSchemas, type RequestBody } from '../protocol/messages';
import { freshDatabases } from './databases.testkit';
import { HANDLERS, handle } from './handlers';

const databases = freshDatabases('handlers-test');
const noProgress = { progress: () => undefined };

describe('the worker handler map', () => {
  it('has exactly one handler per request type of the protocol', () => {
    // ResultSchemas is checked at compile time to name every request type once; the map must match it.
    const requestTypes = Object.keys(ResultSchemas).sort();
    expect(requestTypes.length).toBeGreaterThan(20);
    expect(Object.keys(HANDLERS).sort()).toEqual(requestTypes);
  });

  it("answers a learner's session with results the page's schemas accept, request by request", async () => {
    const { host } = await databases.freshHost(11);
    const bodies: RequestBody[] = [
      { type: 'hello' },
      { type: 'line', text: '/seeds query' },
      { type: 'line', text: '/seeds reserve basil-genovese 2' },
      { type: 'toolCall', args: '{"op":"discover"}', skipSchema: false },
      { type: 'journal', filter: '' },
      { type: 'sessions' },
      { type: 'tree', filter: 'all' },
      { type: 'compare', otherId: null },
      { type: 'exportSession' },
      { type: 'stepBack' },
    ];
    const seen: string[] = [];
    for (const body of bodies) {
      const result = await handle(host, body, noProgress);
      const parsed = ResultSchemas[body.type].safeParse(result);
      expect(parsed.success, `${body.type}: ${JSON.stringify(result).slice(0, 200)}`).toBe(true);
      seen.push(body.type);
    }
    expect(seen).toHaveLength(bodies.length);
    // A commit through the handler answers with the new revision, as the page expects.
    const confirm = await handle(host, { type: 'line', text: '/seeds reserve basil-genovese 2' }, noProgress);
    if (confirm.kind !== 'confirm') throw new Error(`expected a dialog, got ${confirm.kind}`);
    const committed = await handle(host, { type: 'commit', change: confirm.change, expectedRevision: confirm.revision }, noProgress);
    expect(committed.kind).toBe('committed');
    expect(ResultSchemas.commit.safeParse(committed).success).toBe(true);
  });
});
