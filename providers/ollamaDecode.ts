import { isObject, type JsonObject } from './judgement';

/**
 * A tool's `parameters` decoded as Ollama's Go server decodes them, then encoded again: what the
 * model's chat template is given. Source: ollama/ollama `api/types.go` (Aug 2026):
 *
 *   type ToolFunctionParameters struct {
 *     Type string `json:"type"`; Defs any `json:"$defs,omitempty"`; Items any `json:"items,omitempty"`
 *     Required []string `json:"required,omitempty"`; Properties *ToolPropertiesMap `json:"properties"` }
 *   type ToolProperty struct {
 *     AnyOf []ToolProperty `json:"anyOf,omitempty"`; Type PropertyType `json:"type,omitempty"`
 *     Items any `json:"items,omitempty"`; Description string `json:"description,omitempty"`
 *     Enum []any `json:"enum,omitempty"`; Properties *ToolPropertiesMap `json:"properties,omitempty"`
 *     Required []string `json:"required,omitempty"` }
 *
 * Go's encoding/json drops every other key (oneOf, const, additionalProperties, …), matches keys
 * case-insensitively, and refuses a value of the wrong JSON type with an `UnmarshalTypeError`
 * ("json: cannot unmarshal string into Go struct field ToolFunctionParameters.tools.function.parameters.required of type []string"),
 * which the server answers with 400. `PropertyType` takes a string or an array of strings
 * (its own `UnmarshalJSON`; `null` becomes `[""]`). `properties` is an ordered map
 * (`internal/orderedmap`): its values are decoded one by one, each as a fresh `api.ToolProperty`.
 */

export class GoDecodeError extends Error {}

type Path = { readonly struct: string; readonly fields: readonly string[] };

function kind(value: unknown): string {
  if (Array.isArray(value)) return 'array';
  if (typeof value === 'boolean') return 'bool';
  return typeof value === 'object' ? 'object' : typeof value;
}

function typeError(value: unknown, at: Path, goType: string): GoDecodeError {
  if (at.fields.length === 0) return new GoDecodeError(`json: cannot unmarshal ${kind(value)} into Go value of type ${goType}`);
  return new GoDecodeError(`json: cannot unmarshal ${kind(value)} into Go struct field ${at.struct}.${at.fields.join('.')} of type ${goType}`);
}

/** The object's keys matched to a struct's JSON names as Go does: exact first, else case-insensitive; a later key wins. */
function fieldsOf(object: JsonObject, names: readonly string[]): Map<string, unknown> {
  const found = new Map<string, unknown>();
  for (const [key, value] of Object.entries(object)) {
    const name = names.find((each) => each === key) ?? names.find((each) => each.toLowerCase() === key.toLowerCase());
    if (name !== undefined) found.set(name, value);
  }
  return found;
}

function child(at: Path, field: string, struct = at.struct): Path {
  return { struct, fields: [...at.fields, field] };
}

function goString(value: unknown, at: Path): string {
  if (value === null || value === undefined) return '';
  if (typeof value !== 'string') throw typeError(value, at, 'string');
  return value;
}

function goStrings(value: unknown, at: Path): string[] | null {
  if (value === null || value === undefined) return null;
  if (!Array.isArray(value)) throw typeError(value, at, '[]string');
  return value.map((item) => goString(item, at));
}

/** `PropertyType.UnmarshalJSON`: a string, else an array of strings, each tried with a fresh `json.Unmarshal`. */
function propertyType(value: unknown): string[] {
  if (value === null || typeof value === 'string') return [value ?? ''];
  if (!Array.isArray(value)) throw typeError(value, { struct: '', fields: [] }, '[]string');
  return value.map((item) => goString(item, { struct: '', fields: [] }));
}

/** `ToolPropertiesMap.UnmarshalJSON`: an ordered map of `ToolProperty`; null leaves the pointer nil. */
function propertiesMap(value: unknown, at: Path): Record<string, unknown> | null {
  if (value === null || value === undefined) return null;
  if (!isObject(value)) throw typeError(value, at, 'api.ToolPropertiesMap');
  const decoded: Record<string, unknown> = {};
  for (const [name, property] of Object.entries(value)) decoded[name] = toolProperty(property, { struct: '', fields: [] });
  return decoded;
}

