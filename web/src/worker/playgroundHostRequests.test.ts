import 'fake-indexeddb/auto';
/**
 * The handler map against the protocol: one handler per request type, and what each answers is
 * what the page's client accepts (parsed with the same `ResultSchemas`), driven through a real
 * host on fake-indexeddb as the worker drives it — including the changes the worker sends with
 * every answer, parsed with the page's `ChangesSchema`.
 */
import { describe, expect, it } from 'vitest';
import type { EntryId } from '$domain/ids';
import { isSeedDeskEntry } from '$domain/journal/entry';
import { ChangesSchema, isConfirmAsked, ResultSchemas, type RequestBody, type RequestType, type ResultOf } from '../protocol/messages';
import type { DeepReadonly } from '../protocol/deepReadonly';
import { freshDatabases } from './databases.testkit';
import { HANDLERS, handle, type HandlerContext } from './requestHandlers';
import type { PlaygroundHost } from './playgroundHost';
import { Watches } from './watches';

const databases = freshDatabases('handlers-test');

function context(): HandlerContext {
  return { progress: () => undefined, watches: new Watches() };
}

/** One request as the worker runs it: inside an async step, so a handler that throws is a rejected request. */
async function request<T extends RequestType>(host: PlaygroundHost, body: Extract<RequestBody, { type: T }>, ctx: HandlerContext): Promise<DeepReadonly<ResultOf<T>>> {
  return handle(host, body, ctx);
}

/** Runs a human change on the command line and confirms its dialog at once; the new entry is the leaf. */
async function commitLine(host: PlaygroundHost, ctx: HandlerContext, line: string): Promise<EntryId> {
  const confirm = await request(host, { type: 'line', text: line }, ctx);
  if (!isConfirmAsked(confirm)) throw new Error(`expected a dialog for ${line}, got ${confirm.kind}`);
  const committed = await request(host, { type: 'answerUi', answer: { kind: 'confirm', id: confirm.request.id, confirmed: true } }, ctx);
  if (committed.kind !== 'committed') throw new Error(`expected a commit for ${line}, got ${JSON.stringify(committed)}`);
  return leafOf(host);
}

async function sayLine(host: PlaygroundHost, ctx: HandlerContext, text: string): Promise<EntryId> {
  expect((await request(host, { type: 'line', text }, ctx)).kind).toBe('said');
  return leafOf(host);
}

function leafOf(host: PlaygroundHost): EntryId {
  const leaf = host.currentJournal().leafId;
  if (leaf === null) throw new Error('expected a leaf');
  return leaf;
}

