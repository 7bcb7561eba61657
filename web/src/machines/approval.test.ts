import { describe, expect, it } from 'vitest';
import { createActor, fromPromise, waitFor } from 'xstate';
import type { ToolCallOutcome } from '../protocol/messages';
import { approvalMachine } from './approval';

const RESULT: ToolCallOutcome = { kind: 'result', callId: 'call_1', stage: 'domain', isError: false, text: 'revision: s:root', details: null };

/** The approval machine with a scripted answer actor; `answers` records what it was asked. */
function start(answer: (input: { callId: string; approved: boolean }) => Promise<ToolCallOutcome>) {
  const answers: { callId: string; approved: boolean }[] = [];
  const actor = createActor(
    approvalMachine.provide({
      actors: {
        answer: fromPromise(({ input }) => {
          answers.push(input);
          return answer(input);
        }),
      },
    }),
  );
  actor.start();
  return { actor, answers };
}

describe('approval machine', () => {
  it('idle accepts only ASK; prompting accepts only APPROVE and DENY', () => {
    const { actor } = start(async () => RESULT);
    expect(actor.getSnapshot().can({ type: 'APPROVE' })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'DENY' })).toBe(false);
    expect(actor.getSnapshot().can({ type: 'ASK', callId: 'call_1', prompt: 'Allow?' })).toBe(true);
    actor.send({ type: 'ASK', callId: 'call_1', prompt: 'Allow?' });
    const prompting = actor.getSnapshot();
    expect(prompting.value).toBe('prompting');
    expect(prompting.context.prompt).toBe('Allow?');
    expect(prompting.can({ type: 'ASK', callId: 'call_2', prompt: 'Another?' })).toBe(false);
    expect(prompting.can({ type: 'APPROVE' })).toBe(true);
    expect(prompting.can({ type: 'DENY' })).toBe(true);
  });

  it('APPROVE answers the waiting call once with approved true, and back in idle holds the outcome', async () => {
    const { actor, answers } = start(async () => RESULT);
    actor.send({ type: 'ASK', callId: 'call_1', prompt: 'Allow?' });
    actor.send({ type: 'APPROVE' });
    expect(actor.getSnapshot().can({ type: 'APPROVE' })).toBe(false);
    actor.send({ type: 'APPROVE' });
    const idle = await waitFor(actor, (snapshot) => snapshot.value === 'idle');
    expect(answers).toEqual([{ callId: 'call_1', approved: true }]);
    expect(idle.context.outcome).toEqual(RESULT);
  });

  it('DENY answers with approved false; a failing answer becomes a failed outcome with its message', async () => {
    const { actor, answers } = start(async () => {
      throw new Error('storage gone');
    });
    actor.send({ type: 'ASK', callId: 'call_9', prompt: 'Allow?' });
    actor.send({ type: 'DENY' });
    const idle = await waitFor(actor, (snapshot) => snapshot.value === 'idle');
    expect(answers).toEqual([{ callId: 'call_9', approved: false }]);
    expect(idle.context.outcome).toEqual({ kind: 'failed', text: 'storage gone' });
  });
});
