import 'fake-indexeddb/auto';
/**
 * What the page watches and what it is sent: on a real host over fake-indexeddb, each step is one
 * host call followed by `changes()`, as the worker answers a request. The page adds an `append` to
 * what it holds and swaps in a `replace`, so an append must carry exactly what is new and a topic
 * that did not move must carry nothing.
 */
import { describe, expect, it } from 'vitest';
import type { EntryId } from '$domain/ids';
import { ChangesSchema, isConfirmAsked, type Changes, type Topic, type TopicUpdate, type Watch } from '../protocol/messages';
import type { DeepReadonly } from '../protocol/deepReadonly';
import { freshDatabases } from './databases.testkit';
import type { PlaygroundHost } from './playgroundHost';
import { spliceGraphRows } from '../protocol/graphRows';
import { rowsFromColumns } from '../protocol/graphColumns';
import type { GraphRowView } from '../protocol/graph';
import { branchItems, graphRows, JournalLines } from './projections';
import { CONVERSATION_LIMIT, Watches } from './watches';

const databases = freshDatabases('watches-test');

type UpdateOf<T extends Topic> = DeepReadonly<Extract<TopicUpdate, { topic: T }>>;

function updateOf<T extends Topic>(changes: DeepReadonly<Changes>, topic: T): UpdateOf<T> | undefined {
  const found = changes.updates.filter((update) => update.topic === topic);
  expect(found.length, `${topic} sent more than once`).toBeLessThanOrEqual(1);
  return found[0] as UpdateOf<T> | undefined;
}

function sent<T extends Topic>(changes: DeepReadonly<Changes>, topic: T): UpdateOf<T> {
  const update = updateOf(changes, topic);
  if (!update) throw new Error(`expected a ${topic} update, got ${JSON.stringify(changes.updates.map((u) => u.topic))}`);
  return update;
}

/** A host and a set of watches on it, with the changes parsed as the page parses them. */
async function watching(seed: number, watch: Watch[]) {
  const { host } = await databases.freshHost(seed);
  const watches = new Watches();
  for (const item of watch) watches.watch(item, host.core);
  const changes = async () => {
    const result = await watches.changes(host.core);
    expect(ChangesSchema.safeParse(result).success, JSON.stringify(result).slice(0, 300)).toBe(true);
    return result;
  };
  return { host, watches, changes };
}

async function commitLine(host: PlaygroundHost, line: string): Promise<EntryId> {
  const confirm = await host.runLine(line);
  if (!isConfirmAsked(confirm)) throw new Error(`expected a dialog for ${line}, got ${JSON.stringify(confirm)}`);
  const committed = await host.answerUi({ kind: 'confirm', id: confirm.request.id, confirmed: true });
  if (committed.kind !== 'committed') throw new Error(`expected a commit for ${line}, got ${JSON.stringify(committed)}`);
  return leafOf(host);
}

async function say(host: PlaygroundHost, text: string): Promise<EntryId> {
  expect((await host.runLine(text)).kind).toBe('said');
  return leafOf(host);
}

function leafOf(host: PlaygroundHost): EntryId {
  const leaf = host.currentJournal().leafId;
  if (leaf === null) throw new Error('expected a leaf');
  return leaf;
}

/** The journal file's lines as an export writes them (header first): what the journal topic filters. */
function fileLines(host: PlaygroundHost): string[] {
  return host.exportSession().jsonl.split('\n').filter((line) => line.length > 0);
}

const ALL: Watch[] = [
  { topic: 'conversation' },
  { topic: 'events' },
  { topic: 'journal', filter: '' },
  { topic: 'graph', filter: 'all' },
  { topic: 'sessions' },
];

