import { asEntryId, asSessionId } from '$domain/ids';
import type { RefusalCode } from '$domain/refusal';
import { revisionOf } from '$domain/revision';
import type { HostView } from '../protocol/messages';
import { MEANWHILE_ITEM, type Playground } from './playground.svelte';

export interface Counts {
  readonly seedDeskEntries: number;
  readonly journalEntries: number;
}

export interface RefusalDemo {
  readonly code: RefusalCode;
  /** The refusal code actually met, or null when the attempt was not refused that way. */
  readonly met: RefusalCode | null;
  readonly attempts: readonly string[];
  readonly before: Counts;
  readonly after: Counts;
  /** Why the demo could not run from this state, or what else to know. */
  readonly note: string | null;
}

/**
 * The corrupt-state demo's entry: an invalid snapshot appended on purpose (with `validAfter`, a
 * valid one after it, the leaf on the valid one). Noted as a fact for the lesson's checks.
 */
export async function appendCorrupt(playground: Playground, validAfter: boolean): Promise<void> {
  const result = await playground.connection.call(validAfter ? { type: 'corruptDemo', then: 'valid' } : { type: 'corruptDemo' });
  if (result.kind !== 'failed') playground.facts.note({ kind: 'corrupted', validAfter });
  playground.command.print(result.kind === 'failed' ? 'failed' : 'info', result.text);
}

const counts = (view: HostView | null): Counts => ({ seedDeskEntries: view?.seedDeskEntryCount ?? 0, journalEntries: view?.entryCount ?? 0 });

/** An old revision of this session that cannot be the current one (built by the domain's own rule). */
function staleRevision(view: HostView): string {
  const sessionId = asSessionId(view.sessionId);
  const root = revisionOf(sessionId, null);
  return view.revision === root ? revisionOf(sessionId, asEntryId('0ld0ld00')) : root;
}

/**
 * Reproduces one refusal from the current state through the same paths a learner uses (tool
 * panel, command line, a dialog's commit), and records the counts before and after.
 */
export async function tryRefusal(playground: Playground, code: RefusalCode, validAfter = false): Promise<RefusalDemo> {
  const view = playground.view;
  let before = counts(view);
  const attempts: string[] = [];
  let met: RefusalCode | null = null;
  let note: string | null = null;
  // The code comes from the answer's data (the tool's details, the line's or the commit's outcome), never from its text.
  const record = (label: string, text: string, code: RefusalCode | null) => {
    attempts.push(`${label}\n${text}`);
    met = met ?? code;
  };
  const tool = async (args: Record<string, unknown>) => {
    const outcome = await playground.tool.call(JSON.stringify(args), false);
    const code = outcome.kind === 'result' ? (outcome.details?.code ?? null) : null;
    record(`seed_desk ${JSON.stringify(args)}`, outcome.kind === 'result' || outcome.kind === 'failed' ? outcome.text : 'waiting for host approval', code);
  };
  const line = async (text: string, headless = false) => {
    const outcome = await playground.command.probeLine(text, headless);
    const shown = outcome.kind === 'asked' ? 'Not refused: this would open a confirmation. Nothing was appended.' : outcome.text;
    record(`${headless ? '(headless) ' : ''}${text}`, shown, outcome.kind === 'refused' ? outcome.code : null);
  };
  if (!view) return { code, met, attempts, before, after: before, note: 'The journal is not open yet.' };
  const agentOn = view.agentEnabled;
  const rowOf = (id: string) => view.rows.find((row) => row.id === id);

  switch (code) {
    case 'agent-disabled':
      if (agentOn) note = 'The agent is on in this branch. Run /seeds agent off (and confirm) to see this refusal.';
      else await tool({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: view.revision });
      break;
    case 'stale-revision':
      if (agentOn) await tool({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: staleRevision(view) });
      else {
        // A human command reads the revision itself; the way a stale one reaches it is the race:
        // a dialog waits, another action lands, then Confirm is judged again.
        const opened = await playground.command.probeLine('/seeds reserve bean-scarlet 1');
        if (opened.kind !== 'asked' || opened.request.kind !== 'confirm') {
          record('/seeds reserve bean-scarlet 1', opened.text, opened.kind === 'refused' ? opened.code : null);
          break;
        }
        await playground.command.meanwhileReserve(MEANWHILE_ITEM, 1);
        // The other action's entry is the set-up; the counts cover the refused confirmation only.
        before = counts(playground.view);
        const outcome = await playground.command.answerProbe({ kind: 'confirm', id: opened.request.id, confirmed: true });
        record(`Confirm /seeds reserve bean-scarlet 1 after another action landed`, outcome.text, outcome.kind === 'refused' ? outcome.code : null);
      }
      break;
    case 'invalid-target':
      await tool({ op: 'inspect', id: 'Basil-Genovese' });
      break;
    case 'invalid-quantity':
      for (const packets of [0, -1, 1.5, 2 ** 53]) {
        if (agentOn) await tool({ op: 'act', action: 'reserve', id: 'basil-genovese', packets, expectedRevision: view.revision });
        else await line(`/seeds reserve basil-genovese ${packets}`);
      }
      break;
    case 'insufficient-availability':
      await line(`/seeds reserve marigold-french ${(rowOf('marigold-french')?.available ?? 3) + 1}`);
      break;
    case 'insufficient-reservation':
      await line(`/seeds release bean-scarlet ${(rowOf('bean-scarlet')?.reserved ?? 0) + 1}`);
      break;
    case 'corrupt-state':
      await appendCorrupt(playground, validAfter);
      // The demo's own entries are the set-up; the counts cover the refused call only.
      before = counts(playground.view);
      await line('/seeds query');
      note = validAfter
        ? 'This branch ends with a valid snapshot, but an invalid one sits before it, and the desk reads every one. Use "Step back past the invalid entry" twice (or navigate to an earlier entry) to leave it.'
        : 'This branch now holds an invalid snapshot. Use "Step back past the invalid entry" (or navigate to an earlier entry) to leave it.';
      break;
    case 'ui-required':
      await line('/seeds reserve basil-genovese 1', true);
      break;
  }
  return { code, met, attempts, before, after: counts(playground.view), note };
}
