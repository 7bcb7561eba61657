import { ChatBodySchema, ChatFunctionSchema, ChatToolSchema, text } from './bodies';
import { accepted, isObject, refused, told, type Judgement, type ToolAsTold } from './judgement';

/**
 * llama.cpp's server (`llama-server --jinja`), /v1/chat/completions.
 * Source: ggml-org/llama.cpp `common/chat.cpp`, `common_chat_tools_parse_oaicompat`: each tool
 * needs `type: "function"` and a `function` with a `name`; `parameters` is taken as it is
 * (`function.value("parameters", json::object())`) and handed to the model's chat template and
 * to the grammar built from it. Any other problem is thrown as "Failed to parse tools: …",
 * which the server answers as an invalid request (`{"error":{"code":400,"message":…,"type":"invalid_request_error"}}`,
 * tools/server `format_error_response`).
 *
 * What the model is told: `parameters` as sent (no parameters: `{}`).
 */

function llamaError(message: string): unknown {
  return { error: { code: 400, message, type: 'invalid_request_error' } };
}

export function judgeLlamaCpp(body: unknown): Judgement {
  const parsed = ChatBodySchema.safeParse(body);
  if (!parsed.success) return refused(400, llamaError('Failed to parse tools: Expected \'tools\' to be an array'));
  const tools: ToolAsTold[] = [];
  for (const raw of parsed.data.tools ?? []) {
    const dump = JSON.stringify(raw);
    const tool = ChatToolSchema.safeParse(raw);
    if (!tool.success || !isObject(raw) || !('type' in raw)) return refused(400, llamaError(`Failed to parse tools: Missing tool type: ${dump}`));
    if (tool.data.type !== 'function') return refused(400, llamaError(`Failed to parse tools: Unsupported tool type: ${dump}`));
    const fn = ChatFunctionSchema.safeParse(tool.data.function);
    if (!fn.success) return refused(400, llamaError(`Failed to parse tools: Missing tool function: ${dump}`));
    if (typeof fn.data.name !== 'string') return refused(400, llamaError('Failed to parse tools: [json.exception.out_of_range.403] key \'name\' not found'));
    tools.push(told(fn.data.name, text(fn.data.description) ?? '', fn.data.parameters ?? {}));
  }
  return accepted(tools);
}
