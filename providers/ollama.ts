import { ChatBodySchema, ResponsesBodySchema, ResponsesToolSchema } from './bodies';
import { accepted, isObject, refused, told, type Judgement, type ToolAsTold } from './judgement';
import { decodeParameters, decodeTool, GoDecodeError } from './ollamaDecode';

/**
 * Ollama. Every tool is decoded into its Go structs (`ollamaDecode.ts`), so the request is
 * accepted whatever JSON Schema it carries, as long as the JSON types fit the structs; the model
 * is told only what survives the decoding.
 *
 * - `/api/chat` (native): `c.ShouldBindJSON(&req)` into `api.ChatRequest`; a decoding error is
 *   answered `400 {"error": err.Error()}` (ollama/ollama `server/routes.go`, ChatHandler).
 * - `/v1/chat/completions`: the same `api.Tool` inside `openai.ChatCompletionRequest`; a decoding
 *   error is answered `400` with `openai.NewError`: `{"error":{"message":…,"type":"invalid_request_error","param":null,"code":null}}`
 *   (`middleware/openai.go`, `openai/openai.go`).
 * - `/v1/responses`: `openai.ResponsesTool` keeps `parameters` as a map, then `convertTool`
 *   marshals it and decodes it into `api.ToolFunctionParameters` (`openai/responses.go`).
 */

function openAIShape(message: string): unknown {
  return { error: { message, type: 'invalid_request_error', param: null, code: null } };
}

function decodeAll(tools: readonly unknown[], root: string): ToolAsTold[] {
  return tools.map((raw) => {
    const tool = decodeTool(raw, { struct: root, fields: ['tools'] });
    return told(tool.name, tool.description === '' ? undefined : tool.description, tool.parameters);
  });
}

export function judgeOllamaNative(body: unknown): Judgement {
  const parsed = ChatBodySchema.safeParse(body);
  if (!parsed.success) return refused(400, { error: 'missing request body' });
  try {
    return accepted(decodeAll(parsed.data.tools ?? [], 'ChatRequest'));
  } catch (error) {
    if (error instanceof GoDecodeError) return refused(400, { error: error.message });
    throw error;
  }
}

export function judgeOllamaOpenAI(body: unknown): Judgement {
  if (isObject(body) && !('messages' in body) && 'input' in body) return judgeOllamaResponses(body);
  const parsed = ChatBodySchema.safeParse(body);
  if (!parsed.success) return refused(400, openAIShape('EOF'));
  try {
    return accepted(decodeAll(parsed.data.tools ?? [], 'ChatCompletionRequest'));
  } catch (error) {
    if (error instanceof GoDecodeError) return refused(400, openAIShape(error.message));
    throw error;
  }
}

function judgeOllamaResponses(body: unknown): Judgement {
  const parsed = ResponsesBodySchema.safeParse(body);
  if (!parsed.success) return refused(400, openAIShape('EOF'));
  const tools: ToolAsTold[] = [];
  try {
    for (const raw of parsed.data.tools ?? []) {
      const tool = ResponsesToolSchema.safeParse(raw);
      if (!tool.success || tool.data.type !== 'function' || typeof tool.data.name !== 'string') continue;
      // A fresh `json.Unmarshal` of the parameters map: paths start at the parameters themselves.
      const parameters = isObject(tool.data.parameters) ? decodeParameters(tool.data.parameters, { struct: 'ToolFunctionParameters', fields: [] }) : decodeParameters(null, { struct: '', fields: [] });
      const description = typeof tool.data.description === 'string' && tool.data.description !== '' ? tool.data.description : undefined;
      tools.push(told(tool.data.name, description, parameters));
    }
  } catch (error) {
    if (error instanceof GoDecodeError) return refused(400, openAIShape(`failed to unmarshal tool parameters: ${error.message}`));
    throw error;
  }
  return accepted(tools);
}
