import 'fake-indexeddb/auto';
/**
 * Host behaviours issue 11 asks the lesson to show, driven the way the worker drives them: the
 * approval mode and user policy resolved as the host resolves them, the reopen notice naming the
 * real reason the leaf moved, the persistence gate, and which entries reach the model.
 */
import { describe, expect, it } from 'vitest';
import { seededIdSource } from '$domain/ids';
import { isConfirmAsked, type LineOutcome } from '../protocol/messages';
import { PlaygroundHost } from './playgroundHost';
import { freshDatabases } from './databases.testkit';

const databases = freshDatabases('host-lesson-test');

async function confirmLine(host: PlaygroundHost, line: string): Promise<void> {
  const prepared: LineOutcome = await host.runLine(line);
  if (!isConfirmAsked(prepared)) throw new Error(`expected a dialog for ${line}, got ${JSON.stringify(prepared)}`);
  const outcome = await host.answerUi({ kind: 'confirm', id: prepared.request.id, confirmed: true });
  if (outcome.kind !== 'committed') throw new Error(`expected a commit for ${line}, got ${JSON.stringify(outcome)}`);
}

const QUERY = JSON.stringify({ op: 'query' });

describe('host approval: mode and user policy', () => {
  it('starts as the host does: no user policy, mode yolo, and seed_desk runs unasked', async () => {
    const { host } = await databases.freshHost(1);
    expect(host.view()).toMatchObject({ approvalPolicy: null, approvalMode: 'yolo' });
    const outcome = await host.callTool(QUERY, false);
    expect(outcome).toMatchObject({ kind: 'result', stage: 'domain', approval: { policy: 'allow', tier: 'write', source: 'mode' } });
  });

  it('write mode runs the write tier unasked; always-ask prompts, and headless fails closed with the host text', async () => {
    const { host } = await databases.freshHost(2);
    host.setApprovalMode('write');
    expect(await host.callTool(QUERY, false)).toMatchObject({ kind: 'result', stage: 'domain' });
    host.setApprovalMode('always-ask');
    const asked = await host.callTool(QUERY, false);
    expect(asked).toMatchObject({ kind: 'approval', approval: { policy: 'prompt', source: 'mode' } });
    if (asked.kind !== 'approval') return;
    expect(await host.answerApproval(asked.callId, false)).toMatchObject({ stage: 'approval', isError: true, text: 'Tool call denied by user: seed_desk' });
    host.setInteractive(false);
    expect(await host.callTool(QUERY, false)).toMatchObject({
      stage: 'approval',
      isError: true,
      text: 'Tool "seed_desk" requires approval but no interactive UI available.\nOptions:\n  1. Set tools.approvalMode: yolo in /settings\n  2. Add tools.approval.seed_desk: allow to config\n  3. Use an interactive UI to approve the tool call',
      approval: { policy: 'prompt', source: 'mode' },
    });
    expect(host.view().pendingApproval).toBeNull();
  });

  it('a user policy wins over the mode, and deny wins always', async () => {
    const { host } = await databases.freshHost(3);
    host.setApprovalMode('always-ask');
    host.setApprovalPolicy('allow');
    expect(await host.callTool(QUERY, false)).toMatchObject({ stage: 'domain', approval: { policy: 'allow', source: 'user' } });
    host.setApprovalMode('yolo');
    host.setApprovalPolicy('deny');
    const blocked = await host.callTool(QUERY, false);
    expect(blocked).toMatchObject({ stage: 'approval', isError: true, approval: { policy: 'deny', source: 'user' } });
    expect(blocked.kind === 'result' && blocked.text.split('\n')[0]).toBe('Tool "seed_desk" is blocked by user policy.');
  });
});

describe('reopen: the leaf is the last appended entry, and the notice says why it moved', () => {
  it('a plain move is not kept, and the notice blames the move', async () => {
    const { host } = await databases.freshHost(4);
    await confirmLine(host, '/seeds agent on');
    await confirmLine(host, '/seeds reserve basil-genovese 2');
    const last = host.view().leafId;
    host.stepBack();
    expect(host.view().leafBehind).toEqual({ navigated: true, foreignEntryId: null });
    await host.reopen();
    const view = host.view();
    expect(view.leafId).toBe(last);
    expect(view.leafBehind).toBeNull();
    expect(view.notice).toMatch(/appended nothing/);
    expect(view.notice).not.toMatch(/another tab/i);
  });

  it('a branch written into is where the session reopens', async () => {
    const { host } = await databases.freshHost(5);
    await confirmLine(host, '/seeds agent on');
    await confirmLine(host, '/seeds reserve basil-genovese 2');
    host.stepBack();
    await confirmLine(host, '/seeds reserve basil-genovese 1');
    const written = host.view().leafId;
    await host.reopen();
    expect(host.view().leafId).toBe(written);
    expect(host.view().rows.find((row) => row.id === 'basil-genovese')?.reserved).toBe(1);
    expect(host.view().notice).toMatch(/where you stood/);
  });

  it('when another tab appended last, the notice names the other tab, not a move', async () => {
    const { host, store } = await databases.freshHost(6);
    await confirmLine(host, '/seeds reserve bean-scarlet 1');
    const mine = host.view().leafId;
    const twin = await PlaygroundHost.start(store, seededIdSource(606));
    twin.onAppended = (sessionId, entries) => host.adoptForeign(sessionId, entries);
    await twin.runLine('the other tab writes');
    const theirs = twin.view().leafId;
    expect(host.view().leafId).toBe(mine);
    expect(host.view().leafBehind).toEqual({ navigated: false, foreignEntryId: theirs });
    await host.reopen();
    const view = host.view();
    expect(view.leafId).toBe(theirs);
    expect(view.notice).toContain(`Another tab appended ${theirs}`);
    expect(view.notice).not.toMatch(/appended nothing/);
  });
});

describe('what the host writes and what the model sees', () => {
  it('the session file is written only once an assistant message exists (a tool call is one)', async () => {
    const { host } = await databases.freshHost(7);
    await host.runLine('a user message');
    await confirmLine(host, '/seeds reserve marigold-french 1');
    expect(host.view().hostFileWritten).toBe(false);
    await host.callTool(QUERY, false);
    expect(host.view().hostFileWritten).toBe(true);
  });

  it('seed desk entries are not replayed to the model; messages are', async () => {
    const { host } = await databases.freshHost(8);
    await host.runLine('hello');
    await confirmLine(host, '/seeds reserve marigold-french 1');
    const branch = host.branch();
    expect(branch.map((item) => [item.role, item.modelVisible])).toEqual([
      ['user', true],
      ['seed-desk', false],
    ]);
  });
});
