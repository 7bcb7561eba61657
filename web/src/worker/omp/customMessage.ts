/**
 * `pi.sendMessage(message, options)`: the custom message OMP 18.2.3 records, normalized as it
 * normalizes one (`src/session/messages.ts` `normalizeCustomMessagePayload`): a string is a shown
 * "custom-message" by the agent; an object keeps its `customType` (or that default), its content
 * when it is a string or an array (else ""), `display` only when boolean (else false), its
 * `details`, and `attribution` "user" only when it says so. The host appends it as a
 * `custom_message` entry under the leaf (`session-manager.ts` `appendCustomMessageEntry`).
 */

export const DEFAULT_CUSTOM_MESSAGE_TYPE = 'custom-message';

/** What a `custom_message` entry holds besides its place, as OMP writes it. */
export interface CustomMessageFields {
  readonly customType: string;
  readonly content: string | readonly unknown[];
  readonly display: boolean;
  /** Left out when the extension gave none (OMP's `undefined`, which its JSON line drops). */
  readonly details?: unknown;
  readonly attribution: 'user' | 'agent';
}

/** The options OMP reads: a turn on top of the message, or where a streaming turn takes it. */
export interface SendMessageOptions {
  readonly triggerTurn?: unknown;
  readonly deliverAs?: unknown;
}

export function normalizeCustomMessage(payload: unknown): CustomMessageFields {
  if (typeof payload === 'string') return { customType: DEFAULT_CUSTOM_MESSAGE_TYPE, content: payload, display: true, attribution: 'agent' };
  if (payload === null || typeof payload !== 'object' || Array.isArray(payload)) {
    const content = payload === undefined || payload === null ? '' : String(payload);
    return { customType: DEFAULT_CUSTOM_MESSAGE_TYPE, content, display: content.length > 0, attribution: 'agent' };
  }
  const fields = payload as Record<string, unknown>;
  const customType = typeof fields['customType'] === 'string' && fields['customType'].length > 0 ? fields['customType'] : DEFAULT_CUSTOM_MESSAGE_TYPE;
  const raw = fields['content'];
  const content = typeof raw === 'string' || Array.isArray(raw) ? (structuredClone(raw) as string | unknown[]) : '';
  const display = typeof fields['display'] === 'boolean' ? fields['display'] : false;
  const attribution = fields['attribution'] === 'user' ? 'user' : 'agent';
  const details = fields['details'];
  return details === undefined ? { customType, content, display, attribution } : { customType, content, display, details, attribution };
}

/**
 * Whether OMP would start a model turn for this message when the session is idle
 * (`agent-session.ts` `#dispatchCustomMessage`: `triggerTurn`, or `deliverAs: "aside"`). The page
 * records it and starts none: its turns are the agents' and the real model's, which a person starts.
 */
export function wouldTriggerTurn(options: SendMessageOptions | undefined): boolean {
  return options?.triggerTurn === true || options?.deliverAs === 'aside';
}
