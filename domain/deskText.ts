import { FIXTURE_FAMILIES } from './fixture';
import type { HumanChange } from './humanChange';
import type { Revision } from './ids';
import type { DeskRow } from './snapshot';

/** One line per item, exactly `basil-genovese: 6 available, 2 reserved`, then the revision. */
export function deskLines(rows: readonly DeskRow[]): string[] {
  return rows.map((row) => `${row.id}: ${row.available} available, ${row.reserved} reserved`);
}

export function queryText(rows: readonly DeskRow[], revision: Revision): string {
  return [...deskLines(rows), `revision: ${revision}`].join('\n');
}

/** A query by optional exact family: the rows it chose and the text, shared by `/seeds query` and the tool. */
export function familyQuery(rows: readonly DeskRow[], family: string | undefined, revision: Revision): { rows: readonly DeskRow[]; text: string } {
  const chosen = family === undefined ? rows : rows.filter((row) => row.family === family);
  const text = chosen.length > 0 ? queryText(chosen, revision) : `No item has the family "${family}". Families: ${FIXTURE_FAMILIES.join(', ')}.\nrevision: ${revision}`;
  return { rows: chosen, text };
}

/** A one-line summary for the status line. */
export function statusText(rows: readonly DeskRow[], agentEnabled: boolean, revision: Revision): string {
  const held = rows.filter((row) => row.reserved > 0).map((row) => `${row.reserved} ${row.id}`);
  const holding = held.length > 0 ? `holding ${held.join(', ')}` : 'nothing reserved';
  return `Seed desk: ${holding}; agent ${agentEnabled ? 'on' : 'off'}; revision ${revision}`;
}

/** The confirmation dialog's title for a human change: `Reserve 2 basil-genovese?`, `Switch the agent on?`. */
export function changeTitle(change: HumanChange): string {
  if (change.kind === 'grant') return change.enabled ? 'Switch the agent on?' : 'Switch the agent off?';
  return `${change.action === 'reserve' ? 'Reserve' : 'Release'} ${change.packets} ${change.id}?`;
}
