/**
 * Refusals are values, never exceptions: a refused change appends nothing and the caller reads
 * `code` to decide what to do next. These eight codes are part of the public contract.
 */
export const REFUSAL_CODES = [
  'agent-disabled',
  'stale-revision',
  'invalid-target',
  'invalid-quantity',
  'insufficient-availability',
  'insufficient-reservation',
  'corrupt-state',
  'ui-required',
] as const;

export type RefusalCode = (typeof REFUSAL_CODES)[number];

export interface Refusal {
  readonly code: RefusalCode;
  /** What happened, in a sentence a learner understands. */
  readonly message: string;
  /** What a careful caller does next. */
  readonly nextStep: string;
}

/** The condition and the next step for each code, shown in the Refusals view and docs. */
export const REFUSAL_GUIDE: Readonly<Record<RefusalCode, { readonly when: string; readonly nextStep: string }>> = {
  'agent-disabled': {
    when: 'The agent tried to act, but the human has not switched the agent on for this branch.',
    nextStep: 'Ask the human whether they want to run /seeds agent on; never try to grant it yourself.',
  },
  'stale-revision': {
    when: 'The action was decided on a view of the desk that is no longer the current one on this branch.',
    nextStep: 'Query again, look at the new numbers, and decide afresh before acting.',
  },
  'invalid-target': {
    when: 'The id is not one of the desk items (ids must match exactly).',
    nextStep: 'Pick an id from a query result.',
  },
  'invalid-quantity': {
    when: 'The packet count is not a whole number above zero that JavaScript can count exactly.',
    nextStep: 'Send a positive whole number of packets, such as 1.',
  },
  'insufficient-availability': {
    when: 'The reservation asks for more packets than are still free on this branch.',
    nextStep: 'Ask for fewer packets, or choose a different item.',
  },
  'insufficient-reservation': {
    when: 'The release gives back more packets than this branch holds.',
    nextStep: 'Inspect the item to see how many this branch really holds.',
  },
  'corrupt-state': {
    when: 'A seed desk entry on this branch does not match the snapshot format, so no state on it can be trusted.',
    nextStep: 'Stop, and move to an earlier point of the conversation whose state is valid.',
  },
  'ui-required': {
    when: 'A human change (reserve, release, agent on or off) needs a confirmation dialog, and no interactive UI is available.',
    nextStep: 'Run the command where a confirmation can be shown.',
  },
};

export function refusal(code: RefusalCode, message: string): Refusal {
  return { code, message, nextStep: REFUSAL_GUIDE[code].nextStep };
}

export function isRefusalCode(value: unknown): value is RefusalCode {
  return typeof value === 'string' && (REFUSAL_CODES as readonly string[]).includes(value);
}

/** How a refusal reads as text: the code, what happened, what to do next. */
export function refusalText(r: Refusal): string {
  return `Refused (${r.code}): ${r.message}\nNext: ${r.nextStep}`;
}