describe('the worker handler map', () => {
  it('has exactly one handler per request type of the protocol', () => {
    // ResultSchemas is checked at compile time to name every request type once; the map must match it.
    const requestTypes = Object.keys(ResultSchemas).sort();
    expect(requestTypes.length).toBeGreaterThan(20);
    expect(Object.keys(HANDLERS).sort()).toEqual(requestTypes);
  });

  it("answers a learner's session with results and changes the page's schemas accept, request by request", async () => {
    const { host } = await databases.freshHost(11);
    const ctx = context();
    const bodies: RequestBody[] = [
      {
        type: 'hello',
        watch: [
          { topic: 'conversation' },
          { topic: 'events' },
          { topic: 'journal', filter: '' },
          { topic: 'graph', filter: 'all' },
          { topic: 'sessions' },
          { topic: 'compare', other: { by: 'newest-off-branch' } },
        ],
      },
      { type: 'line', text: '/seeds query' },
      { type: 'line', text: '/seeds reserve basil-genovese 2' },
      { type: 'meanwhileReserve', id: 'bean-scarlet', packets: 1 },
      { type: 'answerUi', answer: { kind: 'confirm', id: 'dialog-that-was-never-asked', confirmed: true } },
      { type: 'toolCall', args: '{"op":"discover"}', skipSchema: false },
      { type: 'line', text: '/unknown with args' },
      { type: 'line', text: '/seeds reserve basil-genovese 2', headless: true },
      { type: 'line', text: 'a plain message' },
      { type: 'corruptDemo' },
      { type: 'watch', watch: { topic: 'journal', filter: 'seed-desk' } },
      { type: 'watch', watch: { topic: 'graph', filter: 'seed-desk' } },
      { type: 'unwatch', topic: 'sessions' },
      { type: 'exportSession' },
      { type: 'stepBack' },
      { type: 'navigate', target: { by: 'text', text: 'a plain message' } },
      { type: 'setApprovalMode', mode: 'write' },
      { type: 'setInteractive', interactive: true },
      { type: 'forkSession' },
      { type: 'newSession' },
      { type: 'reopen' },
    ];
    const seen: string[] = [];
    for (const body of bodies) {
      const result = await request(host, body, ctx);
      const parsed = ResultSchemas[body.type].safeParse(result);
      expect(parsed.success, `${body.type}: ${JSON.stringify(result).slice(0, 200)}`).toBe(true);
      // What the worker sends with the answer: the page parses it with the same schema.
      const changes = await ctx.watches.changes(host.core);
      const parsedChanges = ChangesSchema.safeParse(changes);
      expect(parsedChanges.success, `${body.type} changes: ${JSON.stringify(changes).slice(0, 200)}`).toBe(true);
      seen.push(body.type);
    }
    expect(seen).toHaveLength(bodies.length);
    // A dialog answered through the handler: the commit answers with the new revision, as the page expects.
    const confirm = await request(host, { type: 'line', text: '/seeds reserve basil-genovese 2' }, ctx);
    if (!isConfirmAsked(confirm)) throw new Error(`expected a dialog, got ${confirm.kind}`);
    expect(ResultSchemas.line.safeParse(confirm).success).toBe(true);
    const committed = await request(host, { type: 'answerUi', answer: { kind: 'confirm', id: confirm.request.id, confirmed: true } }, ctx);
    expect(committed.kind).toBe('committed');
    expect(ResultSchemas.answerUi.safeParse(committed).success).toBe(true);
    expect(committed.kind === 'committed' && committed.revision).toBe(host.view().revision);
    // And a cancel, through the same request.
    const again = await request(host, { type: 'line', text: '/seeds reserve basil-genovese 1' }, ctx);
    if (!isConfirmAsked(again)) throw new Error(`expected a dialog, got ${again.kind}`);
    const cancelled = await request(host, { type: 'answerUi', answer: { kind: 'confirm', id: again.request.id, confirmed: false } }, ctx);
    expect(cancelled).toMatchObject({ kind: 'cancelled', text: `Cancelled: nothing was changed. The revision is still ${host.view().revision}.` });
    expect(ResultSchemas.answerUi.safeParse(cancelled).success).toBe(true);
  });

  it("a '/seeds query' answers its rows and revision as data, besides the text", async () => {
    const { host } = await databases.freshHost(12);
    const ctx = context();
    await commitLine(host, ctx, '/seeds reserve bean-scarlet 1');
    const answer = await request(host, { type: 'line', text: '/seeds query bean' }, ctx);
    expect(answer).toEqual({
      kind: 'answer',
      text: `bean-scarlet: 4 available, 1 reserved\nrevision: ${host.view().revision}`,
      query: { revision: host.view().revision, rows: [{ id: 'bean-scarlet', available: 4, reserved: 1 }] },
      by: 'shipped',
      deskEntries: { before: 1, after: 1 },
    });
  });
});

