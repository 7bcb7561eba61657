import { corruptRefusal, decideReservation, invalidTargetRefusal } from '../desk';
import { deskLines, familyQuery } from '../deskText';
import type { FixtureId } from '../fixture';
import type { Revision } from '../ids';
import { isRecord } from '../jsonObject';
import type { BranchState } from '../reconstruct';
import { refusalText, type Refusal, type RefusalCode } from '../refusal';
import { deskRow, deskRows, type DeskRow, type Snapshot } from '../snapshot';
import { opFieldsProblem } from './opFields';
import { SEED_DESK_OPS, type SeedDeskOp } from './schema';

export interface ToolDetails {
  readonly ok: boolean;
  /** The operation this answer is about, so a caller can tell a query's refusal from an act's. */
  readonly scope: SeedDeskOp | 'seed_desk';
  readonly revision?: string;
  readonly agentEnabled?: boolean;
  readonly code?: RefusalCode;
  readonly data?: unknown;
}

export interface ToolResult {
  readonly content: readonly [{ readonly type: 'text'; readonly text: string }];
  readonly details: ToolDetails;
}

/**
 * What the tool makes of one call. `commit` carries the snapshot to append; the caller appends it
 * with nothing awaited since the branch was read (so no other change lands in between) and then
 * asks `describe` for the text with the new revision. `error` is a malformed call (no known op, a
 * field the op needs or does not take, a wrong type when the host's schema was skipped): the
 * caller throws it, and the host turns it into an error result with the message as its text.
 */
export type ToolPlan =
  | { readonly kind: 'answer'; readonly result: ToolResult }
  | { readonly kind: 'commit'; readonly snapshot: Snapshot; readonly describe: (revision: Revision) => ToolResult }
  | { readonly kind: 'error'; readonly message: string };

function result(text: string, details: ToolDetails): ToolResult {
  return { content: [{ type: 'text', text }], details };
}

function refusalResult(scope: ToolDetails['scope'], r: Refusal, state: BranchState): ToolResult {
  return result(`${refusalText(r)}\nrevision: ${state.revision}`, {
    ok: false,
    scope,
    revision: state.revision,
    ...(state.ok ? { agentEnabled: state.snapshot.agentEnabled } : {}),
    code: r.code,
    data: { message: r.message, nextStep: r.nextStep },
  });
}

function rowData(row: DeskRow) {
  return { id: row.id, name: row.name, family: row.family, packets: row.packets, available: row.available, reserved: row.reserved };
}

/**
 * The tool's reading of a call. It does not trust that the host validated anything: an unknown op
 * or action, and a field the op needs or does not take (the tool's own check, opFields.ts), are
 * errors; a bad id or count is the domain's refusal.
 */
export function planSeedDeskCall(raw: unknown, state: BranchState): ToolPlan {
  if (!isRecord(raw) || typeof raw['op'] !== 'string' || !(SEED_DESK_OPS as readonly string[]).includes(raw['op'])) {
    return { kind: 'error', message: `seed_desk needs an object with op set to one of: ${SEED_DESK_OPS.join(', ')}.` };
  }
  const op = raw['op'] as SeedDeskOp;
  const fields = opFieldsProblem(op, raw);
  if (fields !== null) return { kind: 'error', message: fields };
  if (op === 'discover') return { kind: 'answer', result: discover(state) };
  if (!state.ok) return { kind: 'answer', result: refusalResult(op, corruptRefusal(state), state) };
  const rows = deskRows(state.snapshot);
  const agentEnabled = state.snapshot.agentEnabled;

  if (op === 'query') {
    const family = raw['family'];
    if (family !== undefined && typeof family !== 'string') {
      return { kind: 'error', message: 'seed_desk query: family must be a string when given.' };
    }
    const { rows: chosen, text } = familyQuery(rows, family, state.revision);
    return {
      kind: 'answer',
      result: result(text, { ok: true, scope: 'query', revision: state.revision, agentEnabled, data: { items: chosen.map(rowData), ...(family !== undefined ? { family } : {}) } }),
    };
  }

  if (op === 'inspect') {
    const id = raw['id'];
    const row = rows.find((candidate) => candidate.id === id);
    if (!row) {
      return { kind: 'answer', result: refusalResult('inspect', invalidTargetRefusal(id), state) };
    }
    const text = `${row.name} (${row.id}, family ${row.family}): ${row.available} available, ${row.reserved} reserved of ${row.packets}\nrevision: ${state.revision}`;
    return { kind: 'answer', result: result(text, { ok: true, scope: 'inspect', revision: state.revision, agentEnabled, data: { item: rowData(row) } }) };
  }

  const action = raw['action'];
  if (action !== 'reserve' && action !== 'release') {
    return { kind: 'error', message: 'seed_desk act: action must be "reserve" or "release".' };
  }
  const decision = decideReservation(
    state,
    { action, id: raw['id'], packets: raw['packets'], expectedRevision: raw['expectedRevision'], actor: 'agent' },
    { interactive: false },
  );
  if (!decision.ok) return { kind: 'answer', result: refusalResult('act', decision.refusal, state) };
  // The decision has checked both: the id is in the fixture and the count is a whole number.
  const id = raw['id'] as FixtureId;
  const packets = raw['packets'] as number;
  const after = deskRow(decision.snapshot, id);
  return {
    kind: 'commit',
    snapshot: decision.snapshot,
    describe: (revision) =>
      result(`${action === 'reserve' ? 'Reserved' : 'Released'} ${packets} ${id}.\n${deskLines([after])[0]}\nrevision: ${revision}`, {
        ok: true,
        scope: 'act',
        revision,
        agentEnabled: decision.snapshot.agentEnabled,
        data: { action, id, packets, item: rowData(after) },
      }),
  };
}

function discover(state: BranchState): ToolResult {
  const operations = [
    { op: 'discover', purpose: 'This overview: operations, what act needs, the current revision.' },
    { op: 'query', purpose: 'Every item with available and reserved packets, and the revision. Optional exact family filter.' },
    { op: 'inspect', purpose: 'One item by exact id.' },
    { op: 'act', purpose: 'Reserve or release a positive whole number of packets, sending the latest revision as expectedRevision.' },
  ];
  const prerequisites = [
    'act needs the human grant on this branch (/seeds agent on, confirmed by the human).',
    'act needs expectedRevision to equal the current revision; any seed desk change makes a new one.',
    'A refused call changes nothing; its text says Refused, names the code and the next step.',
  ];
  const text = [
    'seed_desk operations: discover, query, inspect, act.',
    ...prerequisites,
    state.ok ? `revision: ${state.revision}` : `This branch is corrupt (entry ${state.corruptEntryId}); act and query will be refused.\nrevision: ${state.revision}`,
  ].join('\n');
  return result(text, {
    ok: true,
    scope: 'discover',
    revision: state.revision,
    ...(state.ok ? { agentEnabled: state.snapshot.agentEnabled } : {}),
    data: { operations, prerequisites },
  });
}

