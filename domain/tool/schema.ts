import '../zodSetup';
import * as z from 'zod/mini';
import { RESERVATION_ACTIONS } from '../humanChange';

export const SEED_DESK_TOOL_NAME = 'seed_desk';
/** Host approval tier, declared for every op: the tool mixes reads and writes. */
export const SEED_DESK_APPROVAL_TIER = 'write';

/**
 * The host-side argument schema: it checks shape and types only. Values (is the id a desk item,
 * is the count a positive safe integer, is the revision current) are the domain's to judge, so a
 * well-formed but wrong call reaches the domain and comes back as a named refusal.
 */
export const SeedDeskArgsSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('discover').check(z.describe('Explain the operations, what act needs, and the current revision.')) }),
  z.strictObject({
    op: z.literal('query').check(z.describe('List every item with its available and reserved packets, and the revision.')),
    family: z.optional(z.string().check(z.describe('Only items of this exact family (basil, bean, marigold).'))),
  }),
  z.strictObject({
    op: z.literal('inspect').check(z.describe('Show one item by its exact id.')),
    id: z.string().check(z.describe('An exact item id from a query result.')),
  }),
  z.strictObject({
    op: z.literal('act').check(z.describe('Reserve or release packets; needs the human grant and the latest revision.')),
    action: z.enum(RESERVATION_ACTIONS),
    id: z.string().check(z.describe('An exact item id from a query result.')),
    packets: z.number().check(z.describe('A positive whole number of packets.')),
    expectedRevision: z.string().check(z.describe('The revision returned by your latest query or act, copied exactly.')),
  }),
]);

export type SeedDeskArgs = z.infer<typeof SeedDeskArgsSchema>;
export type SeedDeskOp = SeedDeskArgs['op'];
export const SEED_DESK_OPS: readonly SeedDeskOp[] = ['discover', 'query', 'inspect', 'act'];


export const SEED_DESK_TOOL_DESCRIPTION = [
  'Reserve and release fictional seed packets on the current branch of this conversation.',
  'Read before you write: query returns the availability and a revision; act must send that exact revision back as expectedRevision.',
  'act also needs the human to have run /seeds agent on in this branch. A refused call changes nothing: read details.ok and details.code, then query again before deciding anything else.',
].join(' ');

export type ArgsCheck = { ok: true; args: SeedDeskArgs } | { ok: false; problems: string[] };

/** The host's schema check, with each problem as `path: message` for the learner. */
export function checkSeedDeskArgs(raw: unknown): ArgsCheck {
  const parsed = SeedDeskArgsSchema.safeParse(raw);
  if (parsed.success) return { ok: true, args: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => `${issue.path.length > 0 ? issue.path.join('.') : '(arguments)'}: ${issue.message}`),
  };
}