describe('navigate: each kind of target', () => {
  /**
   * d1 (basil 2) ─ m1 'note one' ─ d2 (bean 1)      the first branch
   *    └─ d3 (marigold 1)                            the current branch, made after moving back to d1
   */
  async function twoBranches() {
    const { host } = await databases.freshHost(21);
    const ctx = context();
    const d1 = await commitLine(host, ctx, '/seeds reserve basil-genovese 2');
    const m1 = await sayLine(host, ctx, 'note one');
    const d2 = await commitLine(host, ctx, '/seeds reserve bean-scarlet 1');
    await request(host, { type: 'navigate', target: { by: 'id', id: d1 } }, ctx);
    const d3 = await commitLine(host, ctx, '/seeds reserve marigold-french 1');
    return { host, ctx, d1, m1, d2, d3 };
  }

  it("by id: the leaf goes to that entry, appending nothing, and the desk is that entry's", async () => {
    const { host, ctx, d1, d2 } = await twoBranches();
    const size = host.view().entryCount;
    expect(await request(host, { type: 'navigate', target: { by: 'id', id: d2 } }, ctx)).toBeNull();
    const view = host.view();
    expect(view.leafId).toBe(d2);
    expect(view.entryCount).toBe(size);
    expect(view.revision).toBe(`${host.sessionId}:${d2}`);
    expect(view.rows.map((row) => [row.id, row.reserved])).toEqual([
      ['basil-genovese', 2],
      ['bean-scarlet', 1],
      ['marigold-french', 0],
    ]);
    expect(view.transientLeaf).toBe(true);
    await request(host, { type: 'navigate', target: { by: 'id', id: d1 } }, ctx);
    expect(host.view().leafId).toBe(d1);
  });

  it("by text: the entry whose text it is; a user message puts the leaf on its parent, as the host's /tree does", async () => {
    const { host, ctx, d1 } = await twoBranches();
    await request(host, { type: 'navigate', target: { by: 'text', text: 'note one' } }, ctx);
    expect(host.view().leafId).toBe(d1);
    expect(host.view().transientLeaf).toBe(true);
  });

  it('before-last-reservation: the parent of the newest seed desk entry on the current branch', async () => {
    const { host, ctx, d1, m1, d2 } = await twoBranches();
    // On d1 ─ d3 the last reservation is d3, whose parent is d1.
    await request(host, { type: 'navigate', target: { by: 'before-last-reservation' } }, ctx);
    expect(host.view().leafId).toBe(d1);
    expect(host.view().revision).toBe(`${host.sessionId}:${d1}`);
    // On d1 ─ m1 ─ d2 it is d2, whose parent m1 is a user message: the leaf goes above it, to d1.
    await request(host, { type: 'navigate', target: { by: 'id', id: d2 } }, ctx);
    expect(host.currentJournal().parentIdOf(d2)).toBe(m1);
    await request(host, { type: 'navigate', target: { by: 'before-last-reservation' } }, ctx);
    expect(host.view().leafId).toBe(d1);
  });

  it('newest-off-branch: the newest seed desk entry that is not on the current branch', async () => {
    const { host, ctx, d2, d3 } = await twoBranches();
    await request(host, { type: 'navigate', target: { by: 'newest-off-branch' } }, ctx);
    expect(host.view().leafId).toBe(d2);
    // And back: from d2's branch the only desk entry off it is d3.
    await request(host, { type: 'navigate', target: { by: 'newest-off-branch' } }, ctx);
    expect(host.view().leafId).toBe(d3);
  });

  it('a target that names nothing is an error with a sentence, and the leaf stays', async () => {
    const { host, ctx, d3 } = await twoBranches();
    await expect(request(host, { type: 'navigate', target: { by: 'id', id: 'nope0000' } }, ctx)).rejects.toThrow('Entry nope0000 is not in this session.');
    await expect(request(host, { type: 'navigate', target: { by: 'text', text: 'never written' } }, ctx)).rejects.toThrow(/No entry .* shows "never written"/);
    expect(host.view().leafId).toBe(d3);
    expect(host.view().transientLeaf).toBe(false);

    const fresh = (await databases.freshHost(22)).host;
    await expect(request(fresh, { type: 'navigate', target: { by: 'before-last-reservation' } }, ctx)).rejects.toThrow(/no reservation on this branch/);
    await expect(request(fresh, { type: 'navigate', target: { by: 'newest-off-branch' } }, ctx)).rejects.toThrow(/no seed desk entry on another branch/);
    // One branch with reservations on it: still nothing off the branch.
    await commitLine(fresh, ctx, '/seeds reserve basil-genovese 1');
    await commitLine(fresh, ctx, '/seeds reserve bean-scarlet 1');
    const leaf = leafOf(fresh);
    await expect(request(fresh, { type: 'navigate', target: { by: 'newest-off-branch' } }, ctx)).rejects.toThrow(/no seed desk entry on another branch/);
    expect(fresh.view().leafId).toBe(leaf);
  });
});

