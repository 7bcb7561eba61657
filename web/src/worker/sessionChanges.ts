import type { LineOutcome, RunEnd, SessionChange } from '../protocol/messages';
import { followRun, joinLines, reported } from './commands';
import type { HostCore } from './hostCore';
import { Invocation } from './omp/invocation';

/** What a session change did; a cancel carries the page's sentence naming the handler that stopped it. */
export type SessionChanged = { readonly did: Exclude<SessionChange['did'], 'cancelled'> } | { readonly did: 'cancelled'; readonly why: string };

/**
 * A session change (New, a switch, a fork, a move in the tree) run as an extension's command is:
 * its before-event's handlers may open a dialog (OMP's confirm-destructive example asks "Switch
 * session?"), which the page shows as it shows a command's, and the change waits in
 * `HostCore.waiting` until the learner answers; the answer's request then finishes it.
 *
 * Null when no dialog opened, no handler spoke and the change was made: the request answers as it
 * always has. Otherwise the outcome the Command output shows, with what the change came to.
 */
export async function changeSession(core: HostCore, change: (run: Invocation) => SessionChanged | Promise<SessionChanged>): Promise<LineOutcome | null> {
  const run = new Invocation();
  // Set when the change returns; read after the run settles (a box, so TypeScript sees it can be set).
  const changed: { value: SessionChanged | null } = { value: null };
  run.start(async () => {
    changed.value = await change(run);
  });
  await run.settle();
  const result = run.result;
  // Refused before any handler spoke (an approval waits, no such session): the request fails, as it always has.
  if (result && !result.ok && run.notices.length === 0) throw new Error(result.error);
  if (result?.ok && run.notices.length === 0 && changed.value !== null && changed.value.did !== 'cancelled') return null;
  return reported(core, () => followRun(core, run, 0, (leg, from) => endOf(core, leg, from, changed.value)));
}

function endOf(core: HostCore, run: Invocation, from: number, changed: SessionChanged | null): RunEnd {
  const text = run.said(from);
  if (run.asked) return { kind: 'asked', request: run.asked.request, text, revision: core.journal.revision() };
  // The change itself failed after the answer (its store write, most likely): the host's words.
  if (run.result && !run.result.ok) return { kind: 'failed', text: joinLines(text, run.result.error) };
  if (changed === null) return { kind: 'notice', text };
  const sessionChange = { did: changed.did, leafId: core.journal.leafId };
  return { kind: 'notice', text: changed.did === 'cancelled' ? joinLines(text, changed.why) : text, sessionChange };
}
