import { seededIdSource } from '$domain/ids';
import { isConfirmAsked, type LineOutcome } from '../protocol/messages';
import { PlaygroundHost } from '../worker/playgroundHost';
import type { JournalStore } from '../worker/store';
import type { Fact } from './facts';

/**
 * "Another tab" for the simulated page, as `ClosingQuestion.runTwinTab` plays it: a second host on
 * the same database, standing before this tab's last reservation, whose human reserves all 3
 * marigolds there. Its append reaches this tab as another tab's would.
 */
export async function twinTabReserves(host: PlaygroundHost, store: JournalStore, seed: number, note: (fact: Fact) => void): Promise<void> {
  await store.setLastSession(host.sessionId);
  const twin = await PlaygroundHost.start(store, seededIdSource(seed));
  twin.onAppended = (sessionId, entries) => {
    if (host.adoptForeign(sessionId, entries)) note({ kind: 'foreign-append' });
  };
  // Throws when the branch holds no reservation: every lesson that opens a twin tab has one.
  twin.navigate({ by: 'before-last-reservation' });
  let outcome: LineOutcome = await twin.runLine('/seeds reserve marigold-french 3');
  if (isConfirmAsked(outcome)) outcome = await twin.answerUi({ kind: 'confirm', id: outcome.request.id, confirmed: true });
  if (outcome.kind !== 'committed') throw new Error(`The twin tab could not reserve: ${JSON.stringify(outcome)}`);
  note({ kind: 'committed', change: outcome.change, via: 'twin' });
}
