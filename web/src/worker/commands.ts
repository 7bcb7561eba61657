import { parseSeedsArgs, splitSlashCommand, type SeedsCommand } from '$domain/command/parse';
import { corruptRefusal, decideHumanChange, decideReservation } from '$domain/desk';
import { changeTitle, familyQuery } from '$domain/deskText';
import { userMessageEntry } from '$domain/journal/entry';
import type { BranchState } from '$domain/reconstruct';
import { deskRows } from '$domain/snapshot';
import type { DeskChange, LineOutcome } from '../protocol/messages';
import type { HostCore } from './hostCore';

/**
 * The command line: a plain message is appended to the conversation; `/seeds` is the seed desk
 * extension's command. A change is only judged and described here — it is committed after the
 * learner confirms it (commits.ts), on the revision read now.
 */
export async function runLine(core: HostCore, line: string, headless = false): Promise<LineOutcome> {
  if (headless) {
    // This one line runs as a host without UI would (the Refusals view's ui-required demo).
    const interactive = core.interactive;
    core.interactive = false;
    try {
      return await runLine(core, line);
    } finally {
      core.interactive = interactive;
    }
  }
  const text = line.trim();
  if (text.length === 0) return { kind: 'usage', text: 'Type a message, or a command such as /seeds query.' };
  const slash = splitSlashCommand(text);
  if (!slash) return say(core, text);
  if (slash.name !== 'seeds') return { kind: 'usage', text: `Unknown command /${slash.name}. The playground knows /seeds (try /seeds query).` };
  return seeds(core, parseSeedsArgs(slash.args));
}

async function say(core: HostCore, text: string): Promise<LineOutcome> {
  // A model replays toolCall/toolResult as a pair: no user message may come between them.
  if (core.pendingApproval) return { kind: 'usage', text: 'A seed_desk call is waiting for host approval: approve or deny it first, then write your message.' };
  const blocked = core.blockedOutcome();
  if (blocked) return blocked;
  const entry = userMessageEntry(text, core.place());
  if (!(await core.appendConversation(entry))) return { kind: 'failed', text: core.writeFailureText() };
  return { kind: 'said', text: `Added your message as entry ${entry.id}. The revision stays ${core.journal.revision()}.` };
}

function seeds(core: HostCore, command: SeedsCommand): LineOutcome {
  const state = core.journal.state();
  switch (command.kind) {
    case 'usage':
      return { kind: 'usage', text: command.message };
    case 'query':
      return query(core, state, command.family);
    case 'reservation': {
      // Judged once here, from the raw count: only a valid request becomes a change a dialog shows.
      const request = { action: command.action, id: command.id, packets: command.packets, expectedRevision: state.revision, actor: 'human' } as const;
      const decision = decideReservation(state, request, { interactive: core.interactive });
      if (!decision.ok) return core.refused(decision.refusal);
      return confirmation({ kind: 'reservation', action: command.action, id: command.id, packets: Number(command.packets) }, state);
    }
    case 'grant': {
      const change: DeskChange = { kind: 'grant', enabled: command.enabled };
      const decision = decideHumanChange(state, change, state.revision, { interactive: core.interactive });
      return decision.ok ? confirmation(change, state) : core.refused(decision.refusal);
    }
  }
}

function query(core: HostCore, state: BranchState, family: string | undefined): LineOutcome {
  if (!state.ok) return core.refused(corruptRefusal(state));
  const answer = familyQuery(deskRows(state.snapshot), family, state.revision);
  const rows = answer.rows.map((row) => ({ id: row.id, available: row.available, reserved: row.reserved }));
  return { kind: 'answer', text: answer.text, query: { revision: state.revision, rows } };
}

function confirmation(change: DeskChange, state: BranchState): LineOutcome {
  return { kind: 'confirm', change, revision: state.revision, title: changeTitle(change), message: describeChange(change, state) };
}

function describeChange(change: DeskChange, state: BranchState): string {
  if (change.kind === 'grant') {
    return change.enabled
      ? 'The agent may then reserve and release fictional seed packets on this branch through seed_desk act, and nothing else. You can switch it off again with /seeds agent off.'
      : 'The agent will no longer be able to reserve or release packets on this branch; its act calls will be refused with agent-disabled.';
  }
  const row = state.ok ? deskRows(state.snapshot).find((candidate) => candidate.id === change.id) : undefined;
  const before = row ? `${row.reserved} reserved, ${row.available} available` : '';
  const delta = change.action === 'reserve' ? change.packets : -change.packets;
  const after = row ? `${row.reserved + delta} reserved, ${row.available - delta} available` : '';
  return `${capitalize(change.action)} ${change.packets} ${change.id} on this branch: ${before} now, ${after} after. Decided on revision ${state.revision}.`;
}

const capitalize = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);
