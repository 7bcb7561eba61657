/**
 * The scripted model of check (l) (issue 35, point 5), shared by the page's side (Node) and the real
 * OMP's side (Bun) so both hosts meet the same model. Like a model, it reads only the request it is
 * sent: the tool results in the conversation (their text: a host sends a model nothing else) and the
 * tools as the provider told them (a field the schema requires, such as OMP's intent field `i`, is
 * filled in; one it was not told is never sent).
 *
 * The lesson's careful sequence, then a stale revision followed by a new query, in one request
 * ("two packets, one at a time"):
 *   1. query;  2. act with the revision that query returned;
 *   3. act again with that FIRST revision (stale now: its own act moved the desk);
 *   4. after the stale-revision refusal, query again;  5. act with the new revision;  6. answer.
 * Each step checks that the conversation is where the script expects it; if not, it answers with a
 * text saying so (which the checks then see), never with a call made up to continue.
 *
 * Where seed_desk is not among the tools but the system prompt names the device `xd://seed_desk`
 * (OMP as installed mounts an extension tool there: pi-coding-agent `tools/xdev.ts`), the model does
 * what that prompt says: it reads `xd://seed_desk` first ("Read xd://<tool> for full docs + JSON
 * schema before first use"), then writes each call's arguments as JSON `content` to it with the
 * `write` tool ("Write JSON args as `content` to `xd://<tool>` via `write`"). The read's result is
 * the docs, not a step of the script.
 */
import type { ToolAsTold } from '../providers/index';

export const LOOP_PROMPT = 'Reserve two packets of bean-scarlet for me, one at a time.';
export const LOOP_CLOSING = 'Done: 2 packets of bean-scarlet are reserved for you.';
export const LOOP_MODEL = 'qwen3';

/** An OpenAI chat-completions request, as far as the model reads it. */
export interface ChatMessage {
  readonly role: string;
  readonly content?: unknown;
  readonly tool_calls?: readonly unknown[];
}

export type ScriptedReply = { readonly text: string } | { readonly call: { readonly id: string; readonly name: string; readonly args: Record<string, unknown> } };

/** Where OMP as installed mounts seed_desk. */
export const DEVICE = 'xd://seed_desk';

function textOf(content: unknown): string {
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) return content.map((part: unknown) => (typeof part === 'object' && part !== null && 'text' in part ? String((part as { text: unknown }).text) : '')).join('');
  return '';
}

const revisionIn = (text: string): string | null => /^revision: (\S+)$/m.exec(text)?.[1] ?? null;

/** The intent a model writes when a schema asks for one (`i`, "concise intent"). */
const INTENTS: Readonly<Record<string, string>> = { query: 'Reading the seed desk', act: 'Reserving bean-scarlet' };

/** How a request tells the model of seed_desk: as a tool, as OMP's device (named in the system prompt, with `read` and `write` to reach it), or not at all. */
export function seedDeskToldAs(messages: readonly ChatMessage[], told: readonly ToolAsTold[]): 'tool' | 'device' | null {
  if (told.some((each) => each.name === 'seed_desk')) return 'tool';
  const system = messages.filter((message) => message.role === 'system' || message.role === 'developer').map((message) => textOf(message.content)).join('\n');
  const reachable = ['read', 'write'].every((name) => told.some((each) => each.name === name));
  return reachable && system.includes(`${DEVICE} — `) ? 'device' : null;
}

function isReadCall(call: unknown): boolean {
  const fn = typeof call === 'object' && call !== null ? (call as { function?: { name?: unknown } }).function : undefined;
  return fn?.name === 'read';
}

/** The arguments as the told schema asks for them: `i` added when required, nothing it does not list. */
function shaped(args: Record<string, unknown>, tool: ToolAsTold | undefined, intent = 'Using the seed desk'): Record<string, unknown> {
  const schema = tool?.parameters as { required?: unknown; oneOf?: unknown; anyOf?: unknown } | undefined;
  const branches = [schema, ...(Array.isArray(schema?.oneOf) ? schema.oneOf : []), ...(Array.isArray(schema?.anyOf) ? schema.anyOf : [])];
  const required = new Set(branches.flatMap((branch) => (Array.isArray((branch as { required?: unknown } | undefined)?.required) ? ((branch as { required: unknown[] }).required as unknown[]) : [])));
  return required.has('i') ? { i: intent, ...args } : args;
}