const PROPERTY_FIELDS = ['anyOf', 'type', 'items', 'description', 'enum', 'properties', 'required'] as const;

/** One `ToolProperty`, decoded and encoded again (fields in struct order, `omitempty` as tagged). */
function toolProperty(value: unknown, at: Path): Record<string, unknown> {
  if (value === null || value === undefined) return {};
  if (!isObject(value)) throw typeError(value, at, 'api.ToolProperty');
  const fields = fieldsOf(value, PROPERTY_FIELDS);
  const inside = (field: string) => child(at, field, 'ToolProperty');
  const out: Record<string, unknown> = {};
  const anyOf = fields.get('anyOf');
  if (anyOf !== undefined && anyOf !== null) {
    if (!Array.isArray(anyOf)) throw typeError(anyOf, inside('anyOf'), '[]api.ToolProperty');
    const branches = anyOf.map((branch) => toolProperty(branch, inside('anyOf')));
    if (branches.length > 0) out['anyOf'] = branches;
  }
  if (fields.has('type')) {
    const types = propertyType(fields.get('type'));
    if (types.length > 0) out['type'] = types.length === 1 ? types[0] : types;
  }
  const items = fields.get('items');
  if (items !== undefined && items !== null) out['items'] = items;
  const description = goString(fields.get('description'), inside('description'));
  if (description !== '') out['description'] = description;
  const enumValues = fields.get('enum');
  if (enumValues !== undefined && enumValues !== null) {
    if (!Array.isArray(enumValues)) throw typeError(enumValues, inside('enum'), '[]interface {}');
    if (enumValues.length > 0) out['enum'] = enumValues;
  }
  const properties = propertiesMap(fields.get('properties'), inside('properties'));
  if (properties !== null) out['properties'] = properties;
  const required = goStrings(fields.get('required'), inside('required'));
  if (required !== null && required.length > 0) out['required'] = required;
  return out;
}

const PARAMETER_FIELDS = ['type', '$defs', 'items', 'required', 'properties'] as const;

/**
 * `ToolFunctionParameters` decoded from `value` (at `at`: the field path from the request's root
 * struct) and encoded again. Throws `GoDecodeError` with the server's message where Go refuses.
 */
export function decodeParameters(value: unknown, at: Path): JsonObject {
  if (value !== null && value !== undefined && !isObject(value)) throw typeError(value, at, 'api.ToolFunctionParameters');
  const fields = isObject(value) ? fieldsOf(value, PARAMETER_FIELDS) : new Map<string, unknown>();
  const inside = (field: string) => child(at, field, 'ToolFunctionParameters');
  const out: Record<string, unknown> = { type: goString(fields.get('type'), inside('type')) };
  const defs = fields.get('$defs');
  if (defs !== undefined && defs !== null) out['$defs'] = defs;
  const items = fields.get('items');
  if (items !== undefined && items !== null) out['items'] = items;
  const required = goStrings(fields.get('required'), inside('required'));
  if (required !== null && required.length > 0) out['required'] = required;
  out['properties'] = propertiesMap(fields.get('properties'), inside('properties'));
  return out;
}

/** The `api.Tool` fields Ollama reads around the parameters: `type`, `function.name`, `function.description`. */
export function decodeTool(value: unknown, at: Path): { name: string; description: string; parameters: JsonObject } {
  if (value !== null && value !== undefined && !isObject(value)) throw typeError(value, at, 'api.Tool');
  const tool = isObject(value) ? fieldsOf(value, ['type', 'items', 'function']) : new Map<string, unknown>();
  goString(tool.get('type'), child(at, 'type', 'Tool'));
  const fnValue = tool.get('function');
  const fnAt = child(at, 'function', 'Tool');
  if (fnValue !== null && fnValue !== undefined && !isObject(fnValue)) throw typeError(fnValue, fnAt, 'api.ToolFunction');
  const fn = isObject(fnValue) ? fieldsOf(fnValue, ['name', 'description', 'parameters']) : new Map<string, unknown>();
  const inside = (field: string) => child(fnAt, field, 'ToolFunction');
  return {
    name: goString(fn.get('name'), inside('name')),
    description: goString(fn.get('description'), inside('description')),
    parameters: decodeParameters(fn.get('parameters'), inside('parameters')),
  };
}
