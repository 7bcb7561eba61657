import type { Revision } from './ids';
import type { DeskRow } from './snapshot';

/** One line per item, exactly `basil-genovese: 6 available, 2 reserved`, then the revision. */
export function deskLines(rows: readonly DeskRow[]): string[] {
  return rows.map((row) => `${row.id}: ${row.available} available, ${row.reserved} reserved`);
}

export function queryText(rows: readonly DeskRow[], revision: Revision): string {
  return [...deskLines(rows), `revision: ${revision}`].join('\n');
}

/** A one-line summary for the status line. */
export function statusText(rows: readonly DeskRow[], agentEnabled: boolean, revision: Revision): string {
  const held = rows.filter((row) => row.reserved > 0).map((row) => `${row.reserved} ${row.id}`);
  const holding = held.length > 0 ? `holding ${held.join(', ')}` : 'nothing reserved';
  return `Seed desk: ${holding}; agent ${agentEnabled ? 'on' : 'off'}; revision ${revision}`;
}
