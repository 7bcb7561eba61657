import { isObject, type JsonObject } from './judgement';

/**
 * OpenAI's strict mode (`strict: true`): the Structured Outputs subset of JSON Schema.
 * Source: https://platform.openai.com/docs/guides/structured-outputs#supported-schemas —
 * "Supported properties" (the keyword list below), "Root objects must not be anyOf and must be an
 * object", "All fields must be required", "additionalProperties: false must always be set in
 * objects", and "Some type-specific keywords are not yet supported" (allOf, not, if/then/else,
 * dependentRequired, dependentSchemas, patternProperties, … fall outside the list).
 *
 * The messages are the server's own, as seen in real refusals:
 * - "In context=(), 'required' is required to be supplied and to be an array including every key
 *   in properties. Missing 'screenshotMode'." (dust-tt/dust#27635, langchain-ai/langchain#32930);
 * - "In context=(), 'oneOf' is not permitted." (community.openai.com, "Improve the error messages
 *   for JSON schema structured output"); "In context=('properties', 'scale'), 'default' is not
 *   permitted." (/v1/responses, `param: tools[0].parameters`);
 * - "In context=(), 'additionalProperties' is required to be supplied and to be false."
 *   (openai/openai-agents-python#992);
 * - "In context=('properties', 'kwargs'), schema must have a 'type' key." (livekit/agents#4610);
 * - "In context=(), object schema missing properties." (spring-projects/spring-ai#4776).
 */

/** Every keyword the docs list as supported in strict mode. */
const SUPPORTED = new Set([
  'type', 'description', 'title', 'enum', 'const', 'anyOf', '$ref', '$defs', 'definitions',
  'properties', 'required', 'additionalProperties', 'items',
  // strings
  'pattern', 'format',
  // numbers
  'multipleOf', 'maximum', 'exclusiveMaximum', 'minimum', 'exclusiveMinimum',
  // arrays
  'minItems', 'maxItems',
]);

/** The first strict-mode problem in a schema whose root is already `type: "object"`, or null. */
export function strictProblem(root: JsonObject): string | null {
  return walk(root, []);
}

function walk(schema: unknown, context: readonly (string | number)[]): string | null {
  const at = `In context=${pythonTuple(context)}, `;
  if (!isObject(schema)) return `${at}schema must be a JSON Schema object.`;
  for (const key of Object.keys(schema)) if (!SUPPORTED.has(key)) return `${at}'${key}' is not permitted.`;
  if (!('type' in schema) && !('anyOf' in schema) && !('$ref' in schema)) return `${at}schema must have a 'type' key.`;
  const types = Array.isArray(schema['type']) ? schema['type'] : [schema['type']];
  if (types.includes('object')) {
    const properties = schema['properties'];
    if (!isObject(properties)) return `${at}object schema missing properties.`;
    if (schema['additionalProperties'] !== false) return `${at}'additionalProperties' is required to be supplied and to be false.`;
    const required = Array.isArray(schema['required']) ? schema['required'] : [];
    const missing = Object.keys(properties).find((key) => !required.includes(key));
    if (missing !== undefined) return `${at}'required' is required to be supplied and to be an array including every key in properties. Missing '${missing}'.`;
    for (const [key, property] of Object.entries(properties)) {
      const problem = walk(property, [...context, 'properties', key]);
      if (problem !== null) return problem;
    }
  }
  if ('items' in schema) {
    const problem = walk(schema['items'], [...context, 'items']);
    if (problem !== null) return problem;
  }
  const anyOf = schema['anyOf'];
  if (anyOf !== undefined) {
    if (!Array.isArray(anyOf)) return `${at}'anyOf' must be an array.`;
    for (const [index, branch] of anyOf.entries()) {
      const problem = walk(branch, [...context, 'anyOf', index]);
      if (problem !== null) return problem;
    }
  }
  for (const defsKey of ['$defs', 'definitions'] as const) {
    const defs = schema[defsKey];
    if (!isObject(defs)) continue;
    for (const [name, def] of Object.entries(defs)) {
      const problem = walk(def, [...context, defsKey, name]);
      if (problem !== null) return problem;
    }
  }
  return null;
}

/** A context path as the server prints it: a Python tuple, `()`, `('items',)`, `('properties', 'op')`. */
export function pythonTuple(path: readonly (string | number)[]): string {
  const parts = path.map((part) => (typeof part === 'number' ? String(part) : `'${part}'`));
  if (parts.length === 1) return `(${parts[0]},)`;
  return `(${parts.join(', ')})`;
}
