import type { JournalEntry } from '$domain/journal/entry';
import type { SessionJournal } from '$domain/journal/journal';
import { SEED_DESK_CUSTOM_TYPE } from '$domain/seedDeskNames';
import type { CustomEntries } from '../protocol/outcomes';

/**
 * The custom entries as a run of the learner's own extension left them (issue 37's lesson): per
 * custom type, the newest entry's `data` on the active branch, and the `data` of that type's
 * entries off it. Seed Desk's own entries are left out (the desk's facts already carry them).
 */
export function customEntries(journal: SessionJournal, appended: number): CustomEntries {
  const branch = journal.branch();
  const onIds = new Set(branch.map((entry) => entry.id));
  const onBranch: Record<string, unknown> = {};
  for (const entry of branch) {
    const type = customTypeOf(entry);
    if (type !== null) onBranch[type] = entry['data'];
  }
  const offBranch: Record<string, unknown[]> = {};
  for (const entry of journal.entries()) {
    const type = customTypeOf(entry);
    if (type === null || onIds.has(entry.id)) continue;
    (offBranch[type] ??= []).push(entry['data']);
  }
  return { appended, onBranch, offBranch };
}

function customTypeOf(entry: JournalEntry): string | null {
  const type = entry['customType'];
  return entry.type === 'custom' && typeof type === 'string' && type !== SEED_DESK_CUSTOM_TYPE ? type : null;
}
