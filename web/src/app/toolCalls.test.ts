/**
 * The seed_desk tool through the host against a scripted worker: a call the host runs at once, a
 * call that needs the learner's approval (the approval machine prompting, answered by one
 * `answerApproval` request under the call's id), and the `tool` fact each outcome leaves, with the
 * seed desk entries before and after as the page's desk saw them.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ToolCallOutcome } from '../protocol/messages';
import { Desk } from './desk.svelte';
import { FactLog } from './facts.svelte';
import { changed, FakeConnection, hostView, toolResult } from './fakeConnection.testkit';
import { stubStorage } from './pageGlobals.testkit';
import { ToolCalls } from './toolCalls.svelte';
import { viewOf } from './viewOf.testkit.svelte';

beforeEach(() => {
  stubStorage('sessionStorage');
});

afterEach(() => {
  vi.unstubAllGlobals();
});

async function setup(seedDeskEntryCount = 1) {
  const fake = new FakeConnection();
  const facts = new FactLog();
  const desk = new Desk(fake.connection, facts);
  const tool = new ToolCalls(fake.connection, desk, facts);
  await fake.open(hostView({ seedDeskEntryCount }));
  return { fake, facts, desk, tool };
}

const RESERVE = '{"scope":"act","action":"reserve","id":"basil-genovese","packets":2,"revision":"session-1:entry-2"}';
const resolution = { policy: 'prompt', tier: 'write', source: 'mode' } as const;
const prompt: ToolCallOutcome = { kind: 'approval', callId: 'call-2', prompt: 'Allow seed_desk to reserve 2 basil-genovese?', approval: resolution };
const reserved = toolResult('Reserved 2 basil-genovese.', { ok: true, scope: 'act', revision: 'session-1:entry-3' }, 'call-2');

describe('ToolCalls: a call the host runs at once', () => {
  it('sends the call, shows its outcome, keeps its revision, and notes a `tool` fact with the entries before and after', async () => {
    const { fake, facts, tool } = await setup(1);
    const result = toolResult('Reserved 2 basil-genovese.', { ok: true, scope: 'act', revision: 'session-1:entry-3' });
    fake.answerWith('toolCall', { result, changes: changed(hostView({ seedDeskEntryCount: 2, revision: 'session-1:entry-3' })) });
    const shown = viewOf(() => tool.outcome?.kind ?? 'nothing yet');

    await expect(tool.call(RESERVE, false)).resolves.toEqual(result);

    expect(fake.sentOf('toolCall')).toEqual([{ type: 'toolCall', args: RESERVE, skipSchema: false }]);
    expect(shown.now()).toBe('result');
    expect(tool.outcome).toEqual(result);
    expect(tool.latestRevision).toBe('session-1:entry-3');
    expect(facts.facts).toEqual([{ kind: 'tool', args: RESERVE, outcome: result, deskEntries: { before: 1, after: 2 }, seq: 1, extension: 'shipped' }]);
    // Nothing asked for approval: no prompt shows.
    expect(tool.approval).toBeUndefined();
    expect(() => tool.approvalActor).toThrow('No tool call has asked for approval yet.');
    shown.stop();
  });

  it('a call the schema check refused is shown and noted with equal counts, and leaves the latest revision as it was', async () => {
    const { fake, facts, tool } = await setup(2);
    fake.answerWith('toolCall', { result: toolResult('Revision session-1:entry-2.', { ok: true, scope: 'query', revision: 'session-1:entry-2' }) });
    await tool.call('{"scope":"query"}', false);
    const refused: ToolCallOutcome = { kind: 'result', callId: 'call-1', stage: 'schema', isError: true, text: 'Validation failed: packets must be a number.', details: null };
    fake.answerWith('toolCall', { result: refused });

    await tool.call('{"scope":"act","packets":"two"}', true);

    expect(fake.sentOf('toolCall').at(-1)).toEqual({ type: 'toolCall', args: '{"scope":"act","packets":"two"}', skipSchema: true });
    expect(tool.outcome).toEqual(refused);
    expect(tool.latestRevision).toBe('session-1:entry-2');
    expect(facts.facts.at(-1)).toEqual({ kind: 'tool', args: '{"scope":"act","packets":"two"}', outcome: refused, deskEntries: { before: 2, after: 2 }, seq: 2, extension: 'shipped' });
  });
});

describe('ToolCalls: a call that needs approval', () => {
  it('starts the approval machine in `prompting` on the call, shows the prompt, and notes nothing yet', async () => {
    const { fake, facts, tool } = await setup();
    fake.answerWith('toolCall', { result: prompt });

    await expect(tool.call(RESERVE, false)).resolves.toEqual(prompt);

    expect(tool.approval?.value).toBe('prompting');
    expect(tool.approval?.context).toEqual({ callId: 'call-2', prompt: 'Allow seed_desk to reserve 2 basil-genovese?', approved: false, outcome: null });
    expect(tool.approvalActor.getSnapshot().value).toBe('prompting');
    expect(tool.outcome).toEqual(prompt);
    expect(facts.facts).toEqual([]);
    expect(fake.sentTypes()).toEqual(['hello', 'toolCall']);
  });

  it('`answerApproval(true)` sends exactly one `answerApproval` with the call id; the machine answers, then is idle with the outcome shown and noted', async () => {
    const { fake, facts, tool } = await setup(1);
    fake.answerWith('toolCall', { result: prompt }).hold('answerApproval');
    await tool.call(RESERVE, false);
    // Meanwhile another tab appended: "before" is the journal when the answer is given.
    fake.worker.push(changed(hostView({ seedDeskEntryCount: 2 })), 'foreign');
    const states = viewOf(() => tool.approval?.value);

    const answered = tool.answerApproval(true);
    expect(await fake.worker.whenHeld('answerApproval')).toEqual({ type: 'answerApproval', callId: 'call-2', approved: true });
    expect(states.now()).toBe('answering');
    // A second answer while the first is on its way sends nothing.
    await tool.answerApproval(true);
    await tool.answerApproval(false);

    fake.worker.answer('answerApproval', { result: reserved, changes: changed(hostView({ seedDeskEntryCount: 3, revision: 'session-1:entry-3' })) });
    await answered;

    expect(fake.sentOf('answerApproval')).toEqual([{ type: 'answerApproval', callId: 'call-2', approved: true }]);
    expect(states.now()).toBe('idle');
    expect(states.shown).toEqual(['prompting', 'answering', 'idle']);
    expect(tool.approval?.context).toMatchObject({ callId: 'call-2', approved: true, outcome: reserved });
    expect(tool.outcome).toEqual(reserved);
    expect(tool.latestRevision).toBe('session-1:entry-3');
    expect(facts.facts).toEqual([
      { kind: 'foreign-append', seq: 1, extension: 'shipped' },
      { kind: 'tool', args: RESERVE, outcome: reserved, deskEntries: { before: 2, after: 3 }, seq: 2, extension: 'shipped' },
    ]);
    states.stop();
  });

  it('`answerApproval(false)` sends the denial; the host\'s refusal is shown and noted', async () => {
    const { fake, facts, tool } = await setup(1);
    const denied = { ...toolResult('The user denied seed_desk.', null, 'call-2'), stage: 'approval', isError: true } as const;
    fake.answerWith('toolCall', { result: prompt }).answerWith('answerApproval', { result: denied });
    await tool.call(RESERVE, false);

    await tool.answerApproval(false);

    expect(fake.sentOf('answerApproval')).toEqual([{ type: 'answerApproval', callId: 'call-2', approved: false }]);
    expect(tool.approval?.value).toBe('idle');
    expect(tool.approval?.context.approved).toBe(false);
    expect(tool.outcome).toEqual(denied);
    expect(facts.facts).toEqual([{ kind: 'tool', args: RESERVE, outcome: denied, deskEntries: { before: 1, after: 1 }, seq: 1, extension: 'shipped' }]);
  });

  it('answering when nothing is prompting sends nothing', async () => {
    const { fake, facts, tool } = await setup();
    // No call has asked yet.
    await tool.answerApproval(true);
    expect(fake.sentTypes()).toEqual(['hello']);

    // A call answered: the prompt has closed.
    fake.answerWith('toolCall', { result: prompt }).answerWith('answerApproval', { result: reserved });
    await tool.call(RESERVE, false);
    await tool.answerApproval(true);
    await tool.answerApproval(true);
    await tool.answerApproval(false);
    expect(fake.sentTypes()).toEqual(['hello', 'toolCall', 'answerApproval']);
    expect(facts.facts.map((fact) => fact.kind)).toEqual(['tool']);
  });

  it('an answer the worker could not take shows a `failed` outcome, and the machine is idle again', async () => {
    const { fake, facts, tool } = await setup(1);
    fake.answerWith('toolCall', { result: prompt }).answerWith('answerApproval', { error: 'The worker was stopped.' });
    await tool.call(RESERVE, false);

    await tool.answerApproval(true);

    const failed: ToolCallOutcome = { kind: 'failed', text: 'The worker was stopped.' };
    expect(fake.sentOf('answerApproval')).toEqual([{ type: 'answerApproval', callId: 'call-2', approved: true }]);
    expect(tool.outcome).toEqual(failed);
    expect(tool.approval?.value).toBe('idle');
    expect(tool.approval?.context.outcome).toEqual(failed);
    expect(facts.facts).toEqual([{ kind: 'tool', args: RESERVE, outcome: failed, deskEntries: { before: 1, after: 1 }, seq: 1, extension: 'shipped' }]);
  });

  it('the next call that needs approval prompts again on its own call id', async () => {
    const { fake, tool } = await setup();
    let calls = 0;
    fake.answerWith('toolCall', () => ({ result: { ...prompt, callId: `call-${++calls}` } })).answerWith('answerApproval', (body) => ({ result: toolResult('Done.', null, body.callId) }));
    await tool.call(RESERVE, false);
    await tool.answerApproval(false);
    await tool.call(RESERVE, false);
    expect(tool.approval?.value).toBe('prompting');
    expect(tool.approval?.context.callId).toBe('call-2');
    await tool.answerApproval(true);
    expect(fake.sentOf('answerApproval')).toEqual([
      { type: 'answerApproval', callId: 'call-1', approved: false },
      { type: 'answerApproval', callId: 'call-2', approved: true },
    ]);
    expect(tool.outcome).toEqual(toolResult('Done.', null, 'call-2'));
  });
});
