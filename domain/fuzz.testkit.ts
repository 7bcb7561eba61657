/** Shared by the seeded fuzz tests: an assertion that fast-check can shrink on, and a tally. */
declare module 'vitest' {
  interface TaskMeta {
    /** How many inputs a fuzz test tried: `npm test`'s summary adds them up (scripts/testSummary.mjs). */
    fuzzInputs?: number;
  }
}

export class FuzzFailure extends Error {}

export function check(condition: boolean, what: string): asserts condition {
  if (!condition) throw new FuzzFailure(what);
}

/**
 * Counts what the generators reached, so a test can fail when a generator stops producing a kind
 * of case (a fuzz run that never meets a refusal code proves nothing about it).
 */
export function createTally() {
  const tally = new Map<string, number>();
  const count = (what: string): void => {
    tally.set(what, (tally.get(what) ?? 0) + 1);
  };
  /** The wanted outcomes that were never counted. */
  const missing = (wanted: readonly string[]): string[] => wanted.filter((what) => (tally.get(what) ?? 0) === 0);
  return { tally, count, missing };
}

/** Conservation on every row of a desk: available + reserved = packets, 0 ≤ reserved ≤ packets. */
export function checkConservation(rows: readonly { id: string; available: number; reserved: number; packets: number }[], where = ''): void {
  for (const row of rows) {
    check(row.available + row.reserved === row.packets, `${where}${row.id}: available + reserved != packets`);
    check(Number.isSafeInteger(row.reserved) && row.reserved >= 0 && row.reserved <= row.packets, `${where}${row.id}: reserved ${row.reserved} out of range`);
  }
}
