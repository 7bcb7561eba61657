/** The immutable, fictional inventory every session starts from. */
export const FIXTURE = [
  { id: 'basil-genovese', name: 'Genovese basil', family: 'basil', packets: 8 },
  { id: 'bean-scarlet', name: 'Scarlet runner bean', family: 'bean', packets: 5 },
  { id: 'marigold-french', name: 'French marigold', family: 'marigold', packets: 3 },
] as const;

export type FixtureItem = (typeof FIXTURE)[number];
export type FixtureId = FixtureItem['id'];

export const FIXTURE_IDS: readonly FixtureId[] = FIXTURE.map((item) => item.id);

const byId = new Map<string, FixtureItem>(FIXTURE.map((item) => [item.id, item]));

/** Exact match only: no trimming, no case folding, and `__proto__` is just another unknown id. */
export function isFixtureId(value: unknown): value is FixtureId {
  return typeof value === 'string' && byId.has(value);
}

export function fixtureItem(id: FixtureId): FixtureItem {
  const item = byId.get(id);
  if (!item) throw new Error(`Unknown fixture id ${id}`);
  return item;
}

export const FIXTURE_FAMILIES: readonly string[] = [...new Set(FIXTURE.map((item) => item.family))];
