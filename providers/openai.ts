import { ChatBodySchema, ChatFunctionSchema, ChatToolSchema, ResponsesBodySchema, ResponsesToolSchema, text } from './bodies';
import { accepted, isObject, refused, told, type Judgement, type ToolAsTold } from './judgement';
import { strictProblem } from './openaiStrict';

/**
 * OpenAI's rules for a function tool's `parameters`, in chat completions (`tools[].function`) and
 * in the Responses API (`tools[]`, the fields on the tool itself).
 *
 * - The root must be `type: "object"`, strict or not. Source: the API reference ("The parameters
 *   the functions accepts, described as a JSON Schema object",
 *   https://platform.openai.com/docs/api-reference/chat/create#chat-create-tools) and the real
 *   refusal of a root without `type`, reproduced word for word here: "Invalid schema for function
 *   'json': schema must be a JSON Schema of 'type: "object"', got 'type: "None"'."
 *   (browserbase/stagehand#1159; the same for `seed_desk` in /v1/chat/completions and /v1/responses,
 *   issue 35). The body is OpenAI's error object, indented, with `code: "invalid_function_parameters"`
 *   and the tool's `param`: `tools[0].function.parameters` in chat completions
 *   (FoundationAgents/OpenManus#1162), `tools[0].parameters` in /v1/responses (a captured
 *   /v1/responses 400 with this very message, quoted in an AI SDK v6 report).
 * - With `strict: true`, the Structured Outputs subset (`openaiStrict.ts`).
 *
 * What the model is told: the schema as sent (OpenAI renders it for the model itself; nothing is
 * dropped that we can observe).
 */

const BAD_BODY = { error: { message: "We could not parse the JSON body of your request. (HINT: This likely means you aren't using your HTTP library correctly. The OpenAI API expects a JSON payload, but what was sent was not valid JSON.)", type: 'invalid_request_error', param: null, code: null } };

export function openAIError(message: string, param: string, code: string | null = 'invalid_function_parameters'): { error: { message: string; type: string; param: string; code: string | null } } {
  return { error: { message, type: 'invalid_request_error', param, code } };
}

/** The schema check both APIs share: the error message, or null. */
export function parametersProblem(name: string, parameters: unknown, strict: boolean): string | null {
  const prefix = `Invalid schema for function '${name}': `;
  const type = isObject(parameters) ? parameters['type'] : undefined;
  if (!isObject(parameters) || type !== 'object') return `${prefix}schema must be a JSON Schema of 'type: "object"', got 'type: "${pythonTypeName(type)}"'.`;
  if (!strict) return null;
  const problem = strictProblem(parameters);
  return problem === null ? null : `${prefix}${problem}`;
}

/** How the server prints the `type` it found: Python's `None` for a missing one. */
function pythonTypeName(type: unknown): string {
  if (type === undefined || type === null) return 'None';
  return typeof type === 'string' ? type : JSON.stringify(type);
}

export function judgeOpenAIChat(body: unknown): Judgement {
  const parsed = ChatBodySchema.safeParse(body);
  if (!parsed.success) return refused(400, BAD_BODY, 2);
  const tools: ToolAsTold[] = [];
  for (const [index, raw] of (parsed.data.tools ?? []).entries()) {
    const tool = ChatToolSchema.safeParse(raw);
    const fn = tool.success ? ChatFunctionSchema.safeParse(tool.data.function) : null;
    if (!tool.success || tool.data.type !== 'function' || fn === null || !fn.success || typeof fn.data.name !== 'string') {
      return refused(400, openAIError(`Missing required parameter: 'tools[${index}].function'.`, `tools[${index}].function`, 'missing_required_parameter'), 2);
    }
    const problem = parametersProblem(fn.data.name, fn.data.parameters, fn.data.strict === true);
    if (problem !== null) return refused(400, openAIError(problem, `tools[${index}].function.parameters`), 2);
    tools.push(told(fn.data.name, text(fn.data.description), fn.data.parameters));
  }
  return accepted(tools);
}

export function judgeOpenAIResponses(body: unknown): Judgement {
  const parsed = ResponsesBodySchema.safeParse(body);
  if (!parsed.success) return refused(400, BAD_BODY, 2);
  const tools: ToolAsTold[] = [];
  for (const [index, raw] of (parsed.data.tools ?? []).entries()) {
    const tool = ResponsesToolSchema.safeParse(raw);
    // Built-in tools (web_search, …) carry no schema of ours: only function tools are judged.
    if (!tool.success || tool.data.type !== 'function') continue;
    if (typeof tool.data.name !== 'string') return refused(400, openAIError(`Missing required parameter: 'tools[${index}].name'.`, `tools[${index}].name`, 'missing_required_parameter'), 2);
    // The reference gives `strict` a default of true; we judge the strict subset only where the
    // body sends `strict: true` (OMP always sends it, then false on its retry), as issue 35 says.
    const problem = parametersProblem(tool.data.name, tool.data.parameters, tool.data.strict === true);
    if (problem !== null) return refused(400, openAIError(problem, `tools[${index}].parameters`), 2);
    tools.push(told(tool.data.name, text(tool.data.description), tool.data.parameters));
  }
  return accepted(tools);
}
