import { decideGrant } from '../desk';
import { asSessionId, freshEntryId, seededIdSource, type IdSource } from '../ids';
import { sessionHeader, userMessageEntry } from '../journal/entry';
import { SessionJournal } from '../journal/journal';
import { appendDeskSnapshot } from './harness';

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
