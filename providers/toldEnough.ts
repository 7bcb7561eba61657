import { isObject, type JsonObject, type ToolAsTold } from './judgement';

/**
 * Whether a model was told enough to call `seed_desk`: every op, and every field `act` needs.
 * The names are the tool's published contract (domain/tool/schema.ts, which this folder does not
 * import: it judges bodies, whoever built them). A union told in full counts too (each branch's
 * `op` and the `act` branch's fields), since a model that reads it knows the same.
 */
export const SEED_DESK_OP_NAMES = ['discover', 'query', 'inspect', 'act'] as const;
export const SEED_DESK_ACT_FIELDS = ['action', 'id', 'packets', 'expectedRevision'] as const;

/** The op values a schema (or a union branch) states: its `op` property's `enum` or `const`. */
function opsOf(schema: JsonObject): unknown[] {
  const properties = schema['properties'];
  const op = isObject(properties) ? properties['op'] : undefined;
  if (!isObject(op)) return [];
  if (Array.isArray(op['enum'])) return op['enum'];
  return 'const' in op ? [op['const']] : [];
}

function propertyNames(schema: JsonObject): string[] {
  const properties = schema['properties'];
  return isObject(properties) ? Object.keys(properties) : [];
}

/** What is missing for a model to call seed_desk: [] when the op enum and act's fields survive. */
export function seedDeskToldEnough(tool: ToolAsTold): string[] {
  const root = tool.parameters;
  if (!isObject(root)) return ['parameters: not a JSON Schema object', ...SEED_DESK_OP_NAMES.map((op) => `op "${op}"`), ...SEED_DESK_ACT_FIELDS.map((field) => `act's field "${field}"`)];
  const branches = [root, ...(['oneOf', 'anyOf'] as const).flatMap((key) => (Array.isArray(root[key]) ? root[key].filter(isObject) : []))];
  const ops = new Set(branches.flatMap(opsOf));
  const actFields = new Set(branches.filter((branch) => branch === root || opsOf(branch).includes('act')).flatMap(propertyNames));
  return [
    ...SEED_DESK_OP_NAMES.filter((op) => !ops.has(op)).map((op) => `op "${op}"`),
    ...SEED_DESK_ACT_FIELDS.filter((field) => !actFields.has(field)).map((field) => `act's field "${field}"`),
  ];
}