describe('Watches: the first answer and an idle one', () => {
  it('the first changes after a watch carry every topic whole (replace) and the view', async () => {
    const { host, changes } = await watching(1, []);
    await say(host, 'before anyone watched');
    await commitLine(host, '/seeds reserve basil-genovese 2');
    const watches = new Watches();
    for (const watch of ALL) watches.watch(watch, host.core);
    const first = await watches.changes(host.core);
    expect(ChangesSchema.safeParse(first).success).toBe(true);

    expect(first.view).toEqual(host.view());
    expect(sent(first, 'conversation')).toEqual({ topic: 'conversation', mode: 'replace', items: host.branch() });
    expect(sent(first, 'events')).toEqual({ topic: 'events', mode: 'replace', items: host.events() });
    expect(host.events().length).toBeGreaterThan(0);
    const lines = fileLines(host);
    expect(sent(first, 'journal')).toEqual({ topic: 'journal', mode: 'replace', filter: '', lineCount: lines.length, matchCount: lines.length, lines });
    const graph = sent(first, 'graph');
    expect(rowsFromColumns(graph.rows).map((row) => row.id)).toEqual(host.currentJournal().entries().map((entry) => entry.id));
    expect(graph.leafId).toBe(host.view().leafId);
    expect(sent(first, 'sessions').sessions).toEqual(await host.listSessions());
    expect(first.updates).toHaveLength(ALL.length);
    // A Watches with no topics still sends the view the first time it is asked.
    expect((await changes()).view).toEqual(host.view());
  });

  it('a second changes with nothing done carries no view and no updates', async () => {
    const { changes } = await watching(2, ALL);
    await changes();
    expect(await changes()).toEqual({ updates: [] });
  });

  it('a request that changes no state (a query) sends only what the extension said: no view, no other topic', async () => {
    const { host, changes } = await watching(3, ALL);
    await say(host, 'hello');
    await changes();
    const answer = await host.runLine('/seeds query');
    expect(answer.kind).toBe('answer');
    // The extension answers through ctx.ui.notify, which the host's event log shows.
    expect(await changes()).toEqual({ updates: [{ topic: 'events', mode: 'append', items: [expect.objectContaining({ kind: 'notification', level: 'info', text: answer.text })] }] });
    expect(await changes()).toEqual({ updates: [] });
  });

  it('after a restart (a new page) everything is sent whole again', async () => {
    const { host, watches, changes } = await watching(4, ALL);
    await say(host, 'hello');
    await changes();
    watches.restart(ALL, host.core);
    const again = await changes();
    expect(again.view).toEqual(host.view());
    expect(again.updates.map((update) => update.topic).sort()).toEqual(ALL.map((watch) => watch.topic).sort());
    expect(sent(again, 'conversation').mode).toBe('replace');
  });
});

