import { parseSeedsArgs, type SeedsCommand } from '../domain/command/parse';
import { corruptRefusal, decideHumanChange, type Decision } from '../domain/desk';
import { changeTitle, familyQuery, queryText } from '../domain/deskText';
import { isFixtureId } from '../domain/fixture';
import type { BranchState } from '../domain/reconstruct';
import { refusalText, type Refusal } from '../domain/refusal';
import { deskRow, deskRows } from '../domain/snapshot';
import { commitSnapshot, readDesk } from './deskState';
import type { ExtensionAPI, ExtensionContext } from './ompApi';
import type { SeedsChange, SeedsOutcome } from './outcome';

type Change = Extract<SeedsCommand, { kind: 'reservation' | 'grant' }>;

/**
 * `/seeds …`: answers and refusals reach the human through `notify`; a change needs `confirm`.
 * The handler also returns what happened as data (`SeedsOutcome`), which the real host ignores.
 */
export function seedsCommand(pi: ExtensionAPI) {
  return async (args: string, ctx: ExtensionContext): Promise<SeedsOutcome> => {
    const command = parseSeedsArgs(args);
    switch (command.kind) {
      case 'usage':
        ctx.ui.notify(command.message, 'warning');
        return { kind: 'usage' };
      case 'query': {
        const state = readDesk(ctx);
        if (!state.ok) return refuse(ctx, corruptRefusal(state), null);
        const answer = familyQuery(deskRows(state.snapshot), command.family, state.revision);
        ctx.ui.notify(answer.text, 'info');
        return { kind: 'answer', revision: state.revision, rows: answer.rows.map(({ id, available, reserved }) => ({ id, available, reserved })) };
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
async function change(pi: ExtensionAPI, ctx: ExtensionContext, command: Change): Promise<SeedsOutcome> {
  const before = readDesk(ctx);
  const judge = (state: BranchState): Decision => decideHumanChange(state, command, before.revision, { interactive: ctx.hasUI });
  const first = judge(before);
  const asked = describedChange(command);
  if (!first.ok) return refuse(ctx, first.refusal, asked);

  const confirmed = await ctx.ui.confirm(changeTitle(command), dialogMessage(command, before));
  if (!confirmed) {
    ctx.ui.notify(`Cancelled: nothing was changed. The revision is still ${before.revision}.`, 'info');
    return { kind: 'cancelled', change: asked, revision: before.revision };
  }
  // #region re-read-after-dialog: the dialog was an await; judge the branch as it is now
  // Anything may have happened while the dialog was open (another action, a move in the session
  // tree), so the branch is read again and judged against the revision the human saw.
  const second = judge(readDesk(ctx));
  if (!second.ok) return refuse(ctx, second.refusal, asked);
  // #endregion
  const after = commitSnapshot(pi, ctx, second.snapshot, command.kind === 'grant' ? `agent-${command.enabled ? 'on' : 'off'}` : command.action);
  ctx.ui.notify(after.ok ? queryText(deskRows(after.snapshot), after.revision) : after.revision, 'info');
  return { kind: 'committed', change: asked, revision: after.revision };
}

function refuse(ctx: ExtensionContext, refusal: Refusal, change: SeedsChange | null): SeedsOutcome {
  ctx.ui.notify(refusalText(refusal), 'warning');
  return { kind: 'refused', code: refusal.code, change };
}

/** The change as data, the count as it was typed when it is not a whole number (the domain refuses it). */
function describedChange(command: Change): SeedsChange {
  if (command.kind === 'grant') return { kind: 'grant', enabled: command.enabled };
  return { kind: 'reservation', action: command.action, id: command.id, packets: command.packets };
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
