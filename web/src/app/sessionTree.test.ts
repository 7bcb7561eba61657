/**
 * The session graph and the branch comparison: rows as the worker sends them (whole, or from a
 * row on), the filter and the comparison as watches, a move on the tree as a fact, and an act on
 * this branch with the other branch's revision, which must be refused.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ComparisonView } from '../protocol/messages';
import { columnsOf } from '../protocol/graphColumns';
import { sampleGraphRows } from '../protocol/graphSample.testkit';
import { CommandLine } from './commandLine.svelte';
import { Desk } from './desk.svelte';
import { FactLog } from './facts.svelte';
import { changed, FakeConnection, hostView, toolResult } from './fakeConnection.testkit';
import { stubFrames, stubStorage } from './pageGlobals.testkit';
import { SessionTree, TREE_RENDER_MEASURE } from './sessionTree.svelte';
import { ToolCalls } from './toolCalls.svelte';
import { viewOf } from './viewOf.testkit.svelte';

let frames: ReturnType<typeof stubFrames>;

beforeEach(() => {
  stubStorage('sessionStorage');
  frames = stubFrames();
  performance.clearMeasures(TREE_RENDER_MEASURE);
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function setup() {
  const fake = new FakeConnection();
  const facts = new FactLog();
  const desk = new Desk(fake.connection, facts);
  const tree = new SessionTree(fake.connection, desk, facts, new CommandLine(fake.connection, facts));
  return { fake, facts, desk, tree };
}

const rows = sampleGraphRows();
const ids = (held: readonly { id: string }[]) => held.map((row) => row.id);

function side(revision: string, tipId: string) {
  return { tipId, revision, ok: true, agentEnabled: true, rows: hostView().rows };
}

const comparison: ComparisonView = {
  left: side('session-1:entry-4', 'entry-4'),
  right: side('session-1:entry-7', 'entry-7'),
  forkPointId: 'entry-2',
  leftSince: [],
  rightSince: [],
  differences: [{ id: 'marigold-french', left: 0, right: 3 }],
  grantDiffers: false,
  combinedReserved: [{ id: 'marigold-french', reserved: 3, packets: 3 }],
};

describe('SessionTree: the graph', () => {
  it('draws the rows the worker laid out, then replaces them from the row an update starts at', async () => {
    const { fake, tree } = setup();
    const shown = viewOf(() => ids(tree.rows));
    await fake.open(hostView(), [{ topic: 'graph', filter: 'all', from: 0, rows: columnsOf(rows), leafId: 'bad' }]);
    expect(shown.now()).toEqual(ids(rows));
    expect(tree.rows).toEqual(rows);
    expect(tree.leafId).toBe('bad');

    // An append resends its rows from where they differ: the first two stay as they were.
    const tail = rows.slice(1, 2).map((row) => ({ ...row, id: 'new', isLeaf: true }));
    fake.worker.push(changed(null, { topic: 'graph', filter: 'all', from: 2, rows: columnsOf(tail), leafId: 'new' }), 'foreign');
    expect(shown.now()).toEqual([...ids(rows.slice(0, 2)), 'new']);
    expect(tree.leafId).toBe('new');
    shown.stop();
  });

  it('measures the drawing up to the frame after the rows are in, for the benchmark', async () => {
    const { fake } = setup();
    const requested = frames.requested();
    await fake.open(hostView(), [{ topic: 'graph', filter: 'all', from: 0, rows: columnsOf(rows), leafId: 'bad' }]);
    await requested;
    expect(performance.getEntriesByName(TREE_RENDER_MEASURE)).toEqual([]);
    frames.runFrames();
    const measures = performance.getEntriesByName(TREE_RENDER_MEASURE);
    expect(measures).toHaveLength(1);
    expect(measures[0]).toMatchObject({ detail: rows.length });
  });

  it('a filter is one watch: shown as chosen at once, and the worker answers with the graph under it', async () => {
    const { fake, tree } = setup();
    fake.answerWith('watch', (body) => ({
      result: null,
      changes: changed(null, { topic: 'graph', filter: body.watch.topic === 'graph' ? body.watch.filter : 'all', from: 0, rows: columnsOf(rows.slice(0, 2)), leafId: null }),
    }));
    const choosing = tree.setFilter('seed-desk');
    expect(tree.filter).toBe('seed-desk');
    await choosing;
    expect(fake.sent()).toEqual([{ type: 'watch', watch: { topic: 'graph', filter: 'seed-desk' } }]);
    expect(ids(tree.rows)).toEqual(ids(rows.slice(0, 2)));
  });

  it('a move on the tree is a navigate, and a fact naming where the leaf went', async () => {
    const { fake, tree, facts } = setup();
    fake.answerWith('navigate', { result: null, changes: changed(hostView({ leafId: 'entry-3' })) });
    await tree.branchFrom({ by: 'text', text: 'sibling' });
    expect(fake.sent()).toEqual([{ type: 'navigate', target: { by: 'text', text: 'sibling' } }]);
    expect(facts.facts).toEqual([{ kind: 'navigated', entryId: 'entry-3', seq: 1, extension: 'shipped' }]);
  });

  it('a move the worker refuses is no fact', async () => {
    const { fake, tree, facts } = setup();
    fake.answerWith('navigate', { error: 'No entry shows "nothing like this".' });
    await expect(tree.branchFrom({ by: 'text', text: 'nothing like this' })).rejects.toThrow('No entry shows');
    expect(facts.facts).toEqual([]);
  });
});

describe('SessionTree: the comparison', () => {
  it('watches the other branch, and shows the comparison the worker sends', async () => {
    const { fake, tree } = setup();
    fake.answerWith('watch', { result: null, changes: changed(null, { topic: 'compare', otherId: 'entry-7', comparison, missing: null }) });
    const shown = viewOf(() => tree.comparison?.differences.length ?? 0);
    await tree.compare({ by: 'newest-off-branch' });
    expect(fake.sent()).toEqual([{ type: 'watch', watch: { topic: 'compare', other: { by: 'newest-off-branch' } } }]);
    expect(tree.comparison).toEqual(comparison);
    expect(tree.compareWith).toBe('entry-7');
    expect(tree.compareMissing).toBeNull();
    expect(shown.shown).toEqual([0, 1]);
    shown.stop();
  });

  it('says why when the other branch is not found', async () => {
    const { fake, tree } = setup();
    fake.answerWith('watch', { result: null, changes: changed(null, { topic: 'compare', otherId: null, comparison: null, missing: 'No seed desk entry is off this branch.' }) });
    await tree.compare({ by: 'newest-off-branch' });
    expect(tree.comparison).toBeNull();
    expect(tree.compareMissing).toBe('No seed desk entry is off this branch.');
  });

  it('closing it clears it at once and stops the watch', async () => {
    const { fake, tree } = setup();
    fake.worker.push(changed(null, { topic: 'compare', otherId: 'entry-7', comparison, missing: null }), 'foreign');
    const closing = tree.compare(null);
    expect(tree.comparison).toBeNull();
    expect(tree.compareWith).toBeNull();
    await closing;
    expect(fake.sent()).toEqual([{ type: 'unwatch', topic: 'compare' }]);
  });

  it('an act on this branch with the other branch\'s revision is sent as the agent would, and its refusal is shown and noted', async () => {
    const { fake, tree, desk, facts } = setup();
    await fake.open(hostView({ seedDeskEntryCount: 2 }));
    fake.worker.push(changed(null, { topic: 'compare', otherId: 'entry-7', comparison, missing: null }), 'foreign');
    const refusal = toolResult('Refused (stale-revision): the desk is at session-1:entry-4, not session-1:entry-7.', { ok: false, scope: 'act', code: 'stale-revision' });
    fake.answerWith('toolCall', { result: refusal });

    await tree.tryOtherRevision(new ToolCalls(fake.connection, desk, facts));

    const [call] = fake.sentOf('toolCall');
    expect(call?.skipSchema).toBe(false);
    expect(JSON.parse(call?.args ?? '{}')).toEqual({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: 'session-1:entry-7' });
    expect(tree.compareAttempt).toBe(refusal.text);
    expect(facts.facts.at(-1)).toMatchObject({ kind: 'refused', code: 'stale-revision', via: 'compare', change: null, deskEntries: { before: 2, after: 2 } });
  });

  it('an act that waits for the host\'s approval says so', async () => {
    const { fake, tree, desk, facts } = setup();
    await fake.open(hostView());
    fake.worker.push(changed(null, { topic: 'compare', otherId: 'entry-7', comparison, missing: null }), 'foreign');
    fake.answerWith('toolCall', { result: { kind: 'approval', callId: 'call-1', prompt: 'Allow seed_desk to reserve?' } });
    await tree.tryOtherRevision(new ToolCalls(fake.connection, desk, facts));
    expect(tree.compareAttempt).toBe('Waiting for host approval…');
    expect(facts.facts.filter((fact) => fact.kind === 'refused')).toEqual([]);
  });

  it('without a comparison there is nothing to try: nothing is sent', async () => {
    const { fake, tree, desk, facts } = setup();
    await fake.open(hostView());
    await tree.tryOtherRevision(new ToolCalls(fake.connection, desk, facts));
    expect(fake.sentTypes()).toEqual(['hello']);
    expect(tree.compareAttempt).toBeNull();
  });
});
