import { AnthropicBodySchema, AnthropicToolSchema, text } from './bodies';
import { accepted, isObject, refused, told, type Judgement, type ToolAsTold } from './judgement';

/**
 * Anthropic Messages: a custom tool's `input_schema`.
 *
 * - `input_schema` is required and its root is `type: "object"` (API reference, `tools[].input_schema`:
 *   "type: "object"", https://docs.anthropic.com/en/api/messages#body-tools). The messages for a
 *   missing or wrong `type` follow the API's validation wording (`<path>: Field required`,
 *   `<path>: Input should be 'object'`, as in "messages.3.content.3.tool_use.input: Input should be a valid
 *   dictionary", a real refusal); we have not captured them for this field.
 * - No `oneOf`, `anyOf` or `allOf` at the root: the real refusal, word for word, is
 *   `{"type":"error","error":{"type":"invalid_request_error","message":"tools.106.custom.input_schema:
 *   input_schema does not support oneOf, allOf, or anyOf at the top level"}}` with status 400
 *   (anthropics/claude-code#5319, #5973; mobile-next/mobile-mcp#344). The docs do not say it.
 *
 * What the model is told: the schema as sent.
 */

function anthropicError(message: string): unknown {
  return { type: 'error', error: { type: 'invalid_request_error', message } };
}

export function judgeAnthropic(body: unknown): Judgement {
  const parsed = AnthropicBodySchema.safeParse(body);
  if (!parsed.success) return refused(400, anthropicError('messages: Field required'));
  const tools: ToolAsTold[] = [];
  for (const [index, raw] of (parsed.data.tools ?? []).entries()) {
    const tool = AnthropicToolSchema.safeParse(raw);
    const at = `tools.${index}.custom`;
    if (!tool.success || typeof tool.data.name !== 'string') return refused(400, anthropicError(`${at}.name: Field required`));
    const schema = tool.data.input_schema;
    if (!isObject(schema)) return refused(400, anthropicError(`${at}.input_schema: Field required`));
    if (['oneOf', 'anyOf', 'allOf'].some((key) => key in schema)) {
      return refused(400, anthropicError(`${at}.input_schema: input_schema does not support oneOf, allOf, or anyOf at the top level`));
    }
    if (!('type' in schema)) return refused(400, anthropicError(`${at}.input_schema.type: Field required`));
    if (schema['type'] !== 'object') return refused(400, anthropicError(`${at}.input_schema.type: Input should be 'object'`));
    tools.push(told(tool.data.name, text(tool.data.description), schema));
  }
  return accepted(tools);
}
