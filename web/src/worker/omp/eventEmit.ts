import type { ExtensionContext } from '../../../../extension/ompApi';
import type { Invocation } from './invocation';
import { messageOf } from './runPolicy';

/**
 * How OMP 18.2.3's `ExtensionRunner` (dist source:
 * host-test/.omp/node_modules/@oh-my-pi/pi-coding-agent/src/extensibility/extensions/runner.ts)
 * runs an event's handlers, for the events whose results the host acts on: each handler in
 * subscription order, awaited one after the other, with one `ctx` per emit; a handler that throws
 * or takes longer than 30 s is the extension's error (`emitError`) and the next one still runs.
 * What each event does with the results is the runner's own `emit…` method, copied below.
 */

export type EventHandler = (event: unknown, ctx: ExtensionContext) => unknown;

/** What the emitters need of the runtime: the handlers, a fresh ctx, and where an error goes. */
export interface HandlerSource {
  handlersOf(event: string): readonly EventHandler[];
  /** `run`: the session change the handlers may stop, whose dialogs the page shows; without one a dialog answers as cancelled. */
  eventContext(run?: Invocation): ExtensionContext;
  /** A handler threw or timed out: the host shows `Extension "<path>" error: …`. */
  handlerFailed(event: string, error: string): void;
  readonly path: string;
  /** The extension's managed timers (`ctx.setTimeout`…), cleared when its host ends. */
  readonly timers?: { clearAll(): void };
}

/** runner.ts `EXTENSION_HANDLER_TIMEOUT_MS`. */
export const HANDLER_TIMEOUT_MS = 30_000;
/** runner.ts `SESSION_SHUTDOWN_HANDLER_TIMEOUT_MS`: teardown must stay prompt. */
export const SHUTDOWN_TIMEOUT_MS = 2_000;

type HandlerOutcome = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly kind: 'error' | 'timeout'; readonly message: string };

/**
 * runner.ts `#runHandlerWithTimeout`: the handler's value, or why it has none (already reported).
 * `run`: the session change whose dialog the page shows. While that dialog waits for the learner
 * the clock starts over instead of running out: OMP's 30 s take the dialog in too and then close
 * it, but a learner reading a dialog in a teaching page should not lose it mid-sentence (the API
 * table says so for each before-event).
 */
async function runHandler(source: HandlerSource, handler: EventHandler, event: { readonly type: string }, ctx: ExtensionContext, run?: Invocation): Promise<HandlerOutcome> {
  const limit = event.type === 'session_shutdown' ? SHUTDOWN_TIMEOUT_MS : HANDLER_TIMEOUT_MS;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<HandlerOutcome>((resolve) => {
    const expire = () => {
      if (run?.asked) timer = setTimeout(expire, limit);
      else resolve({ ok: false, kind: 'timeout', message: `handler timed out after ${limit}ms` });
    };
    timer = setTimeout(expire, limit);
  });
  const ran = (async (): Promise<HandlerOutcome> => {
    try {
      return { ok: true, value: await handler(event, ctx) };
    } catch (error) {
      return { ok: false, kind: 'error', message: messageOf(error) };
    }
  })();
  const outcome = await Promise.race([ran, timedOut]);
  clearTimeout(timer);
  if (!outcome.ok) source.handlerFailed(event.type, outcome.message);
  return outcome;
}

const SESSION_BEFORE = new Set(['session_before_switch', 'session_before_branch', 'session_before_compact', 'session_before_tree']);

/**
 * runner.ts `emit`: every handler runs; for a `session_before_*` event the last result that is
 * set is the answer, and one with `cancel: true` stops the others at once. `run`: the session
 * change the event belongs to, whose dialogs wait for the page's answer (sessionChanges.ts).
 */
export async function emit(source: HandlerSource, event: { readonly type: string }, run?: Invocation): Promise<{ readonly cancel?: unknown } | undefined> {
  const handlers = source.handlersOf(event.type);
  if (handlers.length === 0) return undefined;
  const ctx = source.eventContext(run);
  let result: { readonly cancel?: unknown } | undefined;
  for (const handler of handlers) {
    const outcome = await runHandler(source, handler, event, ctx, run);
    if (!outcome.ok || !SESSION_BEFORE.has(event.type) || !isObject(outcome.value)) continue;
    result = outcome.value;
    if (result.cancel) return result;
  }
  return result;
}

/**
 * runner.ts `emit` for `session_shutdown` (agent-session.ts `dispose` → `emitSessionShutdownEvent`):
 * every handler starts at once and the host waits for all of them, each capped at 2 s; then the
 * extension's managed timers are cleared.
 */
export async function emitSessionShutdown(source: HandlerSource): Promise<void> {
  try {
    const handlers = source.handlersOf('session_shutdown');
    if (handlers.length === 0) return;
    const ctx = source.eventContext();
    await Promise.all(handlers.map((handler) => runHandler(source, handler, { type: 'session_shutdown' }, ctx)));
  } finally {
    // runner.ts `emitSessionShutdownEvent`: the managed timers are cleared whatever the handlers did.
    source.timers?.clearAll();
  }
}

/** What `before_agent_start` handlers came to (runner.ts `BeforeAgentStartCombinedResult`). */
export interface BeforeAgentStartResult {
  readonly messages?: unknown[];
  readonly systemPrompt?: string[];
}