describe('Watches: appends carry only what is new', () => {
  it('after a plain message the conversation appends exactly the new item, and the view follows', async () => {
    const { host, changes } = await watching(5, [{ topic: 'conversation' }]);
    await say(host, 'one');
    await changes();
    const id = await say(host, 'two');
    const next = await changes();
    expect(sent(next, 'conversation')).toEqual({ topic: 'conversation', mode: 'append', items: [host.branch().at(-1)] });
    expect(sent(next, 'conversation').items[0]).toMatchObject({ id, role: 'user', text: 'two' });
    expect(next.view).toMatchObject({ entryCount: 2, leafId: id });
  });

  it('the events update appends only the events that are new', async () => {
    const { host, changes } = await watching(6, [{ topic: 'events' }]);
    await commitLine(host, '/seeds reserve basil-genovese 1');
    const first = sent(await changes(), 'events');
    expect(first.mode).toBe('replace');
    const seen = first.items.length;
    expect(seen).toBeGreaterThan(0);

    // A plain message emits nothing: no events update at all.
    await say(host, 'quiet');
    expect(updateOf(await changes(), 'events')).toBeUndefined();

    await commitLine(host, '/seeds reserve bean-scarlet 1');
    const next = sent(await changes(), 'events');
    expect(next.mode).toBe('append');
    expect(next.items).toEqual(host.events().slice(seen));
    // The extension's changed event, then its notification of the new desk.
    expect(next.items).toEqual([
      expect.objectContaining({ kind: 'event', channel: 'workbook:seed-desk:changed', payload: expect.stringContaining('"reason":"reserve"') }),
      expect.objectContaining({ kind: 'notification', level: 'info', text: expect.stringContaining('bean-scarlet: 4 available, 1 reserved') }),
    ]);

    // A refusal notifies: one warning, appended.
    expect((await host.runLine('/seeds reserve bean-scarlet 99')).kind).toBe('refused');
    const refused = sent(await changes(), 'events');
    expect(refused).toEqual({ topic: 'events', mode: 'append', items: [expect.objectContaining({ kind: 'notification', level: 'warning' })] });
    expect([...first.items, ...next.items, ...refused.items]).toEqual(host.events());
  });

  it('the journal appends only the new lines, and keeps its counts right under a filter', async () => {
    const filter = 'seed-desk-state';
    const { host, changes } = await watching(7, [{ topic: 'journal', filter }]);
    await commitLine(host, '/seeds reserve basil-genovese 1');
    await say(host, 'between');
    const first = sent(await changes(), 'journal');
    const matching = (lines: string[]) => lines.filter((line) => line.includes(filter));
    expect(first).toEqual({ topic: 'journal', mode: 'replace', filter, lineCount: 3, matchCount: 1, lines: matching(fileLines(host)) });

    // A line that does not match: the counts move, no line is sent.
    await say(host, 'no match here');
    expect(sent(await changes(), 'journal')).toEqual({ topic: 'journal', mode: 'append', filter, lineCount: 4, matchCount: 1, lines: [] });

    // A matching line: exactly that line.
    await commitLine(host, '/seeds reserve bean-scarlet 1');
    const all = fileLines(host);
    expect(sent(await changes(), 'journal')).toEqual({ topic: 'journal', mode: 'append', filter, lineCount: 5, matchCount: 2, lines: [all.at(-1)] });
    expect(matching(all)).toHaveLength(2);
    expect(all).toHaveLength(5);

    // Nothing appended (a navigation moves only the leaf): the file did not change, nothing is sent.
    host.stepBack();
    expect(updateOf(await changes(), 'journal')).toBeUndefined();
  });

  it('a new filter is sent whole', async () => {
    const { host, watches, changes } = await watching(8, [{ topic: 'journal', filter: '' }]);
    await say(host, 'alpha');
    await say(host, 'beta');
    await changes();
    watches.watch({ topic: 'journal', filter: 'beta' }, host.core);
    expect(sent(await changes(), 'journal')).toEqual({ topic: 'journal', mode: 'replace', filter: 'beta', lineCount: 3, matchCount: 1, lines: [fileLines(host)[2]] });
  });
});

describe('Watches: replacing what cannot be appended', () => {
  it('after a navigation to a sibling branch the conversation is sent whole', async () => {
    const { host, changes } = await watching(9, [{ topic: 'conversation' }]);
    const first = await say(host, 'first');
    const left = await commitLine(host, '/seeds reserve basil-genovese 1');
    host.moveLeaf(first);
    await commitLine(host, '/seeds reserve bean-scarlet 1');
    await say(host, 'on the right');
    await changes();

    host.navigate({ by: 'id', id: left });
    const next = sent(await changes(), 'conversation');
    expect(next).toEqual({ topic: 'conversation', mode: 'replace', items: host.branch() });
    expect(next.items.map((item) => item.id)).toEqual([first, left]);

    // Up the same branch is a replace too: the page's last item is gone.
    host.stepBack();
    expect(sent(await changes(), 'conversation')).toEqual({ topic: 'conversation', mode: 'replace', items: host.branch() });
    expect(host.branch().map((item) => item.id)).toEqual([first]);

    // Down the same branch again is an append of what is below.
    host.navigate({ by: 'id', id: left });
    expect(sent(await changes(), 'conversation')).toEqual({ topic: 'conversation', mode: 'append', items: host.branch().slice(1) });
  });

  it('the graph is re-sent only when the journal grows, the leaf moves or the filter changes', async () => {
    const { host, watches, changes } = await watching(10, [{ topic: 'graph', filter: 'all' }]);
    await say(host, 'one');
    expect(sent(await changes(), 'graph').rows.ids.ends).toHaveLength(1);

    // Nothing that touches the tree: no graph.
    expect((await host.runLine('/seeds query')).kind).toBe('answer');
    expect(updateOf(await changes(), 'graph')).toBeUndefined();
    expect((await host.runLine('/seeds reserve basil-genovese 99')).kind).toBe('refused');
    expect(updateOf(await changes(), 'graph')).toBeUndefined();
    host.setApprovalMode('always-ask');
    const settingsOnly = await changes();
    expect(settingsOnly.view?.approvalMode).toBe('always-ask');
    expect(updateOf(settingsOnly, 'graph')).toBeUndefined();

    // Size.
    await commitLine(host, '/seeds reserve basil-genovese 1');
    const grown = sent(await changes(), 'graph');
    expect(grown.from + grown.rows.ids.ends.length).toBe(2);
    expect(grown.leafId).toBe(leafOf(host));

    // Leaf.
    host.stepBack();
    const moved = sent(await changes(), 'graph');
    expect(moved.leafId).toBe(host.view().leafId);
    expect(rowsFromColumns(moved.rows).find((row) => row.isLeaf)?.id).toBe(host.view().leafId);

    // Filter.
    watches.watch({ topic: 'graph', filter: 'seed-desk' }, host.core);
    const filtered = sent(await changes(), 'graph');
    expect(filtered.filter).toBe('seed-desk');
    // The leaf is always shown, as in the tree; every other row is a seed desk entry.
    expect(rowsFromColumns(filtered.rows).filter((row) => !row.isLeaf).map((row) => row.kind)).toEqual(['seed-desk']);
    expect(updateOf(await changes(), 'graph')).toBeUndefined();
  });
});

