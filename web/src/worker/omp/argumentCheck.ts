/**
 * The host's check of a tool call's arguments against the tool's own JSON Schema, before the
 * tool's code runs, with the repairs OMP 18.2.3 makes on the way (pi-ai `validateToolArguments`,
 * measured in host-test): a root JSON string is parsed; an optional field that is null or "null"
 * is dropped; whitespace around an enum or const string is trimmed; a value of the wrong type is
 * coerced where it can be (a numeric string or a boolean to a number, a scalar to a string, an
 * object or array to a JSON string); a key the schema does not allow is dropped. Only what still
 * fails after that is an error. The keywords covered are those a tool schema uses here: type,
 * properties, required, additionalProperties, enum, const, oneOf/anyOf. Generic: it knows no tool.
 */

export type JsonSchema = { readonly [key: string]: unknown };

export type ArgumentCheck =
  | { readonly ok: true; readonly args: unknown }
  | { readonly ok: false; readonly message: string };

/**
 * How far a repair goes: the host's first pass only normalizes (trims constants, drops optional
 * nulls, reads a numeric string where a number is due) and keeps that only when the result is
 * valid as it stands; otherwise it repairs by type (every coercion, undeclared keys dropped), still
 * trimming constants outside a union but not inside one, where the host trims only toward an
 * alternative that already accepts the value. Measured in test:host: through the old union by op,
 * `" release "` with `packets: "2"` passed and with `true` did not; through one flat object both pass.
 */
interface Repairs {
  readonly trim: boolean | 'outside-union';
  readonly coerce: boolean;
}
const NORMALIZE: Repairs = { trim: true, coerce: false };
const COERCE: Repairs = { trim: 'outside-union', coerce: true };

export function checkArguments(toolName: string, schema: JsonSchema, raw: unknown): ArgumentCheck {
  const root = typeof raw === 'string' ? parsedOr(raw) : raw;
  const normalizedOnly = repair(schema, root, NORMALIZE);
  if (issues(schema, normalizedOnly, '').length === 0) return { ok: true, args: normalizedOnly };
  const normalized = repair(schema, root, COERCE);
  const problems = issues(schema, normalized, '');
  if (problems.length === 0) return { ok: true, args: normalized };
  const received = json(normalized) !== json(raw) ? { original: raw, normalized } : raw;
  return {
    ok: false,
    message: `Validation failed for tool "${toolName}":\n  - root: must be ${problems.join('; ')} (was ${describe(normalized)})\n\nReceived arguments:\n${json(truncated(received), 2)}`,
  };
}

/**
 * The alternative a value is judged by, as the host's union does it: the first one whose
 * constants and enums the value matches (its other problems are then the value's problems); when
 * the value matches no alternative's constants, the union cannot tell, and reports the first one.
 */
function chosen(alternatives: readonly JsonSchema[], value: unknown, trim = false): JsonSchema | undefined {
  return alternatives.find((alternative) => literalsMatch(alternative, value, trim)) ?? alternatives[0];
}

function literalsMatch(schema: JsonSchema, value: unknown, trim: boolean): boolean {
  if (!isObject(value)) return true;
  return Object.entries(propertiesOf(schema)).every(([key, child]) => {
    if (!Object.hasOwn(value, key)) return true;
    const given = trim && typeof value[key] === 'string' ? (value[key] as string).trim() : value[key];
    if ('const' in child && given !== child['const']) return false;
    const choices = child['enum'];
    return !Array.isArray(choices) || choices.includes(given);
  });
}

/** The value repaired toward `schema` (a new value; the caller's arguments stay as they were). */
function repair(schema: JsonSchema, value: unknown, how: Repairs): unknown {
  const alternatives = alternativesOf(schema);
  if (alternatives) {
    if (how.trim === 'outside-union') how = { ...how, trim: false };
    const trim = how.trim === true;
    const passing = alternatives.map((alternative) => repair(alternative, value, how)).find((candidate, index) => issues(alternatives[index] as JsonSchema, candidate, '').length === 0);
    if (passing !== undefined) return passing;
    // No alternative accepts it: repaired toward the one the union judges it by, if its constants match.
    const judge = chosen(alternatives, value, trim);
    return judge && literalsMatch(judge, value, trim) ? repair(judge, value, how) : value;
  }
  const type = schema['type'];
  if (type === 'object' && isObject(value)) {
    const properties = propertiesOf(schema);
    const required = new Set(requiredOf(schema));
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) {
      const childSchema = Object.hasOwn(properties, key) ? properties[key] : undefined;
      if (!childSchema) {
        // Kept as an own property (never through `out[key] =`, which would make `__proto__` a prototype).
        if (!how.coerce || schema['additionalProperties'] !== false) Object.defineProperty(out, key, { value: child, enumerable: true, writable: true, configurable: true });
        continue;
      }
      if (!required.has(key) && (child === null || child === 'null')) continue;
      out[key] = repair(childSchema, child, how);
    }
    return out;
  }
  let scalar = value;
  if (how.trim !== false && typeof scalar === 'string' && ('const' in schema || Array.isArray(schema['enum']))) scalar = scalar.trim();
  if (typeof type !== 'string' || hasType(type, scalar)) return scalar;
  if (how.coerce) return coerce(type, scalar);
  return (type === 'number' || type === 'integer') && typeof scalar === 'string' ? coerce(type, scalar) : scalar;
}

