import { GoogleBodySchema, GoogleDeclarationSchema, text } from './bodies';
import { accepted, isObject, refused, told, type Judgement, type ToolAsTold } from './judgement';

/**
 * Google Gemini (generateContent): `tools[].functionDeclarations[]`.
 *
 * - `parametersJsonSchema`: "The schema must describe an object where the properties are the
 *   parameters to the function" and it "is mutually exclusive with parameters" (API reference,
 *   FunctionDeclaration, https://ai.google.dev/api/caching#FunctionDeclaration).
 * - `parameters` (the OpenAPI subset): an object schema too (`type: OBJECT`, same page).
 * The error body is Google's envelope (`{"error":{"code":400,"message":…,"status":"INVALID_ARGUMENT"}}`,
 * https://ai.google.dev/gemini-api/docs/troubleshooting); the message follows its
 * `* GenerateContentRequest.<field path>: <problem>` form, in our words: not captured from the server.
 *
 * What the model is told: the schema as sent.
 */

function googleError(message: string): unknown {
  return { error: { code: 400, message, status: 'INVALID_ARGUMENT' } };
}

function describesObject(schema: unknown): boolean {
  if (!isObject(schema)) return false;
  const type = schema['type'];
  return typeof type === 'string' && type.toLowerCase() === 'object';
}

export function judgeGoogle(body: unknown): Judgement {
  const parsed = GoogleBodySchema.safeParse(body);
  if (!parsed.success) return refused(400, googleError('Invalid JSON payload received.'));
  const tools: ToolAsTold[] = [];
  for (const [t, tool] of (parsed.data.tools ?? []).entries()) {
    for (const [d, raw] of (tool.functionDeclarations ?? []).entries()) {
      const at = `GenerateContentRequest.tools[${t}].function_declarations[${d}]`;
      const declaration = GoogleDeclarationSchema.safeParse(raw);
      if (!declaration.success || typeof declaration.data.name !== 'string') return refused(400, googleError(`* ${at}.name: Name cannot be empty.\n`));
      const { parameters, parametersJsonSchema } = declaration.data;
      if (parameters !== undefined && parametersJsonSchema !== undefined) {
        return refused(400, googleError(`* ${at}: parameters and parameters_json_schema are mutually exclusive.\n`));
      }
      const schema = parametersJsonSchema ?? parameters;
      const field = parametersJsonSchema !== undefined ? 'parameters_json_schema' : 'parameters';
      if (schema !== undefined && !describesObject(schema)) {
        return refused(400, googleError(`* ${at}.${field}: the schema must describe an object (type: object).\n`));
      }
      tools.push(told(declaration.data.name, text(declaration.data.description), schema ?? {}));
    }
  }
  return accepted(tools);
}