describe('Watches: what the page holds after applying every update equals the whole value', () => {
  it('graph rows spliced from the first changed row, and conversation appends, through appends, moves and branches', async () => {
    const { host, changes } = await watching(21, [{ topic: 'graph', filter: 'all' }, { topic: 'conversation' }]);
    let rows: readonly DeepReadonly<GraphRowView>[] = [];
    let items: unknown[] = [];
    const froms: number[] = [];
    const apply = async () => {
      const result = await changes();
      const graph = updateOf(result, 'graph');
      if (graph) {
        froms.push(graph.from);
        rows = spliceGraphRows(rows, { from: graph.from, rows: rowsFromColumns(graph.rows) });
      }
      const conversation = updateOf(result, 'conversation');
      if (conversation) items = conversation.mode === 'replace' ? [...conversation.items] : [...items, ...conversation.items].slice(-CONVERSATION_LIMIT);
      const journal = host.currentJournal();
      expect(rows).toEqual(graphRows(journal, 'all'));
      expect(items).toEqual(branchItems(journal, CONVERSATION_LIMIT));
    };
    for (const text of ['one', 'two', 'three', 'four']) {
      await say(host, text);
      await apply();
    }
    // A plain append resends the old leaf's row and the new one, not the session.
    expect(froms.at(-1)).toBe(2);
    await commitLine(host, '/seeds reserve basil-genovese 1');
    await apply();
    expect(froms.at(-1)).toBe(3);
    host.stepBack();
    host.stepBack();
    await apply();
    await say(host, 'a sibling of three');
    await apply();
    await commitLine(host, '/seeds reserve bean-scarlet 1');
    await apply();
    host.stepBack();
    await apply();
    await say(host, 'after the step back');
    await apply();
    expect(froms.filter((from) => from > 0).length).toBeGreaterThan(3);
  });
});

