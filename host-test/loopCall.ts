/**
 * seed_desk (or a named tool) as the agent loop calls it: pi-ai's argument check (an error result if it throws), then
 * the wrapper (approval, execute; a throw becomes an error result with the bare message), recorded
 * as the loop records it: the assistant message with the toolCall, then the toolResult.
 */
import type { Harness, LoopCall } from './ompTypes';

export async function loopCall(harness: Harness, args: unknown, name = 'seed_desk'): Promise<LoopCall> {
  const { sm, ui } = harness;
  const id = `call_${crypto.randomUUID().slice(0, 8)}`;
  const now = Date.now();
  sm.appendMessage({
    role: 'assistant',
    content: [{ type: 'toolCall', id, name, arguments: args }],
    api: 'mock',
    provider: 'harness',
    model: 'scripted',
    usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
    stopReason: 'toolUse',
    timestamp: now,
  });
  const prompts = ui.selects.length;
  let outcome: { isError: boolean; content: { type: string; text?: string }[]; details: unknown };
  let validated: unknown;
  let valid = true;
  try {
    validated = await harness.validate(args, name);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    outcome = { isError: true, content: [{ type: 'text', text: message }], details: { isError: true, error: message } };
    valid = false;
  }
  if (valid) {
    try {
      const result = await harness.hostTool(name).execute(id, validated);
      outcome = { isError: result.isError === true, content: result.content, details: result.details };
    } catch (error) {
      // agent-loop.ts: a throw from execute becomes the bare message, empty details.
      outcome = { isError: true, content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }], details: {} };
    }
  }
  const result = outcome!;
  sm.appendMessage({ role: 'toolResult', toolCallId: id, toolName: name, content: result.content, details: result.details, isError: result.isError, timestamp: Date.now() });
  const text = result.content.map((part) => part.text ?? '').join('\n');
  return { prompt: ui.selects.length > prompts ? (ui.selects.at(-1) ?? null) : null, isError: result.isError, text, details: result.isError ? null : (result.details ?? null) };
}