/**
 * The next reply to a conversation. `told`: the tools as the provider's rules say the model is told
 * them (the server's judgement); without seed_desk among them the model says so.
 */
export function scriptedReply(messages: readonly ChatMessage[], told: readonly ToolAsTold[]): ScriptedReply {
  const tool = told.find((each) => each.name === 'seed_desk');
  const write = told.find((each) => each.name === 'write');
  const read = told.find((each) => each.name === 'read');
  const device = seedDeskToldAs(messages, told) === 'device';
  if (!tool && !device) return { text: 'I was not told of a seed_desk tool.' };
  // Which tool each earlier call used, by its id: the device's docs are no step of the script.
  const reads = new Set(messages.flatMap((message) => (message.tool_calls ?? []).flatMap((call) => (isReadCall(call) ? [(call as { id: string }).id] : []))));
  const toolMessages = messages.filter((message) => message.role === 'tool');
  if (device && !toolMessages.some((message) => reads.has(String((message as { tool_call_id?: unknown }).tool_call_id)))) {
    return { call: { id: 'call_read_1', name: 'read', args: shaped({ path: DEVICE }, read, 'Reading the seed desk device docs') } };
  }
  const results = toolMessages.filter((message) => !reads.has(String((message as { tool_call_id?: unknown }).tool_call_id))).map((message) => textOf(message.content));
  const callsSoFar = results.length;
  const call = (args: Record<string, unknown>): ScriptedReply =>
    device
      ? { call: { id: `call_loop_${callsSoFar + 1}`, name: 'write', args: shaped({ path: DEVICE, content: JSON.stringify(args) }, write, INTENTS[String(args['op'])]) } }
      : { call: { id: `call_loop_${callsSoFar + 1}`, name: 'seed_desk', args: shaped(args, tool, INTENTS[String(args['op'])]) } };
  const act = (expectedRevision: string) => call({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision });
  const lost = (why: string): ScriptedReply => ({ text: `The script lost its place after ${results.length} results: ${why}` });
  const last = results.at(-1) ?? '';
  switch (results.length) {
    case 0:
      return call({ op: 'query' });
    case 1: {
      const revision = revisionIn(last);
      return revision ? act(revision) : lost('the query showed no revision');
    }
    case 2: {
      const first = revisionIn(results[0]!);
      if (!last.startsWith('Reserved 1 bean-scarlet')) return lost(`the first act was not reserved: ${last}`);
      return first ? act(first) : lost('no first revision');
    }
    case 3:
      return last.startsWith('Refused (stale-revision)') ? call({ op: 'query' }) : lost(`the second act was not refused as stale: ${last}`);
    case 4: {
      const revision = revisionIn(last);
      return revision ? act(revision) : lost('the second query showed no revision');
    }
    case 5:
      return last.startsWith('Reserved 1 bean-scarlet') ? { text: LOOP_CLOSING } : lost(`the last act was not reserved: ${last}`);
    default:
      return lost('more results than the script has steps');
  }
}

/** One `data:` line of a streamed chat completion (OpenAI's chunk object, as Ollama's /v1 writes it). */
function chunk(model: string, delta: Record<string, unknown>, finish: string | null = null): string {
  return `data: ${JSON.stringify({ id: 'chatcmpl-loop', object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finish }] })}\n\n`;
}

/** The SSE body of one reply, split as servers split it: text in pieces, a call's arguments as a JSON string after its id and name. */
export function sseOfReply(reply: ScriptedReply, model: string): string {
  const parts = [chunk(model, { role: 'assistant', content: '' })];
  if ('text' in reply) {
    for (const piece of reply.text.match(/.{1,12}/gs) ?? []) parts.push(chunk(model, { content: piece }));
    parts.push(chunk(model, {}, 'stop'));
  } else {
    const { id, name, args } = reply.call;
    parts.push(chunk(model, { tool_calls: [{ index: 0, id, type: 'function', function: { name, arguments: '' } }] }));
    for (const piece of JSON.stringify(args).match(/.{1,16}/gs) ?? []) parts.push(chunk(model, { tool_calls: [{ index: 0, function: { arguments: piece } }] }));
    parts.push(chunk(model, {}, 'tool_calls'));
  }
  parts.push('data: [DONE]\n\n');
  return parts.join('');
}