describe('stepBack', () => {
  it('answers the leaf it moved to: the parent, across a seed desk entry too, then null at the start of the session, where it stays', async () => {
    const { host } = await databases.freshHost(24);
    const ctx = context();
    const m1 = await sayLine(host, ctx, 'one');
    const d1 = await commitLine(host, ctx, '/seeds reserve basil-genovese 1');
    await sayLine(host, ctx, 'two');
    const answers: unknown[] = [];
    for (let i = 0; i < 4; i++) {
      const answer = await request(host, { type: 'stepBack' }, ctx);
      expect(ResultSchemas.stepBack.safeParse(answer).success).toBe(true);
      expect(answer.leafId).toBe(host.view().leafId);
      answers.push(answer);
    }
    expect(answers).toEqual([{ leafId: d1 }, { leafId: m1 }, { leafId: null }, { leafId: null }]);
    expect(host.view().revision).toBe(`${host.sessionId}:root`);
  });
});

describe('forkSession', () => {
  it("with an entryId: a new session holding only the path to that entry, whose parentSession is this one (the host's createBranchedSession)", async () => {
    const { host, store } = await databases.freshHost(31);
    const ctx = context();
    const d1 = await commitLine(host, ctx, '/seeds reserve basil-genovese 2');
    const m1 = await sayLine(host, ctx, 'note one');
    await commitLine(host, ctx, '/seeds reserve bean-scarlet 1');
    await sayLine(host, ctx, 'after the bean');
    const original = host.sessionId;
    const parentName = host.exportSession().fileName;

    expect(await request(host, { type: 'forkSession', entryId: m1 }, ctx)).toBeNull();

    expect(host.sessionId).not.toBe(original);
    const fork = host.currentJournal();
    expect(fork.entries().map((entry) => entry.id)).toEqual([d1, m1]);
    expect(fork.leafId).toBe(m1);
    expect(fork.header.parentSession).toBe(parentName);
    // Stored, and listed as a child of the original session; the original keeps all four entries.
    expect(await store.countEntries(host.sessionId)).toBe(2);
    const sessions = await host.listSessions();
    expect(sessions.find((session) => session.id === host.sessionId)).toMatchObject({ parentSession: parentName, entryCount: 2, current: true });
    expect(sessions.find((session) => session.id === original)).toMatchObject({ parentSession: null, entryCount: 4, current: false });
    // The desk is the path's: basil only, on a revision of the new session.
    const view = host.view();
    expect(view.rows.map((row) => [row.id, row.reserved])).toEqual([
      ['basil-genovese', 2],
      ['bean-scarlet', 0],
      ['marigold-french', 0],
    ]);
    expect(view.revision).toBe(`${host.sessionId}:${d1}`);
    expect(fork.branch().filter(isSeedDeskEntry)).toHaveLength(1);
  });

  it('without an entryId: the path to the leaf', async () => {
    const { host } = await databases.freshHost(32);
    const ctx = context();
    await sayLine(host, ctx, 'one');
    await commitLine(host, ctx, '/seeds reserve basil-genovese 1');
    const ids = host.currentJournal().branch().map((entry) => entry.id);
    await request(host, { type: 'forkSession' }, ctx);
    expect(host.currentJournal().entries().map((entry) => entry.id)).toEqual(ids);
    expect(host.currentJournal().header.parentSession).toBeDefined();
  });

  it('at an id that is not in the session: an error, and no session is created', async () => {
    const { host } = await databases.freshHost(33);
    const ctx = context();
    await sayLine(host, ctx, 'one');
    const before = host.sessionId;
    const count = (await host.listSessions()).length;
    await expect(request(host, { type: 'forkSession', entryId: 'nope0000' }, ctx)).rejects.toThrow(/nope0000 is not in this session/);
    expect(host.sessionId).toBe(before);
    expect(await host.listSessions()).toHaveLength(count);
  });
});
