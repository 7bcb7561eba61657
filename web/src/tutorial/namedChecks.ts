import type { CheckName } from '../../../lessons/format/workspaceNames';
import type { Observed } from './facts';

/**
 * Named checks: only where arithmetic is the point, each short. A goal names one with
 * `check: { name, item? }`; its values fill the part's reason (`{here}`, `{there}`…).
 */
export interface NamedCheckResult {
  readonly met: boolean;
  readonly values: Readonly<Record<string, string>>;
}

type NamedCheck = (observed: Observed, item: string | undefined) => NamedCheckResult;

const reservedIn = (rows: readonly { id: string; reserved: number }[], id: string | undefined): number => rows.find((row) => row.id === id)?.reserved ?? 0;

const NAMED_CHECKS: Readonly<Record<CheckName, NamedCheck>> = {
  /** Both compared branches hold the item, and together they hold more than the stock. */
  'combined-exceeds-stock': ({ comparison }, item) => {
    const here = comparison ? reservedIn(comparison.left.rows, item) : 0;
    const there = comparison ? reservedIn(comparison.right.rows, item) : 0;
    const combined = comparison?.combinedReserved.find((row) => row.id === item);
    const values = { here: String(here), there: String(there), combined: String(combined?.reserved ?? 0), packets: String(combined?.packets ?? 0) };
    return { met: here > 0 && there > 0 && combined !== undefined && combined.reserved > combined.packets, values };
  },
};

export function runNamedCheck(name: string, observed: Observed, item: string | undefined): NamedCheckResult {
  const check = Object.hasOwn(NAMED_CHECKS, name) ? NAMED_CHECKS[name as CheckName] : undefined;
  return check ? check(observed, item) : { met: false, values: {} };
}
