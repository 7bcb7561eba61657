import { assign, setup } from 'xstate';
import type { ToolCallOutcome } from '../protocol/messages';

/**
 * The host's approval prompt for a `write`-tier tool call. Like a confirmation it is an await:
 * while `prompting`, the desk may change, and the call then meets the domain's revision check.
 * The machine sends nothing itself: the tool panel sends the answer (`answerApproval`) and tells
 * the machine how the call ended (`SETTLED`, or `FAILED` when the answer never arrived).
 */
export interface ApprovalContext {
  callId: string | null;
  prompt: string;
  /** The learner's answer, once given. */
  approved: boolean;
  outcome: ToolCallOutcome | null;
}

export type ApprovalEvent =
  | { type: 'ASK'; callId: string; prompt: string }
  | { type: 'APPROVE' }
  | { type: 'DENY' }
  | { type: 'SETTLED'; outcome: ToolCallOutcome }
  | { type: 'FAILED'; error: string };

export const approvalMachine = setup({
  types: { context: {} as ApprovalContext, events: {} as ApprovalEvent },
  actions: {
    rememberPrompt: assign((_, params: { callId: string; prompt: string }) => ({ callId: params.callId, prompt: params.prompt, approved: false, outcome: null })),
    rememberAnswer: assign((_, params: { approved: boolean }) => ({ approved: params.approved })),
    rememberOutcome: assign((_, params: { outcome: ToolCallOutcome }) => ({ outcome: params.outcome })),
    rememberError: assign((_, params: { error: string }) => ({ outcome: { kind: 'failed', text: params.error } as const })),
  },
}).createMachine({
  id: 'approval',
  initial: 'idle',
  context: { callId: null, prompt: '', approved: false, outcome: null },
  states: {
    idle: {
      on: { ASK: { target: 'prompting', actions: { type: 'rememberPrompt', params: ({ event }) => ({ callId: event.callId, prompt: event.prompt }) } } },
    },
    prompting: {
      on: {
        APPROVE: { target: 'answering', actions: { type: 'rememberAnswer', params: { approved: true } } },
        DENY: { target: 'answering', actions: { type: 'rememberAnswer', params: { approved: false } } },
      },
    },
    answering: {
      on: {
        SETTLED: { target: 'idle', actions: { type: 'rememberOutcome', params: ({ event }) => ({ outcome: event.outcome }) } },
        FAILED: { target: 'idle', actions: { type: 'rememberError', params: ({ event }) => ({ error: event.error }) } },
      },
    },
  },
});
