import { FIXTURE_IDS, fixtureItem, isFixtureId, type FixtureId } from './fixture';
import type { HumanChange, ReservationAction } from './humanChange';
import type { BranchState } from './reconstruct';
import { refusal, type Refusal } from './refusal';
import { normalizeSnapshot, reservedOf, type Snapshot } from './snapshot';

export type Actor = 'human' | 'agent';

export interface ReservationRequest {
  readonly action: ReservationAction;
  /** Unknown on purpose: the domain validates the target itself, whatever the caller checked. */
  readonly id: unknown;
  readonly packets: unknown;
  /** Unknown too: only the exact current revision string passes. */
  readonly expectedRevision: unknown;
  readonly actor: Actor;
}

export interface GrantRequest {
  readonly enabled: boolean;
  readonly expectedRevision: string;
}

/** Whether a human could be asked to confirm (the host's `hasUI`). */
export interface Surface {
  readonly interactive: boolean;
}

export type Decision = { readonly ok: true; readonly snapshot: Snapshot } | { readonly ok: false; readonly refusal: Refusal };


/**
 * A human change judged against `expectedRevision`: the rule both hosts apply before the dialog
 * and again after it (the playground's worker and the OMP extension).
 */
export function decideHumanChange(state: BranchState, change: HumanChange, expectedRevision: string, surface: Surface): Decision {
  return change.kind === 'grant'
    ? decideGrant(state, { enabled: change.enabled, expectedRevision }, surface)
    : decideReservation(state, { action: change.action, id: change.id, packets: change.packets, expectedRevision, actor: 'human' }, surface);
}

const refuse = (r: Refusal): Decision => ({ ok: false, refusal: r });

export function corruptRefusal(state: Extract<BranchState, { ok: false }>): Refusal {
  return refusal(
    'corrupt-state',
    `The seed desk entry ${state.corruptEntryId} on this branch is invalid (${state.problem}), so this branch's desk cannot be trusted.`,
  );
}

export function isPositiveSafeInteger(value: unknown): value is number {
  return typeof value === 'number' && Number.isSafeInteger(value) && value > 0;
}

function describeQuantity(value: unknown): string {
  if (typeof value === 'string') return `"${value}"`;
  if (typeof value === 'number' || typeof value === 'boolean' || value === null || value === undefined) return String(value);
  return 'a non-number';
}

/** The one wording of an unknown id, for commands, act and inspect alike. */
export function invalidTargetRefusal(id: unknown): Refusal {
  const what = typeof id === 'string' ? `"${id}"` : 'A non-string id';
  return refusal('invalid-target', `${what} is not a desk item. Valid ids: ${FIXTURE_IDS.join(', ')}.`);
}

/**
 * Order of checks: who may act (UI, corrupt state, grant), then what was asked (target,
 * quantity), then whether the view it was decided on is current, then whether the desk can do it.
 * Arguments are judged before freshness so a caller fixes its request once, not after a re-query.
 */
export function decideReservation(state: BranchState, request: ReservationRequest, surface: Surface): Decision {
  if (request.actor === 'human' && !surface.interactive) {
    return refuse(refusal('ui-required', `A human ${request.action} needs a confirmation dialog, and no interactive UI is available.`));
  }
  if (!state.ok) return refuse(corruptRefusal(state));
  // #region grant-check: the agent acts only where the human switched it on
  if (request.actor === 'agent' && !state.snapshot.agentEnabled) {
    return refuse(refusal('agent-disabled', 'The agent may not change reservations on this branch: the human has not run /seeds agent on here.'));
  }
  // #endregion
  if (!isFixtureId(request.id)) {
    return refuse(invalidTargetRefusal(request.id));
  }
  if (!isPositiveSafeInteger(request.packets)) {
    return refuse(refusal('invalid-quantity', `${describeQuantity(request.packets)} is not a positive whole number of packets.`));
  }
  if (request.expectedRevision !== state.revision) {
    return refuse(staleRefusal(request.expectedRevision, state));
  }
  return applyReservation(state.snapshot, request.action, request.id, request.packets);
}

function staleRefusal(expected: unknown, state: BranchState): Refusal {
  const decidedOn = typeof expected === 'string' ? `revision ${expected}` : 'something that is not a revision string';
  return refusal('stale-revision', `This was decided on ${decidedOn}, but the branch is now at ${state.revision}. Nothing was changed.`);
}

function applyReservation(snapshot: Snapshot, action: ReservationAction, id: FixtureId, packets: number): Decision {
  const item = fixtureItem(id);
  const reserved = reservedOf(snapshot, id);
  const available = item.packets - reserved;
  if (action === 'reserve' && packets > available) {
    return refuse(refusal('insufficient-availability', `Only ${available} of ${item.packets} ${id} packets are free on this branch; ${packets} were asked for.`));
  }
  if (action === 'release' && packets > reserved) {
    return refuse(refusal('insufficient-reservation', `This branch holds ${reserved} ${id} packets; it cannot release ${packets}.`));
  }
  const next = action === 'reserve' ? reserved + packets : reserved - packets;
  return { ok: true, snapshot: normalizeSnapshot(snapshot.agentEnabled, { ...snapshot.quantities, [id]: next }) };
}

/** Grant and revoke are human-only and need a confirmation, like any other human change. */
export function decideGrant(state: BranchState, request: GrantRequest, surface: Surface): Decision {
  const verb = request.enabled ? 'on' : 'off';
  if (!surface.interactive) {
    return refuse(refusal('ui-required', `Switching the agent ${verb} needs a confirmation dialog, and no interactive UI is available.`));
  }
  if (!state.ok) return refuse(corruptRefusal(state));
  if (request.expectedRevision !== state.revision) return refuse(staleRefusal(request.expectedRevision, state));
  return { ok: true, snapshot: normalizeSnapshot(request.enabled, state.snapshot.quantities) };
}