/**
 * runner.ts `emitBeforeAgentStart`: each handler sees the system prompt as the ones before it left
 * it; a result's `message` is collected, its `systemPrompt` (a string or string[]) replaces the
 * prompt. Any other field (the examples' `systemPromptAppend`) is not read by OMP 18.2.3.
 */
export async function emitBeforeAgentStart(source: HandlerSource, prompt: string, systemPrompt: string[]): Promise<BeforeAgentStartResult | undefined> {
  const handlers = source.handlersOf('before_agent_start');
  if (handlers.length === 0) return undefined;
  const ctx = source.eventContext();
  const messages: unknown[] = [];
  let current = systemPrompt;
  let modified = false;
  for (const handler of handlers) {
    const outcome = await runHandler(source, handler, { type: 'before_agent_start', prompt, images: undefined, systemPrompt: current } as { type: string }, ctx);
    if (!outcome.ok || !isObject(outcome.value)) continue;
    const value = outcome.value as { message?: unknown; systemPrompt?: unknown };
    if (value.message) messages.push(value.message);
    if (value.systemPrompt !== undefined) {
      current = typeof value.systemPrompt === 'string' ? [value.systemPrompt] : Array.isArray(value.systemPrompt) ? value.systemPrompt.map(String) : current;
      modified = true;
    }
  }
  if (messages.length === 0 && !modified) return undefined;
  return { ...(messages.length > 0 ? { messages } : {}), ...(modified ? { systemPrompt: current } : {}) };
}

export interface ToolCallEvent {
  readonly type: 'tool_call';
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: unknown;
}
export type ToolCallVerdict = { readonly block: true; readonly reason: string } | { readonly block: false; readonly input?: Record<string, unknown> };

/**
 * runner.ts `emitToolCall` with agent-session.ts `#beforeToolCall`: the first result with `block`
 * stops the call (a handler that throws or times out blocks it too: fail-closed), with its reason or
 * "Tool execution was blocked by an extension"; otherwise the last `input` set replaces the arguments.
 */
export async function emitToolCall(source: HandlerSource, event: ToolCallEvent): Promise<ToolCallVerdict> {
  const handlers = source.handlersOf('tool_call');
  if (handlers.length === 0) return { block: false };
  const ctx = source.eventContext();
  let input: Record<string, unknown> | undefined;
  for (const handler of handlers) {
    const outcome = await runHandler(source, handler, event, ctx);
    if (!outcome.ok) {
      const reason = outcome.kind === 'timeout' ? `Extension ${source.path} timed out after ${HANDLER_TIMEOUT_MS}ms` : `Extension ${source.path} failed: ${outcome.message}`;
      return { block: true, reason };
    }
    if (!isObject(outcome.value)) continue;
    const value = outcome.value as { block?: unknown; reason?: unknown; input?: unknown };
    if (value.block) return { block: true, reason: typeof value.reason === 'string' && value.reason !== '' ? value.reason : 'Tool execution was blocked by an extension' };
    if (isObject(value.input)) input = value.input as Record<string, unknown>;
  }
  return input === undefined ? { block: false } : { block: false, input };
}

export interface ToolResultEvent {
  readonly type: 'tool_result';
  readonly toolName: string;
  readonly toolCallId: string;
  readonly input: unknown;
  content: unknown[];
  details: unknown;
  isError: boolean;
}

/**
 * runner.ts `emitToolResult`: each handler sees the result as the ones before it left it; a
 * result's `content`, `details` and `isError` (each when set) replace the call's. Undefined when
 * no handler changed anything.
 */
export async function emitToolResult(source: HandlerSource, event: ToolResultEvent): Promise<Pick<ToolResultEvent, 'content' | 'details' | 'isError'> | undefined> {
  const handlers = source.handlersOf('tool_result');
  if (handlers.length === 0) return undefined;
  const ctx = source.eventContext();
  const current: ToolResultEvent = { ...event };
  let modified = false;
  for (const handler of handlers) {
    const outcome = await runHandler(source, handler, current, ctx);
    if (!outcome.ok || !isObject(outcome.value)) continue;
    const value = outcome.value as { content?: unknown; details?: unknown; isError?: unknown };
    if (Array.isArray(value.content)) {
      current.content = value.content;
      modified = true;
    }
    if (value.details !== undefined) {
      current.details = value.details;
      modified = true;
    }
    if (typeof value.isError === 'boolean') {
      current.isError = value.isError;
      modified = true;
    }
  }
  return modified ? { content: current.content, details: current.details, isError: current.isError } : undefined;
}

/** runner.ts `emitInput`: texts chain through the handlers; `handled: true` stops at once. */
export async function emitInput(source: HandlerSource, text: string, sourceKind: 'interactive' | 'rpc' | 'extension'): Promise<{ readonly handled: boolean; readonly text: string }> {
  const handlers = source.handlersOf('input');
  if (handlers.length === 0) return { handled: false, text };
  const ctx = source.eventContext();
  let current = text;
  for (const handler of handlers) {
    const outcome = await runHandler(source, handler, { type: 'input', text: current, images: undefined, source: sourceKind } as { type: string }, ctx);
    if (!outcome.ok || !isObject(outcome.value)) continue;
    const value = outcome.value as { handled?: unknown; text?: unknown };
    if (value.handled) return { handled: true, text: current };
    if (typeof value.text === 'string') current = value.text;
  }
  return { handled: false, text: current };
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null;
}
