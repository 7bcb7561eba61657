/**
 * The approval machine without a worker: the tool panel sends the answer itself and reports how
 * the call ended (SETTLED) or that the answer never arrived (FAILED). The tests play the panel's
 * part by sending those events; the machine invokes nothing.
 */
import { describe, expect, it } from 'vitest';
import { createActor, type AnyActorRef, type InspectionEvent } from 'xstate';
import type { ToolCallOutcome } from '../protocol/messages';
import { approvalMachine, type ApprovalEvent } from './approval';

const RESULT: ToolCallOutcome = { kind: 'result', callId: 'call_1', stage: 'domain', isError: false, text: 'revision: s:root', details: null };
const DENIED: ToolCallOutcome = { kind: 'result', callId: 'call_9', stage: 'approval', isError: true, text: 'The user denied the call.', details: null };

const ASK: ApprovalEvent = { type: 'ASK', callId: 'call_1', prompt: 'Allow seed_desk to reserve 2 basil-genovese?' };
const APPROVE: ApprovalEvent = { type: 'APPROVE' };
const DENY: ApprovalEvent = { type: 'DENY' };
const SETTLED: ApprovalEvent = { type: 'SETTLED', outcome: RESULT };
const FAILED: ApprovalEvent = { type: 'FAILED', error: 'storage gone' };
const EVERY_EVENT: ApprovalEvent[] = [ASK, APPROVE, DENY, SETTLED, FAILED];

function start() {
  const actor = createActor(approvalMachine);
  actor.start();
  const send = (...events: ApprovalEvent[]) => {
    for (const event of events) actor.send(event);
    return actor.getSnapshot();
  };
  return { actor, send };
}

/** Asserts the current state accepts exactly `accepted`, and that the other events change nothing. */
function expectOnlyAccepts(actor: ReturnType<typeof start>['actor'], accepted: ApprovalEvent['type'][]): void {
  const before = actor.getSnapshot();
  for (const event of EVERY_EVENT) expect(before.can(event), `${String(before.value)} on ${event.type}`).toBe(accepted.includes(event.type));
  for (const event of EVERY_EVENT.filter((candidate) => !accepted.includes(candidate.type))) actor.send(event);
  const after = actor.getSnapshot();
  expect(after.value).toBe(before.value);
  expect(after.context).toEqual(before.context);
}

describe('approval machine', () => {
  it('starts idle with an empty context and accepts only ASK there', () => {
    const { actor } = start();
    expect(actor.getSnapshot().value).toBe('idle');
    expect(actor.getSnapshot().context).toEqual({ callId: null, prompt: '', approved: false, outcome: null });
    expectOnlyAccepts(actor, ['ASK']);
  });

  it('idle → prompting on ASK, holding the call and its prompt; prompting accepts only APPROVE and DENY', () => {
    const { actor, send } = start();
    const prompting = send(ASK);
    expect(prompting.value).toBe('prompting');
    expect(prompting.context).toEqual({ callId: 'call_1', prompt: 'Allow seed_desk to reserve 2 basil-genovese?', approved: false, outcome: null });
    expectOnlyAccepts(actor, ['APPROVE', 'DENY']);
  });

  it('APPROVE → answering with approved true; answering accepts only SETTLED and FAILED, so a second APPROVE changes nothing', () => {
    const { actor, send } = start();
    const answering = send(ASK, APPROVE);
    expect(answering.value).toBe('answering');
    expect(answering.context).toMatchObject({ callId: 'call_1', approved: true, outcome: null });
    expectOnlyAccepts(actor, ['SETTLED', 'FAILED']);
    expect(actor.getSnapshot().context.approved).toBe(true);
  });

  it('answering → idle on SETTLED, holding the outcome beside the call it answered', () => {
    const { send } = start();
    const idle = send(ASK, APPROVE, SETTLED);
    expect(idle.value).toBe('idle');
    expect(idle.context).toEqual({ callId: 'call_1', prompt: 'Allow seed_desk to reserve 2 basil-genovese?', approved: true, outcome: RESULT });
  });

  it('DENY → answering with approved false, then the denied outcome', () => {
    const { send } = start();
    const answering = send({ type: 'ASK', callId: 'call_9', prompt: 'Allow?' }, DENY);
    expect(answering.value).toBe('answering');
    expect(answering.context.approved).toBe(false);
    const idle = send({ type: 'SETTLED', outcome: DENIED });
    expect(idle.value).toBe('idle');
    expect(idle.context).toEqual({ callId: 'call_9', prompt: 'Allow?', approved: false, outcome: DENIED });
  });

  it('answering → idle on FAILED: the error becomes a failed outcome with its message', () => {
    const { send } = start();
    const idle = send({ type: 'ASK', callId: 'call_9', prompt: 'Allow?' }, DENY, FAILED);
    expect(idle.value).toBe('idle');
    expect(idle.context.outcome).toEqual({ kind: 'failed', text: 'storage gone' });
    expect(idle.context).toMatchObject({ callId: 'call_9', approved: false });
  });

  it('the next ASK replaces the remembered call: new call and prompt, no answer and no outcome yet', () => {
    const { send } = start();
    send(ASK, APPROVE, SETTLED);
    const prompting = send({ type: 'ASK', callId: 'call_2', prompt: 'Allow again?' });
    expect(prompting.value).toBe('prompting');
    expect(prompting.context).toEqual({ callId: 'call_2', prompt: 'Allow again?', approved: false, outcome: null });
  });

  it('sends nothing itself: no actors to provide, no invoke or timer, and no actor or action besides its own assignments', () => {
    expect(approvalMachine.implementations.actors).toEqual({});
    for (const [name, node] of Object.entries(approvalMachine.root.states)) {
      expect(node.invoke, name).toEqual([]);
      expect(node.after, name).toEqual([]);
    }
    const inspected: InspectionEvent[] = [];
    const actor = createActor(approvalMachine, { inspect: (event) => inspected.push(event) });
    actor.start();
    const sent: ApprovalEvent[] = [ASK, APPROVE, SETTLED, ASK, DENY, FAILED];
    const states: string[] = [];
    for (const event of sent) {
      actor.send(event);
      states.push(String(actor.getSnapshot().value));
      expect(Object.keys(actor.getSnapshot().children)).toEqual([]);
    }
    expect(states).toEqual(['prompting', 'answering', 'idle', 'prompting', 'answering', 'idle']);
    const actors: AnyActorRef[] = inspected.flatMap((event) => (event.type === '@xstate.actor' ? [event.actorRef as AnyActorRef] : []));
    expect(actors).toEqual([actor]);
    const received = inspected.flatMap((event) => (event.type === '@xstate.event' ? [event] : []));
    for (const event of received) {
      expect(event.actorRef).toBe(actor);
      expect(event.sourceRef).toBeUndefined();
    }
    expect(received.map((event) => event.event.type)).toEqual(['xstate.init', ...sent.map((event) => event.type)]);
    // XState reports sendTo, raise, emit and spawn as actions (assignments it does not): none run.
    expect(inspected.filter((event) => event.type === '@xstate.action')).toEqual([]);
  });
});
