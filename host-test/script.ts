/**
 * Action scripts for the differential: the same steps, as data, run against the playground's
 * worker host (Node) and inside the real host (Bun). Both sides record a trace in one shape;
 * `normalizeTrace` then replaces the things that must differ (session id, entry ids) with stable
 * names so the two traces can be compared for equality.
 */
import '../domain/zodSetup';
import * as z from 'zod/mini';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ApprovalModeSchema = z.enum(['always-ask', 'write', 'yolo']);
const PolicySchema = z.enum(['allow', 'prompt', 'deny']);

const ToolStepSchema = z.strictObject({
  /** Tool arguments; an `expectedRevision` of "$current" or "$previous" is filled in per host. */
  tool: z.record(z.string(), z.unknown()),
  /** The answer to the host's approval prompt, if one appears (default: approve). */
  approve: z.optional(z.boolean()),
});

export const StepSchema = z.union([
  z.strictObject({
    command: z.string(),
    /** The answer to the confirmation dialog (default: confirm). */
    confirm: z.optional(z.boolean()),
    /** A tool call that lands while the dialog is open. */
    meanwhile: z.optional(ToolStepSchema),
  }),
  ToolStepSchema,
  z.strictObject({ say: z.string() }),
  /** Remember the current leaf under a name. */
  z.strictObject({ mark: z.string() }),
  /** Move the leaf (in memory, as the host's branch()) to a remembered point. */
  z.strictObject({ leaf: z.string() }),
  /** Append an invalid snapshot (99 basil of 8) as a seed desk entry. */
  z.strictObject({ corrupt: z.literal(true) }),
  /** `policy` null: no `tools.approval.seed_desk` entry at all. */
  z.strictObject({ approval: z.strictObject({ mode: ApprovalModeSchema, policy: z.nullable(PolicySchema) }) }),
]);
export type Step = z.infer<typeof StepSchema>;
export type ToolStep = z.infer<typeof ToolStepSchema>;

export const ScriptSchema = z.strictObject({ name: z.string(), about: z.string(), steps: z.array(StepSchema) });
export type Script = z.infer<typeof ScriptSchema>;

export function loadScripts(): Script[] {
  const file = fileURLToPath(new URL('./scripts.json', import.meta.url));
  return z.array(ScriptSchema).parse(JSON.parse(readFileSync(file, 'utf8')));
}

export type Outcome =
  | { readonly kind: 'answer' | 'usage' | 'committed'; readonly text: string }
  | { readonly kind: 'refused'; readonly code: string; readonly text: string }
  | { readonly kind: 'cancelled' }
  | { readonly kind: 'tool'; readonly prompted: boolean; readonly isError: boolean; readonly text: string; readonly details: unknown }
  | { readonly kind: 'none' };

export interface DeskView {
  readonly revision: string;
  readonly ok: boolean;
  readonly agentEnabled: boolean | null;
  readonly quantities: unknown;
}

export interface StepTrace {
  readonly step: string;
  readonly outcome: Outcome;
  /** What the `meanwhile` tool call of a command step did while the dialog was open. */
  readonly meanwhile?: Outcome;
  readonly desk: DeskView;
  /** The `data` of every seed desk entry on the current branch, root to leaf. */
  readonly branchDesk: readonly unknown[];
}

export interface Trace {
  readonly script: string;
  readonly steps: StepTrace[];
}

/** Fill "$current"/"$previous" with this host's revisions. */
export function withRevision(args: Record<string, unknown>, current: string, previous: string): Record<string, unknown> {
  const value = args['expectedRevision'];
  if (value === '$current') return { ...args, expectedRevision: current };
  if (value === '$previous') return { ...args, expectedRevision: previous };
  return args;
}

/**
 * Replace this host's session id with SID and each seed desk entry id with desk#N (N counting
 * seed desk entries in file order), everywhere in the trace: revisions, texts and details.
 */
export function normalizeTrace(trace: Trace, sessionId: string, deskEntryIds: readonly string[]): Trace {
  // The session id first: an 8-character entry id could occur inside it, never the reverse.
  let json = JSON.stringify(trace).split(sessionId).join('SID');
  deskEntryIds.forEach((id, index) => {
    json = json.split(id).join(`desk#${index + 1}`);
  });
  return JSON.parse(json) as Trace;
}

export function describeStep(step: Step): string {
  return JSON.stringify(step);
}
