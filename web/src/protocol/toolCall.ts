import '$domain/zodSetup';
import * as z from 'zod/mini';
import { APPROVAL_DECISIONS, APPROVAL_MODES, APPROVAL_SOURCES, APPROVAL_TIERS } from '../../../extension/ompApi';
import { RefusalCodeSchema } from './outcomes';

/** A seed_desk call through the host's gates, and the approval vocabulary it reports with. */

export const ApprovalPolicySchema = z.enum(APPROVAL_DECISIONS);
/** The host's approval policy for `seed_desk`: what `tools.approval.seed_desk` says. */
export type ApprovalPolicy = z.infer<typeof ApprovalPolicySchema>;

/** The host's `tools.approvalMode`: the highest tier that runs without a prompt. */
export const ApprovalModeSchema = z.enum(APPROVAL_MODES);
export type ApprovalModeView = z.infer<typeof ApprovalModeSchema>;

/** How the host resolved approval for one call (`resolveApproval`'s answer). */
export const ApprovalResolutionSchema = z.object({
  policy: ApprovalPolicySchema,
  tier: z.enum(APPROVAL_TIERS),
  source: z.enum(APPROVAL_SOURCES),
});
export type ApprovalResolutionView = z.infer<typeof ApprovalResolutionSchema>;

/** `details` of a seed_desk result: what a host exposing structured details shows, beyond the text. */
export const ToolDetailsSchema = z.object({
  ok: z.boolean(),
  scope: z.enum(['discover', 'query', 'inspect', 'act', 'seed_desk']),
  revision: z.optional(z.string()),
  agentEnabled: z.optional(z.boolean()),
  code: z.optional(RefusalCodeSchema),
  data: z.optional(z.unknown()),
});
export type ToolDetailsView = z.infer<typeof ToolDetailsSchema>;

export const ToolCallOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('result'),
    callId: z.string(),
    /** Which gate answered: the host's schema check, the host's approval, or the domain. */
    stage: z.enum(['schema', 'approval', 'domain']),
    isError: z.boolean(),
    text: z.string(),
    details: z.nullable(ToolDetailsSchema),
    /** The host's approval resolution, when the call got past the schema check. */
    approval: z.optional(ApprovalResolutionSchema),
  }),
  z.object({ kind: z.literal('approval'), callId: z.string(), prompt: z.string(), approval: z.optional(ApprovalResolutionSchema) }),
  z.object({ kind: z.literal('failed'), text: z.string() }),
]);
export type ToolCallOutcome = z.infer<typeof ToolCallOutcomeSchema>;
