import { decideGrant, decideReservation } from '../desk';
import type { FixtureId } from '../fixture';
import { asSessionId, freshEntryId, seededIdSource, type IdSource } from '../ids';
import { sessionHeader, userMessageEntry } from '../journal/entry';
import { SessionJournal } from '../journal/journal';
import { reservedOf } from '../snapshot';
import { appendDeskSnapshot, type AgentRun } from './harness';

export interface Desk {
  readonly journal: SessionJournal;
  readonly ids: IdSource;
}

/** For the agent tests: a session with one user message and, when granted, the human's confirmed /seeds agent on. */
export function grantedDesk(options: { grant?: boolean; seed: number; message: string }): Desk {
  const ids = seededIdSource(options.seed);
  const journal = SessionJournal.empty(sessionHeader(asSessionId(ids.sessionId()), ids.now(), '/lab'));
  const id = freshEntryId(ids, (candidate) => journal.has(candidate));
  journal.append(userMessageEntry(options.message, { id, parentId: null, timestamp: ids.now() }));
  if (options.grant ?? true) {
    const decision = decideGrant(journal.state(), { enabled: true, expectedRevision: journal.revision() }, { interactive: true });
    if (!decision.ok) throw new Error(decision.refusal.message);
    appendDeskSnapshot(journal, ids, decision.snapshot);
  }
  return { journal, ids };
}

/** A confirmed human reservation on the current leaf. */
export function humanReserve({ journal, ids }: Desk, id: FixtureId, packets: number): void {
  const decision = decideReservation(
    journal.state(),
    { action: 'reserve', id, packets, expectedRevision: journal.revision(), actor: 'human' },
    { interactive: true },
  );
  if (!decision.ok) throw new Error(decision.refusal.message);
  appendDeskSnapshot(journal, ids, decision.snapshot);
}

/** Reserved packets of one variety on the journal's active branch (which must be valid). */
export function reservedOn(journal: SessionJournal, id: FixtureId): number {
  const state = journal.state();
  if (!state.ok) throw new Error('expected a valid branch');
  return reservedOf(state.snapshot, id);
}

/** The ops an agent called, in order. */
export const opsOf = (run: AgentRun) => run.transcript.map((step) => step.args['op']);

/** Each step's refusal code, or null where the step was not refused. */
export const codesOf = (run: AgentRun) => run.transcript.map((step) => (step.observation.details?.ok === false ? step.observation.details.code : null));