function coerce(type: string, value: unknown): unknown {
  if (type === 'number' || type === 'integer') {
    if (typeof value === 'boolean') return value ? 1 : 0;
    if (typeof value === 'string' && value.trim() !== '' && Number.isFinite(Number(value))) return Number(value);
  }
  if (type === 'string') {
    if (typeof value === 'number' || typeof value === 'boolean' || typeof value === 'bigint') return String(value);
    if (typeof value === 'object' && value !== null) return json(value);
  }
  return value;
}

/** What is still wrong with `value`, as `path: problem` lines ("" when nothing is). */
function issues(schema: JsonSchema, value: unknown, path: string): string[] {
  const alternatives = alternativesOf(schema);
  if (alternatives) {
    if (alternatives.some((alternative) => issues(alternative, value, path).length === 0)) return [];
    const judge = chosen(alternatives, value);
    return judge ? issues(judge, value, path) : [];
  }
  const type = schema['type'];
  if (typeof type === 'string' && !hasType(type, value)) return [`${at(path)}expected ${type}, received ${kindOf(value)}`];
  if ('const' in schema && value !== schema['const']) return [`${at(path)}must equal const value`];
  const choices = schema['enum'];
  if (Array.isArray(choices) && !choices.includes(value)) return [`${at(path)}must be one of the allowed enum values`];
  if (type !== 'object' || !isObject(value)) return [];
  // In the host's order (measured in test:host): the declared properties in the schema's order, each
  // "is required" when absent and required; then undeclared keys in the value's order.
  const problems: string[] = [];
  const properties = propertiesOf(schema);
  const required = requiredOf(schema);
  for (const [key, childSchema] of Object.entries(properties)) {
    if (Object.hasOwn(value, key)) problems.push(...issues(childSchema, value[key], `${path}${key}.`));
    else if (required.includes(key)) problems.push(`${at(`${path}${key}.`)}is required`);
  }
  for (const key of required) if (!Object.hasOwn(properties, key) && !Object.hasOwn(value, key)) problems.push(`${at(`${path}${key}.`)}is required`);
  if (schema['additionalProperties'] === false) {
    for (const key of Object.keys(value)) if (!Object.hasOwn(properties, key)) problems.push(`${at(`${path}${key}.`)}must not be present`);
  }
  return problems;
}

const alternativesOf = (schema: JsonSchema) => (schema['oneOf'] ?? schema['anyOf']) as readonly JsonSchema[] | undefined;
const propertiesOf = (schema: JsonSchema) => (schema['properties'] ?? {}) as Readonly<Record<string, JsonSchema>>;
const requiredOf = (schema: JsonSchema) => (schema['required'] ?? []) as readonly string[];
const at = (path: string) => (path === '' ? '' : `${path.slice(0, -1)}: `);

function hasType(type: string, value: unknown): boolean {
  switch (type) {
    case 'object':
      return isObject(value);
    case 'array':
      return Array.isArray(value);
    case 'integer':
      return typeof value === 'number' && Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'null':
      return value === null;
    default:
      return typeof value === type;
  }
}

/** Strings in "Received arguments" are cut at 256 characters, as the host's error does. */
function truncated(value: unknown): unknown {
  if (typeof value === 'string') return value.length > 256 ? `${value.slice(0, 256)}… [truncated ${value.length - 256} chars]` : value;
  if (Array.isArray(value)) return value.map(truncated);
  if (isObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [key, child] of Object.entries(value)) Object.defineProperty(out, key, { value: truncated(child), enumerable: true, writable: true, configurable: true });
    return out;
  }
  return value;
}

function kindOf(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function parsedOr(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

function describe(value: unknown): string {
  if (Array.isArray(value)) return 'an array';
  return json(value);
}

/** Arguments may be anything (a BigInt, a cycle): describing them must not throw. */
function json(value: unknown, space?: number): string {
  try {
    return JSON.stringify(value, null, space) ?? String(value);
  } catch {
    return `(a value that cannot be shown as JSON: ${typeof value})`;
  }
}
