import { parseSeedsArgs, type SeedsCommand } from '../domain/command/parse';
import { corruptRefusal, decideHumanChange, type Decision } from '../domain/desk';
import { changeTitle, familyQuery, queryText } from '../domain/deskText';
import { isFixtureId } from '../domain/fixture';
import type { BranchState } from '../domain/reconstruct';
import { refusalText, type Refusal } from '../domain/refusal';
import { deskRow, deskRows } from '../domain/snapshot';
import { commitSnapshot, readDesk } from './deskState';
import type { ExtensionAPI, ExtensionContext } from './host';

type Change = Extract<SeedsCommand, { kind: 'reservation' | 'grant' }>;

/** `/seeds …`: answers and refusals reach the human through `notify`; a change needs `confirm`. */
export function seedsCommand(pi: ExtensionAPI) {
  return async (args: string, ctx: ExtensionContext): Promise<void> => {
    const command = parseSeedsArgs(args);
    switch (command.kind) {
      case 'usage':
        ctx.ui.notify(command.message, 'warning');
        return;
      case 'query': {
        const state = readDesk(ctx);
        if (!state.ok) return refuse(ctx, corruptRefusal(state));
        ctx.ui.notify(familyQuery(deskRows(state.snapshot), command.family, state.revision).text, 'info');
        return;
      }
      case 'reservation':
      case 'grant':
        return change(pi, ctx, command);
    }
  };
}

/**
 * Judge on the branch as it is, ask, then judge again on the branch as it is NOW, still against
 * the revision the human saw: anything appended while the dialog was open (another action, a
 * tree move) makes the second judgement a stale-revision refusal instead of a blind append.
 */
async function change(pi: ExtensionAPI, ctx: ExtensionContext, command: Change): Promise<void> {
  const before = readDesk(ctx);
  const judge = (state: BranchState): Decision => decideHumanChange(state, command, before.revision, { interactive: ctx.hasUI });
  const first = judge(before);
  if (!first.ok) return refuse(ctx, first.refusal);

  const confirmed = await ctx.ui.confirm(changeTitle(command), dialogMessage(command, before));
  if (!confirmed) {
    ctx.ui.notify(`Cancelled: nothing was changed. The revision is still ${before.revision}.`, 'info');
    return;
  }
  const second = judge(readDesk(ctx));
  if (!second.ok) return refuse(ctx, second.refusal);
  const after = commitSnapshot(pi, ctx, second.snapshot, command.kind === 'grant' ? `agent-${command.enabled ? 'on' : 'off'}` : command.action);
  ctx.ui.notify(after.ok ? queryText(deskRows(after.snapshot), after.revision) : after.revision, 'info');
}

function refuse(ctx: ExtensionContext, refusal: Refusal): void {
  ctx.ui.notify(refusalText(refusal), 'warning');
}

/** Only called once the first judgement passed: the id is a desk item and the count a whole number. */
function dialogMessage(command: Change, state: BranchState): string {
  if (command.kind === 'grant') {
    return command.enabled
      ? 'The agent may then reserve and release fictional seed packets on this branch through seed_desk act, and nothing else. /seeds agent off switches it off again.'
      : 'The agent will no longer be able to reserve or release packets on this branch.';
  }
  if (!state.ok || !isFixtureId(command.id)) return `Decided on revision ${state.revision}.`;
  const row = deskRow(state.snapshot, command.id);
  return `This branch holds ${row.reserved} of ${row.packets} ${row.id} packets (${row.available} available). Decided on revision ${state.revision}.`;
}
