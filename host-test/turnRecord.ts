/**
 * What a session file (OMP's, or the page's export) holds of check (l)'s turn, so the two hosts'
 * files compare: the seed_desk calls, their results, the closing text, the seed desk entries,
 * with session ids and seed desk entry ids named by their order in the file (SID, desk#N).
 *
 * OMP as installed reaches seed_desk through its device (scriptedModel.ts): a `read` of
 * `xd://seed_desk` (its docs, kept apart as `docs`) and a `write` to it whose `content` is the
 * call's JSON arguments; its result is the tool's own result, its details under `details.xdev.inner`
 * (pi-coding-agent `tools/xdev.ts` `dispatchXdevTool`). Such a write is recorded here as the
 * seed_desk call it carried.
 */
import { DEVICE } from './scriptedModel';

/** What a session file holds of the turn: the calls, their results, the closing text, the seed desk entries. */
export interface TurnRecord {
  /** What reading the device returned (OMP as installed), or null. */
  readonly docs: string | null;
  readonly calls: readonly { readonly id: string; readonly name: string; readonly args: Record<string, unknown> }[];
  readonly results: readonly { readonly toolCallId: string; readonly toolName: string; readonly text: string; readonly isError: boolean; readonly details: unknown }[];
  readonly closing: string;
  readonly desk: readonly unknown[];
}

interface Line {
  readonly type: string;
  readonly id?: string;
  readonly customType?: string;
  readonly data?: unknown;
  readonly message?: { readonly role: string; readonly content: string | readonly Block[]; readonly toolCallId?: string; readonly toolName?: string; readonly isError?: boolean; readonly details?: unknown };
}

interface Block {
  readonly type: string;
  readonly text?: string;
  readonly id?: string;
  readonly name?: string;
  readonly arguments?: Record<string, unknown>;
}

/** A toolCall as the seed_desk call it is: itself, a device write's content, or null for the device's read. */
function asSeedDeskCall(block: Block): { id: string; name: string; args: Record<string, unknown> } | null {
  const args = block.arguments ?? {};
  if (block.name === 'read' && args['path'] === DEVICE) return null;
  if (block.name === 'write' && args['path'] === DEVICE) return { id: String(block.id), name: 'seed_desk', args: withoutIntent(JSON.parse(String(args['content'])) as Record<string, unknown>) };
  return { id: String(block.id), name: String(block.name), args: withoutIntent(args) };
}

function innerDetails(details: unknown): unknown {
  const xdev = typeof details === 'object' && details !== null ? (details as { xdev?: { inner?: unknown } }).xdev : undefined;
  return xdev ? (xdev.inner ?? null) : (details ?? null);
}

/**
 * The turn as a session file holds it, with its session id and seed desk entry ids named by order.
 * OMP's agent loop strips the intent field `i` before the tool runs (pi-agent-core `extractIntent`);
 * where the recorded arguments still carry it, it is left out here: the page's tool is told none.
 */
export function turnRecord(jsonl: string): TurnRecord {
  const lines = linesOf(jsonl);
  const deskEntries = lines.filter((line) => line.type === 'custom' && line.customType === 'seed-desk-state-v1');
  const messages = lines.flatMap((line) => (line.type === 'message' && line.message ? [line.message] : []));
  const blocks = (message: NonNullable<Line['message']>) => (typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : message.content);
  const calls = messages.filter((message) => message.role === 'assistant').flatMap((message) => blocks(message).filter((block) => block.type === 'toolCall'));
  const docsIds = new Set(calls.filter((block) => asSeedDeskCall(block) === null).map((block) => String(block.id)));
  const deviceWrites = new Set(calls.filter((block) => block.name === 'write' && block.arguments?.['path'] === DEVICE).map((block) => String(block.id)));
  const results = messages.filter((message) => message.role === 'toolResult');
  const text = (message: NonNullable<Line['message']>) => blocks(message).map((block) => block.text ?? '').join('\n');
  const docs = results.find((message) => docsIds.has(String(message.toolCallId)));
  const record: TurnRecord = {
    docs: docs ? text(docs) : null,
    calls: calls.flatMap((block) => asSeedDeskCall(block) ?? []),
    results: results
      .filter((message) => !docsIds.has(String(message.toolCallId)))
      .map((message) => ({ toolCallId: String(message.toolCallId), toolName: deviceWrites.has(String(message.toolCallId)) ? 'seed_desk' : String(message.toolName), text: text(message), isError: message.isError === true, details: innerDetails(message.details) })),
    closing: blocks(messages.filter((message) => message.role === 'assistant').at(-1) ?? { role: 'assistant', content: [] }).map((block) => (block.type === 'text' ? (block.text ?? '') : '')).join(''),
    desk: deskEntries.map((line) => line.data),
  };
  return JSON.parse(byOrder(jsonl, JSON.stringify(record))) as TurnRecord;
}

function linesOf(jsonl: string): Line[] {
  return jsonl.split('\n').filter((line) => line.trim() !== '').map((line) => JSON.parse(line) as Line);
}

/** `text` with the file's session id named SID and its seed desk entry ids desk#1, desk#2… in file order. */
export function byOrder(jsonl: string, text: string): string {
  const lines = linesOf(jsonl);
  const sessionId = lines.find((line) => line.type === 'session')?.id;
  if (!sessionId) throw new Error('the session file has no session header');
  let named = text.split(sessionId).join('SID');
  lines.filter((line) => line.type === 'custom' && line.customType === 'seed-desk-state-v1').forEach((line, index) => {
    named = named.split(String(line.id)).join(`desk#${index + 1}`);
  });
  return named;
}

function withoutIntent(args: Record<string, unknown>): Record<string, unknown> {
  const { i: _intent, ...rest } = args;
  return rest;
}

