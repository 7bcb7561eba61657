import type { LineOutcome, RunEndKind, SessionChange } from '../protocol/messages';
import type { Fact } from './facts';

/** Where an outcome came from: a typed line, or the answer to what the extension asked. */
export type OutcomeVia = 'line' | 'answer';

type FactsOf<K extends RunEndKind> = (outcome: Extract<LineOutcome, { kind: K }>, via: OutcomeVia, typed: string) => Fact[];

/**
 * The goal facts one outcome gives: what the page notes, and what the simulated page in the unit
 * tests notes, from this one table. Declared for every kind of run end, so a new kind without an
 * entry does not compile. The counts and the extension come with the outcome (the worker's), not
 * from the page's desk.
 */
const FACTS_OF: { readonly [K in RunEndKind]: FactsOf<K> } = {
  answer: (outcome) => [{ kind: 'answer', text: outcome.text, query: outcome.query }],
  // The message as the learner typed it (trimmed), which is what the conversation shows.
  said: (_, via, typed) => (via === 'line' ? [{ kind: 'said', text: typed }] : []),
  usage: () => [],
  refused: (outcome, via) => [{ kind: 'refused', code: outcome.code, via: via === 'line' ? 'line' : 'dialog', change: outcome.change, deskEntries: outcome.deskEntries }],
  // A write the store refused after a dialog's answer: the storage lesson's fact.
  failed: (outcome, via) => (via === 'answer' ? [{ kind: 'storage-failed', text: outcome.text }] : []),
  asked: (outcome) => (outcome.request.kind === 'confirm' ? [{ kind: 'dialog-opened', title: outcome.request.title }] : []),
  cancelled: (outcome, via) => (via === 'answer' ? [{ kind: 'cancelled', change: outcome.change }] : []),
  committed: (outcome, via) => (via === 'answer' ? [{ kind: 'committed', change: outcome.change, via: 'dialog' }] : []),
  notice: (outcome) => sessionChangeFacts(outcome.sessionChange),
  // After an answer, an extension error is how a latched store shows (its appendEntry throws): the
  // dialog ends `failed`, and the storage lesson counts it as a failed write, as it always has.
  error: (outcome, via) => (via === 'answer' ? [{ kind: 'storage-failed', text: outcome.text }] : []),
};

/** A session change an extension's before-event took part in, once made: the fact the page notes for a change made at once. */
function sessionChangeFacts(change: SessionChange | undefined): Fact[] {
  switch (change?.did) {
    case 'new-session':
      return [{ kind: 'new-session' }];
    case 'forked':
      return [{ kind: 'forked' }];
    case 'moved':
      return [{ kind: 'navigated', entryId: change.leafId }];
    default:
      return [];
  }
}

export function factsOfOutcome(outcome: LineOutcome, via: OutcomeVia, typed = ''): Fact[] {
  // TypeScript cannot correlate the table's entry with the outcome across the union; the table's type does.
  const factsOf = FACTS_OF[outcome.kind] as FactsOf<RunEndKind>;
  const facts = factsOf(outcome as Extract<LineOutcome, { kind: RunEndKind }>, via, typed);
  // The learner's own extension (issue 37): whatever the run came to, what it said beside its custom entries.
  return outcome.custom ? [...facts, { kind: 'own-line', text: outcome.text, custom: outcome.custom }] : facts;
}