describe('Watches: a comparison', () => {
  /** basil at d1; bean at d2 on one branch; marigold on the other, where the leaf is. */
  async function twoBranches(seed: number) {
    const { host, changes } = await watching(seed, []);
    const d1 = await commitLine(host, '/seeds reserve basil-genovese 2');
    const d2 = await commitLine(host, '/seeds reserve bean-scarlet 1');
    host.navigate({ by: 'id', id: d1 });
    await commitLine(host, '/seeds reserve marigold-french 1');
    await changes();
    return { host, d1, d2 };
  }

  it('resolving newest-off-branch sends the comparison, re-sends it when the branch grows, and ends it after switching session', async () => {
    const { host, d1, d2 } = await twoBranches(11);
    const watches = new Watches();
    watches.watch({ topic: 'compare', other: { by: 'newest-off-branch' } }, host.core);
    const first = sent(await watches.changes(host.core), 'compare');
    expect(first.otherId).toBe(d2);
    expect(first.missing).toBeNull();
    expect(first.comparison?.forkPointId).toBe(d1);
    expect(first.comparison?.differences).toEqual([
      { id: 'bean-scarlet', left: 0, right: 1 },
      { id: 'marigold-french', left: 1, right: 0 },
    ]);
    expect(updateOf(await watches.changes(host.core), 'compare')).toBeUndefined();

    // The current branch grows: the same other entry, compared again.
    await say(host, 'on the marigold branch');
    const grown = sent(await watches.changes(host.core), 'compare');
    expect(grown.otherId).toBe(d2);
    expect(grown.comparison?.leftSince.at(-1)).toMatchObject({ text: 'on the marigold branch' });

    // Another session: the comparison ends, once, and the watch is gone (coming back does not revive it).
    const original = host.sessionId;
    await host.newSession();
    expect(sent(await watches.changes(host.core), 'compare')).toEqual({ topic: 'compare', otherId: null, comparison: null, missing: null });
    await host.switchSession(original);
    expect(updateOf(await watches.changes(host.core), 'compare')).toBeUndefined();
  });

  it('a fork ends the comparison too, though it holds the same entry ids: it is another session', async () => {
    const { host, d2 } = await twoBranches(16);
    const watches = new Watches();
    watches.watch({ topic: 'compare', other: { by: 'id', id: d2 } }, host.core);
    expect(sent(await watches.changes(host.core), 'compare').otherId).toBe(d2);

    await host.forkSession(d2);
    expect(host.currentJournal().has(d2)).toBe(true);
    expect(sent(await watches.changes(host.core), 'compare')).toEqual({ topic: 'compare', otherId: null, comparison: null, missing: null });
  });

  it('a target that names nothing sends missing with a sentence, then nothing more', async () => {
    const { host } = await watching(12, []);
    await say(host, 'alone');
    const watches = new Watches();
    watches.watch({ topic: 'compare', other: { by: 'id', id: 'nope0000' } }, host.core);
    const update = sent(await watches.changes(host.core), 'compare');
    expect(update).toEqual({ topic: 'compare', otherId: null, comparison: null, missing: 'Entry nope0000 is not in this session.' });
    expect(updateOf(await watches.changes(host.core), 'compare')).toBeUndefined();

    watches.watch({ topic: 'compare', other: { by: 'newest-off-branch' } }, host.core);
    expect(sent(await watches.changes(host.core), 'compare').missing).toMatch(/no seed desk entry on another branch/);
  });
});

describe('Watches: sessions', () => {
  it('are re-sent after newSession but not after a plain message', async () => {
    const { host, changes } = await watching(13, [{ topic: 'sessions' }]);
    expect(sent(await changes(), 'sessions').sessions).toHaveLength(1);

    await say(host, 'just talking');
    expect(updateOf(await changes(), 'sessions')).toBeUndefined();

    const before = host.sessionId;
    await host.newSession();
    const after = sent(await changes(), 'sessions').sessions;
    expect(after).toHaveLength(2);
    expect(after.find((session) => session.current)?.id).toBe(host.sessionId);
    expect(after.find((session) => session.id === before)).toMatchObject({ current: false, entryCount: 1 });
  });

  it('are re-sent after a switch (which session is current) and when another tab changed the list', async () => {
    const { host, changes } = await watching(14, [{ topic: 'sessions' }]);
    const first = host.sessionId;
    await host.newSession();
    await changes();
    await host.switchSession(first);
    expect(sent(await changes(), 'sessions').sessions.find((session) => session.current)?.id).toBe(first);
    host.noteSessionsChanged();
    expect(sent(await changes(), 'sessions').sessions).toHaveLength(2);
  });
});

describe('JournalLines', () => {
  it('serialises each entry once, in file order, header first, as the export does', async () => {
    const { host } = await databases.freshHost(15);
    const lines = new JournalLines(host.currentJournal());
    expect(lines.all()).toEqual(fileLines(host));
    await say(host, 'x');
    expect(lines.all()).toEqual(fileLines(host));
    expect(lines.matching('"x"', 1)).toEqual({ lineCount: 2, matchCount: 1, lines: [fileLines(host)[1]] });
  });
});
