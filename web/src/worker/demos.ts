import { SEED_DESK_CUSTOM_TYPE } from '$domain/seedDeskNames';
import type { RunEnd } from '../protocol/messages';
import { runCommand } from './commands';
import type { HostCore } from './hostCore';

/**
 * The lesson's staged events, each through the host as anything else would come: the race's
 * "another action" is the extension's own `/seeds reserve`, run for a second client that has
 * already confirmed it; the corrupt entry is appended through the same `appendEntry` path an
 * extension uses, with data no valid snapshot has.
 */

/** Another, already-confirmed reservation lands while the learner's dialog waits. */
export function meanwhileReserve(core: HostCore, id: string, packets: number): Promise<RunEnd> {
  return runCommand(core, 'seeds', `reserve ${id} ${packets}`, 'confirm-at-once');
}

/** The invalid snapshot the corrupt-state demo needs: 99 basil of 8. */
export const CORRUPT_DEMO_DATA = { version: 1, agentEnabled: false, quantities: { 'basil-genovese': 99 } } as const;

/** The valid snapshot `then: 'valid'` appends after the invalid one: nothing reserved, agent off. */
export const VALID_AFTER_CORRUPT_DATA = { version: 1, agentEnabled: false, quantities: {} } as const;

/**
 * Demo only, clearly labelled in the UI: appends a snapshot that breaks the format; with
 * `then: 'valid'`, a valid snapshot as its child too (the leaf on it), both through the same
 * `appendEntry` path, to show that a later valid entry does not make the desk skip the bad one.
 */
export async function appendCorruptSnapshot(core: HostCore, then?: 'valid'): Promise<RunEnd> {
  if (core.writeFailure !== null) return { kind: 'failed', text: core.blockedText() };
  core.appendCustom(SEED_DESK_CUSTOM_TYPE, structuredClone(CORRUPT_DEMO_DATA));
  const id = core.journal.leafId;
  if (then === 'valid') core.appendCustom(SEED_DESK_CUSTOM_TYPE, structuredClone(VALID_AFTER_CORRUPT_DATA));
  const valid = then === 'valid' ? core.journal.leafId : null;
  const failure = await core.settleWrites();
  if (failure !== null) return { kind: 'failed', text: failure };
  // No session event follows an append in the host, so the extension's status line keeps what it last said.
  if (valid !== null) {
    return {
      kind: 'notice',
      text: `Appended an invalid snapshot (${id ?? '?'}): 99 basil of 8, then a valid one after it (${valid}): nothing reserved, agent off. The leaf stands on the valid one, yet the branch still holds the invalid entry, so queries and changes are still refused with corrupt-state (only discover answers); step back twice to leave it.`,
    };
  }
  return { kind: 'notice', text: `Appended an invalid snapshot (${id ?? '?'}): 99 basil of 8. On this branch queries and changes are now refused with corrupt-state (only discover answers); step back to leave it.` };
}
