import '../zodSetup';
import * as z from 'zod/mini';
import { RESERVATION_ACTIONS } from '../humanChange';

export const SEED_DESK_TOOL_NAME = 'seed_desk';
/** Host approval tier, declared for every op: the tool mixes reads and writes. */
export const SEED_DESK_APPROVAL_TIER = 'write';

export const SEED_DESK_OPS = ['discover', 'query', 'inspect', 'act'] as const;
export type SeedDeskOp = (typeof SEED_DESK_OPS)[number];

/**
 * The tool's parameters as the host and the providers get them: ONE object, `op` a string enum,
 * every other field optional. Not a union by op: a root `oneOf` has no root `type: "object"`,
 * which OpenAI and LM Studio refuse, Ollama decodes to nothing and OMP folds into text for
 * Anthropic (issue 35; docs/decisions.md). Which fields an op needs is the tool's own check
 * (opFields.ts), run by the tool's code before the domain. Shape and types only here: values (is
 * the id a desk item, is the count a positive safe integer, is the revision current) are the
 * domain's, so a well-formed but wrong call reaches the domain and comes back as a named refusal.
 */
export const SeedDeskParamsSchema = z.strictObject({
  op: z.enum(SEED_DESK_OPS).check(
    z.describe('What to do: discover (what this tool offers), query (every item and the revision), inspect (one item by id), act (reserve or release packets).'),
  ),
  family: z.optional(z.string().check(z.describe('Optional, query only: list only the items of this exact family (basil, bean, marigold).'))),
  id: z.optional(z.string().check(z.describe('Needed by inspect and act: an exact item id from a query result.'))),
  action: z.optional(z.enum(RESERVATION_ACTIONS).check(z.describe('Needed by act: reserve or release.'))),
  packets: z.optional(z.number().check(z.describe('Needed by act: a positive whole number of packets.'))),
  expectedRevision: z.optional(z.string().check(z.describe('Needed by act: the revision your latest query or act returned, copied exactly.'))),
});

/** Arguments that passed the schema: any op with any of the fields (opFields.ts narrows them per op). */
export type SeedDeskParams = z.infer<typeof SeedDeskParamsSchema>;
export type SeedDeskField = Exclude<keyof SeedDeskParams, 'op'>;

export const SEED_DESK_TOOL_DESCRIPTION = [
  'Reserve and release fictional seed packets on the current branch of this conversation.',
  'Read before you write: query returns the availability and a revision; act must send that exact revision back as expectedRevision.',
  'act also needs the human to have run /seeds agent on in this branch. Send only the fields your op needs (each field says which op needs it).',
  'The text of each result is all you receive: it says whether the call worked, names the refusal if it was refused, and ends with the revision.',
  'A refused call changes nothing: read that text, then query again before deciding anything else.',
].join(' ');

export type ParamsCheck = { ok: true; params: SeedDeskParams } | { ok: false; problems: string[] };

/** The schema check alone (what the host's validator judges, without its repairs), each problem as `path: message`. */
export function checkSeedDeskParams(raw: unknown): ParamsCheck {
  const parsed = SeedDeskParamsSchema.safeParse(raw);
  if (parsed.success) return { ok: true, params: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`),
  };
}
