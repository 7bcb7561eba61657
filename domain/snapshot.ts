import './zodSetup';
import * as z from 'zod/mini';
import { FIXTURE, FIXTURE_IDS, type FixtureId, type FixtureItem, isFixtureId, fixtureItem } from './fixture';

export { SEED_DESK_CUSTOM_TYPE } from './seedDeskNames';

export type Quantities = Readonly<Partial<Record<FixtureId, number>>>;

export interface Snapshot {
  readonly version: 1;
  readonly agentEnabled: boolean;
  readonly quantities: Quantities;
}

export const EMPTY_SNAPSHOT: Snapshot = { version: 1, agentEnabled: false, quantities: {} };

/**
 * The snapshot contract (docs/persisted-format.md). Strict: an unknown top-level key, a key of
 * `quantities` that is not a fixture id, or a count outside 0..packets makes the entry corrupt.
 */
export const SnapshotSchema = z
  .strictObject({
    version: z.literal(1),
    agentEnabled: z.boolean(),
    quantities: z.record(z.string(), z.number()),
  })
  .check(
    z.superRefine((value, ctx) => {
      for (const [key, count] of Object.entries(value.quantities)) {
        if (!isFixtureId(key)) {
          ctx.addIssue({ code: 'custom', path: ['quantities', key], message: `"${key}" is not a fixture id` });
          continue;
        }
        const packets = fixtureItem(key).packets;
        if (!Number.isSafeInteger(count) || count < 0 || count > packets) {
          ctx.addIssue({
            code: 'custom',
            path: ['quantities', key],
            message: `${key} holds ${count}, which is not a whole number from 0 to ${packets}`,
          });
        }
      }
    }),
  );

export type SnapshotParse = { ok: true; snapshot: Snapshot } | { ok: false; problem: string };

/**
 * Each snapshot object's verdict, kept by identity. A journal entry is never rewritten once it is
 * appended (the host keeps the object it was given, and the extension hands it a copy), so a
 * reread of the branch walks every entry but checks only the ones it has not met: validating every
 * snapshot on the branch stays the rule, and costs one check per entry instead of one per read.
 */
const verdicts = new WeakMap<object, SnapshotParse>();

export function parseSnapshot(data: unknown): SnapshotParse {
  if (typeof data !== 'object' || data === null) return checkSnapshot(data);
  const known = verdicts.get(data);
  if (known) return known;
  const verdict = checkSnapshot(data);
  verdicts.set(data, verdict);
  return verdict;
}

function checkSnapshot(data: unknown): SnapshotParse {
  const parsed = SnapshotSchema.safeParse(data);
  if (!parsed.success) {
    const first = parsed.error.issues[0];
    const where = first && first.path.length > 0 ? `${first.path.join('.')}: ` : '';
    return { ok: false, problem: `${where}${first?.message ?? 'invalid snapshot'}` };
  }
  // zod's record parser drops an own "__proto__" key without reporting it (JSON.parse makes one),
  // so the superRefine above never sees it; it is still not a fixture id.
  if (Object.hasOwn((data as { quantities: object }).quantities, '__proto__')) {
    return { ok: false, problem: 'quantities.__proto__: "__proto__" is not a fixture id' };
  }
  // Frozen: one verdict is shared by every read of the entry, so no reader may change it.
  const snapshot = normalizeSnapshot(parsed.data.agentEnabled, parsed.data.quantities);
  Object.freeze(snapshot.quantities);
  return Object.freeze({ ok: true, snapshot: Object.freeze(snapshot) });
}

/** Fixture order, zeros dropped: a missing key means 0, so equal states serialise equally. */
export function normalizeSnapshot(agentEnabled: boolean, quantities: Readonly<Record<string, number>>): Snapshot {
  const normalized: Partial<Record<FixtureId, number>> = {};
  for (const id of FIXTURE_IDS) {
    const count = Object.hasOwn(quantities, id) ? quantities[id] : undefined;
    if (count !== undefined && count > 0) normalized[id] = count;
  }
  return { version: 1, agentEnabled, quantities: normalized };
}

export function reservedOf(snapshot: Snapshot, id: FixtureId): number {
  return snapshot.quantities[id] ?? 0;
}

export interface DeskRow {
  readonly id: FixtureId;
  readonly name: string;
  readonly family: string;
  readonly packets: number;
  readonly reserved: number;
  readonly available: number;
}

export function deskRows(snapshot: Snapshot): DeskRow[] {
  return FIXTURE.map((item) => rowOf(snapshot, item));
}

/** One item's row, for an id already known to be in the fixture. */
export function deskRow(snapshot: Snapshot, id: FixtureId): DeskRow {
  return rowOf(snapshot, fixtureItem(id));
}

function rowOf(snapshot: Snapshot, item: FixtureItem): DeskRow {
  const reserved = reservedOf(snapshot, item.id);
  return { id: item.id, name: item.name, family: item.family, packets: item.packets, reserved, available: item.packets - reserved };
}
