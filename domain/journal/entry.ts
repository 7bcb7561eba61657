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
  // The host compares it with `>=` / `<`, so the string "3" reads as 3 and null as a missing version (v1).
  version: z.optional(z.nullable(z.union([z.number(), z.string()]))),
  timestamp: z.optional(z.string()),
  cwd: z.optional(z.string()),
  title: z.optional(z.string()),
  parentSession: z.optional(z.string()),
});

export type SessionHeader = z.infer<typeof SessionHeaderSchema> & { readonly id: SessionId };

/**
 * What every v2+ entry needs: an id and a parent (null for a root). `type` and `timestamp` are
 * optional because the host opens an entry without them (an entry without a type is kept as an
 * unknown one); the rest depends on `type` and is kept verbatim, including types this playground
 * does not know (they are shown, never dropped).
 */
export const EntryBaseSchema = z.looseObject({
  type: z.optional(
    z.string().check(z.refine((type) => type !== 'session', 'a second session header is not an entry')),
  ),
  // "root" is what a revision says before any seed desk entry: an entry with that id would make
  // two different branches share a revision.
  id: z.string().check(
    z.minLength(1),
    z.refine((id) => id !== 'root', 'the id "root" is reserved'),
  ),
  parentId: z.nullable(z.string().check(z.minLength(1))),
  timestamp: z.optional(z.string()),
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

/** What a row or a branch item calls an entry that has no type (the host keeps such a line). */
export const NO_TYPE = '(no type)';

export function entryTypeOf(entry: JournalEntry): string {
  return entry.type ?? NO_TYPE;
}

function contentOf(entry: JournalEntry): unknown {
  return entry.type === 'custom_message' ? entry['content'] : messageOf(entry)?.['content'];
}

/** The text of each content block (`describe` names the non-text ones it wants shown), or null when there is no content. */
function blockTexts(entry: JournalEntry, describe: (block: Record<string, unknown>) => string): string[] | null {
  const content = contentOf(entry);
  if (typeof content === 'string') return [content];
  if (!Array.isArray(content)) return null;
  return content.map((part: unknown) => {
    if (typeof part !== 'object' || part === null) return '';
    const block = part as Record<string, unknown>;
    return block['type'] === 'text' && typeof block['text'] === 'string' ? block['text'] : describe(block);
  });
}

/**
 * The editor text the host's `/tree` hands back for a user message or custom_message: a string
 * content as is, otherwise its text blocks joined with no separator (host `_extractUserMessageText`).
 */
export function editorTextOf(entry: JournalEntry): string {
  return (blockTexts(entry, () => '') ?? []).join('');
}

/** Plain text of a message or custom_message, for display: blocks on their own lines, tool calls named. */
export function entryText(entry: JournalEntry): string {
  const texts = blockTexts(entry, (block) => (block['type'] === 'toolCall' && typeof block['name'] === 'string' ? `[tool call: ${block['name']}]` : ''));
  if (texts === null) return '';
  if (texts.length === 1 && typeof contentOf(entry) === 'string') return texts[0] ?? '';
  return texts.filter((text) => text.length > 0).join('\n');
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

/** Who answered, as OMP records it on an assistant message; the scripted agents and the tool panel are the playground's own. */
export interface AssistantMeta {
  readonly api: string;
  readonly provider: string;
  readonly model: string;
  readonly usage?: { readonly input: number; readonly output: number };
  readonly errorMessage?: string;
}

const PLAYGROUND_ASSISTANT: AssistantMeta = { api: 'playground', provider: 'playground', model: 'scripted' };

export function assistantMessageEntry(
  content: readonly Record<string, unknown>[],
  place: Place,
  stopReason: 'stop' | 'toolUse' | 'length' | 'error' | 'aborted' = 'stop',
  meta: AssistantMeta = PLAYGROUND_ASSISTANT,
): JournalEntry {
  const input = meta.usage?.input ?? 0;
  const output = meta.usage?.output ?? 0;
  return {
    type: 'message',
    id: place.id,
    parentId: place.parentId,
    timestamp: place.timestamp,
    message: {
      role: 'assistant',
      content,
      api: meta.api,
      provider: meta.provider,
      model: meta.model,
      usage: { input, output, cacheRead: 0, cacheWrite: 0, totalTokens: input + output, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
      stopReason,
      ...(meta.errorMessage === undefined ? {} : { errorMessage: meta.errorMessage }),
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

/**
 * The host's session file name, `<header timestamp with ":" and "." as "->_<session id>.jsonl`:
 * what an export of this session is called and what a fork records as its `parentSession`.
 */
export function sessionFileName(header: SessionHeader): string {
  const stamp = header.timestamp?.replace(/[:.]/g, '-');
  return stamp === undefined ? `${header.id}.jsonl` : `${stamp}_${header.id}.jsonl`;
}

export function sessionHeader(id: SessionId, timestamp: string, cwd: string, parentSession?: string): SessionHeader {
  const header: Record<string, unknown> = { type: 'session', version: CURRENT_SESSION_VERSION, id, timestamp, cwd };
  if (parentSession !== undefined) header['parentSession'] = parentSession;
  return header as SessionHeader;
}
