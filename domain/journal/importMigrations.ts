import { isRecord, type JsonObject } from '../jsonObject';
import type { LineNote } from './importReport';

/**
 * The host's entry migrations that change an entry's own fields (`migrateToCurrentVersion`). The
 * v1 step that gives every line a fresh id and chains it to the line before needs the lines read
 * so far, so the line reader (`importJsonl.ts`) does that part.
 */

/**
 * Host V1toV2: the index counts the host's parsed array (header at 0). Only slots already given an
 * id can be named, so an index pointing forward yields nothing, as in the host.
 */
export function convertFirstKeptIndex(entry: JsonObject, slots: readonly (JsonObject | null)[], line: number, warnings: LineNote[]): void {
  const index = entry['firstKeptEntryIndex'];
  if (typeof index !== 'number') return;
  const target = Number.isInteger(index) && index > 0 ? slots[index] : undefined;
  const targetId = target?.['id'];
  if (typeof targetId === 'string') entry['firstKeptEntryId'] = targetId;
  else warnings.push({ line, reason: `compaction firstKeptEntryIndex ${index} names no earlier entry; firstKeptEntryId left out` });
  delete entry['firstKeptEntryIndex'];
}

/** Host V2toV3: the only change in v3 is this role's new name. */
export function renameHookMessage(entry: JsonObject): boolean {
  const message = entry['message'];
  if (entry['type'] !== 'message' || !isRecord(message) || message['role'] !== 'hookMessage') return false;
  message['role'] = 'custom';
  return true;
}
