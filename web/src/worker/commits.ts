import { decideHumanChange } from '$domain/desk';
import { queryText } from '$domain/deskText';
import type { Revision } from '$domain/ids';
import { customEntry } from '$domain/journal/entry';
import type { Refusal } from '$domain/refusal';
import { deskRows, SEED_DESK_CUSTOM_TYPE } from '$domain/snapshot';
import type { CommitOutcomeView, DeskChange } from '../protocol/messages';
import type { HostCore } from './hostCore';

/**
 * Human changes after their dialog: committed with the revision read BEFORE the dialog opened;
 * the store checks it again against the stored branch head in the same transaction.
 */
export function commitHumanChange(core: HostCore, change: DeskChange, expectedRevision: Revision): Promise<CommitOutcomeView> {
  return commitDesk(core, change, expectedRevision, change.kind === 'grant' ? `agent-${change.enabled ? 'on' : 'off'}` : change.action);
}

/** The race demo: another, already-confirmed action lands while a dialog waits. */
export function meanwhileReserve(core: HostCore, id: string, packets: number): Promise<CommitOutcomeView> {
  return commitDesk(core, { kind: 'reservation', action: 'reserve', id, packets }, core.journal.revision(), 'meanwhile-reserve');
}

async function commitDesk(core: HostCore, change: DeskChange, expectedRevision: Revision, reason: string): Promise<CommitOutcomeView> {
  const blocked = core.blockedOutcome();
  if (blocked) return { kind: 'failed', message: blocked.text };
  const leafId = core.journal.leafId;
  const outcome = await core.commitSnapshot<Refusal>(
    leafId,
    core.journal.state(leafId),
    (state) => {
      const decision = decideHumanChange(state, change, expectedRevision, { interactive: core.interactive });
      return decision.ok ? { snapshot: decision.snapshot } : { reason: decision.refusal };
    },
    reason,
  );
  if (outcome.kind === 'failed') return { kind: 'failed', message: outcome.text };
  if (outcome.kind === 'declined') {
    const refused = core.refused(outcome.reason);
    return { kind: 'refused', code: outcome.reason.code, message: refused.text };
  }
  core.notice = null;
  const { state } = outcome;
  return { kind: 'committed', revision: state.revision, message: state.ok ? queryText(deskRows(state.snapshot), state.revision) : state.revision };
}

/** Demo only, clearly labelled in the UI: appends a snapshot that breaks the format. */
export async function appendCorruptSnapshot(core: HostCore): Promise<CommitOutcomeView> {
  const blocked = core.blockedOutcome();
  if (blocked) return { kind: 'failed', message: blocked.text };
  const entry = customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: false, quantities: { 'basil-genovese': 99 } }, core.place());
  if (!(await core.appendConversation(entry))) return { kind: 'failed', message: core.writeFailureText() };
  const state = core.journal.state();
  core.emitChanged('demo-corrupt', state);
  return { kind: 'committed', revision: state.revision, message: `Appended an invalid snapshot (${entry.id}): 99 basil of 8. This branch now refuses everything with corrupt-state; step back to leave it.` };
}
