import type { ReservationAction } from '../humanChange';
import type { JsonObject } from '../jsonObject';
import { checkSeedDeskParams, SEED_DESK_TOOL_NAME, type SeedDeskField, type SeedDeskOp, type SeedDeskParams } from './schema';

/**
 * The tool's own check, the second of three: the schema (one flat object, schema.ts) stops an
 * unknown op, a wrong type and an unknown key; this stops a field the op needs but did not get, or
 * got but does not take; then the domain judges the values (refusals with codes). It runs inside the
 * tool's code (planSeedDeskCall), so the real OMP runs it as the worker does. Its failure is
 * thrown, as the schema's is: a malformed call is not one of the desk's refusals (docs/decisions.md).
 */
// #region op-fields: the tool's own check: the fields each op needs or may add, and nothing else
export const SEED_DESK_OP_FIELDS: Readonly<Record<SeedDeskOp, { readonly needs: readonly SeedDeskField[]; readonly optional: readonly SeedDeskField[] }>> = {
  discover: { needs: [], optional: [] },
  query: { needs: [], optional: ['family'] },
  inspect: { needs: ['id'], optional: [] },
  act: { needs: ['action', 'id', 'packets', 'expectedRevision'], optional: [] },
};

/** "a", "a and b", "a, b and c". */
function listed(names: readonly string[]): string {
  return names.length <= 1 ? names.join('') : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`;
}

/** What the op takes, in words: the model reads this, so it names every field it may send. */
function takes(op: SeedDeskOp): string {
  const { needs, optional } = SEED_DESK_OP_FIELDS[op];
  if (needs.length === 0 && optional.length === 0) return `${op} takes no other field`;
  const parts = [...(needs.length > 0 ? [`needs ${listed(needs)}`] : []), ...(optional.length > 0 ? [`may add ${listed(optional)}`] : [])];
  return `${op} ${parts.join(' and ')}, nothing else`;
}

/**
 * The fields `args` lacks or has too many for `op`, as the text the model is sent, or null when
 * they fit. Own keys only; a key holding `undefined` counts as absent (JSON has no undefined).
 * Values are not judged here: a wrong id or count is the domain's refusal.
 */
export function opFieldsProblem(op: SeedDeskOp, args: JsonObject): string | null {
  const { needs, optional } = SEED_DESK_OP_FIELDS[op];
  const given = Object.keys(args).filter((key) => key !== 'op' && args[key] !== undefined);
  const missing = needs.filter((field) => !given.includes(field));
  const extra = given.filter((key) => !(needs as readonly string[]).includes(key) && !(optional as readonly string[]).includes(key));
  if (missing.length === 0 && extra.length === 0) return null;
  const faults = [...(missing.length > 0 ? [`is missing ${listed(missing)}`] : []), ...(extra.length > 0 ? [`does not take ${listed(extra)}`] : [])];
  return `${SEED_DESK_TOOL_NAME} ${op} ${faults.join(' and ')}: ${takes(op)}. Nothing was changed.`;
}
// #endregion

/** What passed both checks, typed per op. */
export type SeedDeskArgs =
  | { readonly op: 'discover' }
  | { readonly op: 'query'; readonly family?: string }
  | { readonly op: 'inspect'; readonly id: string }
  | { readonly op: 'act'; readonly action: ReservationAction; readonly id: string; readonly packets: number; readonly expectedRevision: string };

export type ArgsCheck =
  | { readonly ok: true; readonly args: SeedDeskArgs }
  | { readonly ok: false; readonly stage: 'schema'; readonly problems: readonly string[] }
  | { readonly ok: false; readonly stage: 'tool'; readonly message: string };

/** Both checks before the domain, for a caller that wants the typed arguments (tests; the tool itself runs opFieldsProblem in planSeedDeskCall). */
export function checkSeedDeskArgs(raw: unknown): ArgsCheck {
  const schema = checkSeedDeskParams(raw);
  if (!schema.ok) return { ok: false, stage: 'schema', problems: schema.problems };
  const problem = opFieldsProblem(schema.params.op, schema.params);
  if (problem !== null) return { ok: false, stage: 'tool', message: problem };
  return { ok: true, args: narrowed(schema.params) };
}

/** Safe once opFieldsProblem found nothing: every field the op needs is present, and no other. */
function narrowed(params: SeedDeskParams): SeedDeskArgs {
  return params as SeedDeskArgs;
}
