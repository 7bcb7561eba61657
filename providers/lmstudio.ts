import { ChatBodySchema, ResponsesBodySchema, ResponsesToolSchema, text } from './bodies';
import { accepted, isObject, refused, told, type Judgement, type JsonObject, type ToolAsTold } from './judgement';

/**
 * LM Studio's server. Its tool schema is published in its SDK, lmstudio-ai/lmstudio-js
 * `packages/lms-shared-types/src/llm/LLMToolUseSetting.ts` (zod 3):
 *   tool = discriminatedUnion("type", [{ type: literal("function"), function: { name: string,
 *     description?: string, parameters?: discriminatedUnion("type", [{ type: literal("object"),
 *     properties: record(json), required?: string[], additionalProperties?: any, $defs?: record(json) }]) } }])
 * A refused /v1/chat/completions answers 400 with the zod issues as indented JSON text in `error`,
 * word for word as here: `{"error":"[\n  {\n    \"code\": \"invalid_union_discriminator\",\n    \"options\": [\n
 * \"object\"\n    ],\n    \"path\": [\n      13,\n      \"function\",\n      \"parameters\",\n      \"type\"\n    ],\n
 * \"message\": \"Invalid discriminator value. Expected 'object'\"\n  }, …]"}` (mcowger/generic-copilot#40;
 * iOfficeAI/AionUi#265), and for a missing `properties` `"code": "invalid_type", "expected": "object",
 * "received": "undefined", … "message": "Required"` (sipeed/picoclaw#2139).
 * /v1/responses answers `{"error":{"message":"Invalid input","type":"invalid_request_error","param":"tools.0","code":"custom"}}`
 * (lmstudio-ai/lmstudio-bug-tracker#2254).
 *
 * What the model is told: the parameters as zod 3's `z.object` returns them, unknown keys
 * stripped (type, properties, required, additionalProperties, $defs), assuming the server passes
 * on what it parsed.
 */

type Issue = Readonly<Record<string, unknown>> & { readonly path: readonly (string | number)[] };

/** zod 3's name for a value's type in `received`. */
function zodType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function invalidType(expected: string, value: unknown, path: readonly (string | number)[]): Issue {
  const received = zodType(value);
  return { code: 'invalid_type', expected, received, path, message: received === 'undefined' ? 'Required' : `Expected ${expected}, received ${received}` };
}

function discriminator(option: string, path: readonly (string | number)[]): Issue {
  return { code: 'invalid_union_discriminator', options: [option], path, message: `Invalid discriminator value. Expected '${option}'` };
}

/** zod 3's issues for one tool's `parameters` (undefined is allowed: `.optional()`). */
function parameterIssues(parameters: unknown, path: readonly (string | number)[]): Issue[] {
  if (parameters === undefined) return [];
  if (!isObject(parameters)) return [invalidType('object', parameters, path)];
  if (parameters['type'] !== 'object') return [discriminator('object', [...path, 'type'])];
  const issues: Issue[] = [];
  if (!isObject(parameters['properties'])) issues.push(invalidType('object', parameters['properties'], [...path, 'properties']));
  const required = parameters['required'];
  if (required !== undefined) {
    if (!Array.isArray(required)) issues.push(invalidType('array', required, [...path, 'required']));
    else required.forEach((item, index) => typeof item !== 'string' && issues.push(invalidType('string', item, [...path, 'required', index])));
  }
  if (parameters['$defs'] !== undefined && !isObject(parameters['$defs'])) issues.push(invalidType('object', parameters['$defs'], [...path, '$defs']));
  return issues;
}

/** What `z.object` keeps of accepted parameters. */
function stripped(parameters: JsonObject): JsonObject {
  const kept: Record<string, unknown> = {};
  for (const key of ['type', 'properties', 'required', 'additionalProperties', '$defs']) if (parameters[key] !== undefined) kept[key] = parameters[key];
  return kept;
}

function chatIssues(raw: unknown, index: number): Issue[] {
  if (!isObject(raw)) return [invalidType('object', raw, [index])];
  if (raw['type'] !== 'function') return [discriminator('function', [index, 'type'])];
  const fn = raw['function'];
  if (!isObject(fn)) return [invalidType('object', fn, [index, 'function'])];
  const issues: Issue[] = [];
  if (typeof fn['name'] !== 'string') issues.push(invalidType('string', fn['name'], [index, 'function', 'name']));
  if (fn['description'] !== undefined && typeof fn['description'] !== 'string') issues.push(invalidType('string', fn['description'], [index, 'function', 'description']));
  return [...issues, ...parameterIssues(fn['parameters'], [index, 'function', 'parameters'])];
}

export function judgeLmStudio(body: unknown): Judgement {
  if (isObject(body) && !('messages' in body) && 'input' in body) return judgeLmStudioResponses(body);
  const parsed = ChatBodySchema.safeParse(body);
  if (!parsed.success) return refused(400, { error: JSON.stringify([invalidType('object', body, [])], null, 2) });
  const raws = parsed.data.tools ?? [];
  const issues = raws.flatMap((raw, index) => chatIssues(raw, index));
  if (issues.length > 0) return refused(400, { error: JSON.stringify(issues, null, 2) });
  const tools: ToolAsTold[] = raws.map((raw) => {
    const fn = (raw as JsonObject)['function'] as JsonObject;
    const parameters = fn['parameters'];
    return told(fn['name'] as string, text(fn['description']), isObject(parameters) ? stripped(parameters) : {});
  });
  return accepted(tools);
}

function judgeLmStudioResponses(body: JsonObject): Judgement {
  const parsed = ResponsesBodySchema.safeParse(body);
  const invalid = (param: string) => refused(400, { error: { message: 'Invalid input', type: 'invalid_request_error', param, code: 'custom' } });
  if (!parsed.success) return invalid('input');
  const tools: ToolAsTold[] = [];
  for (const [index, raw] of (parsed.data.tools ?? []).entries()) {
    const tool = ResponsesToolSchema.safeParse(raw);
    if (!tool.success || tool.data.type !== 'function') continue;
    if (typeof tool.data.name !== 'string' || parameterIssues(tool.data.parameters, []).length > 0) return invalid(`tools.${index}`);
    tools.push(told(tool.data.name, text(tool.data.description), isObject(tool.data.parameters) ? stripped(tool.data.parameters) : {}));
  }
  return accepted(tools);
}
