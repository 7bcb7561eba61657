import { seedDeskJsonSchema } from '../domain/tool/jsonSchema';
import { SEED_DESK_APPROVAL_TIER, SEED_DESK_TOOL_DESCRIPTION, SEED_DESK_TOOL_NAME } from '../domain/tool/schema';
import { planSeedDeskCall, type ToolDetails, type ToolResult } from '../domain/tool/seedDeskTool';
import { commitSnapshot, readDesk } from './deskState';
import type { AgentToolResult, ExtensionAPI, ToolDefinition } from './ompApi';

/**
 * The `seed_desk` tool: the playground's schema (one flat object, as JSON Schema, wrapped by the
 * host's TypeBox shim so the host validates calls against exactly it) and the playground's planner,
 * which starts with the tool's own check of the op's fields (domain/tool/opFields.ts). A refusal is
 * a normal result with `details.ok` false; a malformed call (no known op, a field the op needs or
 * does not take) throws, which the host turns into an error result with the message as its text.
 */
export function seedDeskTool(pi: ExtensionAPI): ToolDefinition<ToolDetails> {
  return {
    name: SEED_DESK_TOOL_NAME,
    label: 'Seed desk',
    description: SEED_DESK_TOOL_DESCRIPTION,
    // Unsafe copies the document it is given, so the shared schema object stays untouched.
    parameters: pi.typebox.Type.Unsafe(seedDeskJsonSchema),
    // #region tool-approval: the host's gate, declared once for every operation
    approval: SEED_DESK_APPROVAL_TIER,
    // #endregion
    async execute(_toolCallId, params, _signal, _onUpdate, ctx) {
      const plan = planSeedDeskCall(params, readDesk(ctx));
      if (plan.kind === 'error') throw new Error(plan.message);
      // #region refusals-as-values: a refusal is an ordinary result with details.ok false
      if (plan.kind === 'answer') {
        if (!plan.result.details.ok) ctx.ui.notify(plan.result.content[0].text, 'warning');
        return toHost(plan.result);
      }
      // #endregion
      // Nothing awaits between the read above and this append, so no other change can land in between.
      const after = commitSnapshot(pi, ctx, plan.snapshot, 'agent-act');
      return toHost(plan.describe(after.revision));
    },
  };
}

function toHost(result: ToolResult): AgentToolResult<ToolDetails> {
  return { content: result.content.map((part) => ({ type: part.type, text: part.text })), details: result.details };
}
