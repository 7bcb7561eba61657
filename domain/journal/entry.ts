import '../zodSetup';
import * as z from 'zod/mini';
import type { EntryId, SessionId } from '../ids';
import { SEED_DESK_CUSTOM_TYPE } from '../snapshot';

/** The session format version this playground writes (the host's CURRENT_SESSION_VERSION). */
export const CURRENT_SESSION_VERSION = 3;

/**
 * The header line. Only `type` and a string `id` decide whether a file is a session (the host's
 * rule); every other key is kept as it came so an export gives it back unchanged.
 */
export const SessionHeaderSchema = z.looseObject({
  type: z.literal('session'),
  id: z.string().check(z.minLength(1)),
  version: z.optional(z.number()),
  timestamp: z.optional(z.string()),
  cwd: z.optional(z.string()),
  title: z.optional(z.string()),
  parentSession: z.optional(z.string()),
});

export type SessionHeader = z.infer<typeof SessionHeaderSchema> & { readonly id: SessionId };

/**
 * Every v2+ entry has these four keys; the rest depends on `type` and is kept verbatim, including
 * types this playground does not know (they are shown, never dropped).
 */
export const EntryBaseSchema = z.looseObject({
  type: z.string().check(
    z.minLength(1),
    z.refine((type) => type !== 'session', 'a second session header is not an entry'),
  ),
  // "root" is what a revision says before any seed desk entry: an entry with that id would make
  // two different branches share a revision.
  id: z.string().check(
    z.minLength(1),
    z.refine((id) => id !== 'root', 'the id "root" is reserved'),
  ),
  parentId: z.nullable(z.string().check(z.minLength(1))),
  timestamp: z.string(),
});

export type JournalEntry = z.infer<typeof EntryBaseSchema> & {
  readonly id: EntryId;
  readonly parentId: EntryId | null;
};

export function isSeedDeskEntry(entry: JournalEntry): boolean {
  return entry.type === 'custom' && entry['customType'] === SEED_DESK_CUSTOM_TYPE;
}

function messageOf(entry: JournalEntry): Record<string, unknown> | undefined {
  const message = entry['message'];
  return entry.type === 'message' && typeof message === 'object' && message !== null
    ? (message as Record<string, unknown>)
    : undefined;
}

export function messageRole(entry: JournalEntry): string | undefined {
  const role = messageOf(entry)?.['role'];
  return typeof role === 'string' ? role : undefined;
}

/** Plain text of a message or custom_message, for display and for the editor on navigation. */
export function entryText(entry: JournalEntry): string {
  const content = entry.type === 'custom_message' ? entry['content'] : messageOf(entry)?.['content'];
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content
    .map((part: unknown) => {
      if (typeof part !== 'object' || part === null) return '';
      const block = part as Record<string, unknown>;
      if (block['type'] === 'text' && typeof block['text'] === 'string') return block['text'];
      if (block['type'] === 'toolCall' && typeof block['name'] === 'string') return `[tool call: ${block['name']}]`;
      return '';
    })
    .filter((text) => text.length > 0)
    .join('\n');
}

/** Host `/tree` rule: choosing a user message (or custom_message) re-edits it, so the leaf goes to its parent. */
export function isReeditable(entry: JournalEntry): boolean {
  return entry.type === 'custom_message' || messageRole(entry) === 'user';
}

// ---- builders, in the host's key order (export fidelity depends on it) ----

interface Place {
  readonly id: EntryId;
  readonly parentId: EntryId | null;
  readonly timestamp: string;
}

export function customEntry(customType: string, data: unknown, place: Place): JournalEntry {
  return { type: 'custom', customType, data, id: place.id, parentId: place.parentId, timestamp: place.timestamp };
}

export function userMessageEntry(text: string, place: Place): JournalEntry {
  return {
    type: 'message',
    id: place.id,
    parentId: place.parentId,
    timestamp: place.timestamp,
    message: { role: 'user', content: [{ type: 'text', text }], timestamp: Date.parse(place.timestamp) },
  };
}

export function assistantMessageEntry(
  content: readonly Record<string, unknown>[],
  place: Place,
  stopReason: 'stop' | 'toolUse' = 'stop',
): JournalEntry {
  return {
    type: 'message',
    id: place.id,
    parentId: place.parentId,
    timestamp: place.timestamp,
    message: {
      role: 'assistant',
      content,
      api: 'playground',
      provider: 'playground',
      model: 'scripted',
      usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason,
      timestamp: Date.parse(place.timestamp),
    },
  };
}

export function toolResultEntry(
  result: { toolCallId: string; toolName: string; content: readonly Record<string, unknown>[]; details: unknown; isError: boolean },
  place: Place,
): JournalEntry {
  return {
    type: 'message',
    id: place.id,
    parentId: place.parentId,
    timestamp: place.timestamp,
    message: {
      role: 'toolResult',
      toolCallId: result.toolCallId,
      toolName: result.toolName,
      content: result.content,
      details: result.details,
      isError: result.isError,
      timestamp: Date.parse(place.timestamp),
    },
  };
}

export function labelEntry(targetId: EntryId, label: string | undefined, place: Place): JournalEntry {
  const entry: Record<string, unknown> = { type: 'label', id: place.id, parentId: place.parentId, timestamp: place.timestamp, targetId };
  if (label !== undefined) entry['label'] = label;
  return entry as JournalEntry;
}

export function sessionHeader(id: SessionId, timestamp: string, cwd: string, parentSession?: string): SessionHeader {
  const header: Record<string, unknown> = { type: 'session', version: CURRENT_SESSION_VERSION, id, timestamp, cwd };
  if (parentSession !== undefined) header['parentSession'] = parentSession;
  return header as SessionHeader;
}
