import '../zodSetup';
import * as z from 'zod/mini';
import { freshEntryId, type IdSource } from '../ids';
import { isRecord } from '../jsonObject';
import {
  CURRENT_SESSION_VERSION,
  EntryBaseSchema,
  SessionHeaderSchema,
  type JournalEntry,
  type SessionHeader,
} from './entry';

/** A line that was dropped or that deserves a word; `line` is 1-based, physical, in the file as given. */
export interface LineNote {
  readonly line: number;
  readonly reason: string;
}

export type ImportResult =
  | {
      readonly ok: true;
      readonly header: SessionHeader;
      /** Append order, no duplicate ids: safe for `SessionJournal.fromEntries`. */
      readonly entries: JournalEntry[];
      /** The version the file was migrated from, or null when it was already current. */
      readonly migratedFrom: 1 | 2 | null;
      /** OMP-new's 256-byte `{"type":"title"}` line 1 was present and stripped. */
      readonly hadTitleSlot: boolean;
      readonly skipped: LineNote[];
      readonly warnings: LineNote[];
      readonly lineCount: number;
    }
  // All or nothing: a refused file yields no header and no entries, so a caller cannot half-write it.
  | { readonly ok: false; readonly error: { readonly line: number; readonly message: string } };

type Json = Record<string, unknown>;
type Parsed = { ok: true; value: unknown } | { ok: false; problem: string };

/** What a v1 (pre-tree) line must hold to become an entry once it is given an id and a parent. */
const V1EntrySchema = z.looseObject({ type: EntryBaseSchema.shape.type, timestamp: EntryBaseSchema.shape.timestamp });

/**
 * Read a host session file (v1, v2 or v3; optional OMP-new title slot) into a current (v3) header
 * and entries, migrating the way the host's `migrateToCurrentVersion` does. Never throws: a file
 * that cannot be a session is refused with the line to blame; bad lines inside a session are
 * skipped and reported, as the host skips them (silently) on load.
 */
export function parseSessionJsonl(text: string, ids: IdSource): ImportResult {
  const at = { line: 1 };
  try {
    return parse(text, ids, at);
  } catch (error) {
    // Nothing below should throw; this keeps the "never throws" promise if something still does.
    return refuse(at.line, `Line ${at.line} could not be read: ${errorText(error)}`);
  }
}

function parse(text: string, ids: IdSource, at: { line: number }): ImportResult {
  // A BOM from a Windows editor would otherwise make line 1 invalid JSON.
  const body = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  const lines = body.split('\n');
  if (lines.at(-1) === '') lines.pop();
  const lineCount = lines.length;
  // CRLF needs no special case: JSON.parse and trim() both treat a trailing '\r' as whitespace.
  const lineAt = (index: number): string => lines[index] ?? '';
  const isBlank = (index: number): boolean => lineAt(index).trim() === '';

  let next = 0;
  let slot: { title: string; source: unknown } | undefined;
  let hadTitleSlot = false;
  const first = lineCount > 0 ? parseJson(lineAt(0)) : undefined;
  if (first?.ok && isRecord(first.value) && first.value['type'] === 'title') {
    hadTitleSlot = true;
    const title = first.value['title'];
    if (typeof title === 'string') slot = { title, source: first.value['source'] };
    next = 1;
  }

  while (next < lineCount && isBlank(next)) next++;
  at.line = next + 1;
  if (next >= lineCount) {
    return refuse(
      next + 1,
      hadTitleSlot
        ? `Line ${next + 1}: the file ends after its title line, so it has no session header.`
        : 'The file is empty: a session file starts with a {"type":"session",…} header line.',
    );
  }

  const headerCheck = readHeader(lineAt(next), next + 1);
  if (!headerCheck.ok) return headerCheck;
  const header = headerCheck.header;
  const migratedFrom = headerCheck.migratedFrom;
  // OMP-new rewrites the fixed-width slot in place when the title changes (never the header),
  // so the slot holds the current title: it wins, an empty one clears, and its source comes along.
  if (slot !== undefined) {
    if (slot.title.length > 0) header['title'] = slot.title;
    else delete header['title'];
    if (slot.source === 'auto' || slot.source === 'user') header['titleSource'] = slot.source;
  }
  // Set in place (not re-spread) so the key keeps its position, or is appended, as the host's mutation does.
  header['version'] = CURRENT_SESSION_VERSION;

  const skipped: LineNote[] = [];
  const warnings: LineNote[] = [];
  const entries: JournalEntry[] = [];
  const firstLineOf = new Map<string, number>();
  // v1 only: the host's array of parsed lines, header at 0, that `firstKeptEntryIndex` counts in.
  const v1Slots: (Json | null)[] = [header];
  let previousId: string | null = null;

  for (let index = next + 1; index < lineCount; index++) {
    if (isBlank(index)) continue;
    const line = index + 1;
    at.line = line;
    const parsed = parseJson(lineAt(index));
    if (!parsed.ok) {
      skipped.push({ line, reason: `not valid JSON (${parsed.problem})` });
      continue;
    }
    if (!isRecord(parsed.value)) {
      if (migratedFrom === 1) v1Slots.push(null);
      skipped.push({ line, reason: `not a JSON object (${describeKind(parsed.value)})` });
      continue;
    }
    const raw = parsed.value;

    if (migratedFrom === 1) {
      const valid = V1EntrySchema.safeParse(raw);
      if (!valid.success) {
        v1Slots.push(null);
        skipped.push({ line, reason: describeIssue(valid.error) });
        continue;
      }
      // Host migrateV1ToV2: assigned onto the entry, so id and parentId land after its own keys.
      const id = freshEntryId(ids, (candidate) => firstLineOf.has(candidate));
      raw['id'] = id;
      raw['parentId'] = previousId;
      previousId = id;
      v1Slots.push(raw);
      if (raw['type'] === 'compaction') convertFirstKeptIndex(raw, v1Slots, line, warnings);
    } else {
      const valid = EntryBaseSchema.safeParse(raw);
      if (!valid.success) {
        skipped.push({ line, reason: describeIssue(valid.error) });
        continue;
      }
    }

    const entry = raw as JournalEntry;
    const seenAt = firstLineOf.get(entry.id);
    if (seenAt !== undefined) {
      skipped.push({ line, reason: `duplicate id "${clip(entry.id)}", first used on line ${seenAt}` });
      continue;
    }
    if (entry.parentId !== null && !firstLineOf.has(entry.parentId)) {
      warnings.push({
        line,
        reason: `parent "${clip(entry.parentId)}" does not appear before this line; the entry is kept as a root (an orphan, as the host shows it)`,
      });
    }
    if (migratedFrom !== null) renameHookMessage(raw);
    firstLineOf.set(entry.id, line);
    entries.push(entry);
  }

  return { ok: true, header, entries, migratedFrom, hadTitleSlot, skipped, warnings, lineCount };
}

type HeaderCheck =
  | { ok: true; header: SessionHeader & Json; migratedFrom: 1 | 2 | null }
  | { ok: false; error: { line: number; message: string } };

function readHeader(text: string, line: number): HeaderCheck {
  const notHeader = (why: string): HeaderCheck => refuse(line, `Line ${line} is not a session header: ${why}`);
  const parsed = parseJson(text);
  if (!parsed.ok) return notHeader(`it is not valid JSON (${parsed.problem}).`);
  const value = parsed.value;
  if (!isRecord(value)) return notHeader(`it is ${describeKind(value)}, not a {"type":"session",…} object.`);
  if (value['type'] !== 'session') {
    const type = value['type'];
    const found = typeof type === 'string' ? `type "${clip(type)}"` : 'no "type" string';
    return notHeader(`a session file starts with a line of type "session", and this one has ${found}.`);
  }
  if (typeof value['id'] !== 'string' || value['id'].length === 0) return notHeader('it has no session "id" string.');
  const valid = SessionHeaderSchema.safeParse(value);
  if (!valid.success) return notHeader(`${describeIssue(valid.error)}.`);

  const version = value['version'];
  if (typeof version === 'number' && version > CURRENT_SESSION_VERSION) {
    return refuse(
      line,
      `Line ${line} cannot be read: this session was written by a newer host (version ${version}); this playground reads up to ${CURRENT_SESSION_VERSION}.`,
    );
  }
  // The host's cumulative steps: a missing version means 1, `< 2` runs V1toV2, `< 3` runs V2toV3.
  const effective = typeof version === 'number' ? version : 1;
  const from = effective < 2 ? 1 : effective < 3 ? 2 : null;
  // The parsed object itself, not zod's copy: it keeps the file's key order and any `__proto__` key as data.
  return { ok: true, header: value as SessionHeader & Json, migratedFrom: from };
}

/**
 * Host V1toV2: the index counts the host's parsed array (header at 0). Only slots already given an
 * id can be named, so an index pointing forward yields nothing, as in the host.
 */
function convertFirstKeptIndex(entry: Json, slots: readonly (Json | null)[], line: number, warnings: LineNote[]): void {
  const index = entry['firstKeptEntryIndex'];
  if (typeof index !== 'number') return;
  const target = Number.isInteger(index) && index > 0 ? slots[index] : undefined;
  const targetId = target?.['id'];
  if (typeof targetId === 'string') entry['firstKeptEntryId'] = targetId;
  else warnings.push({ line, reason: `compaction firstKeptEntryIndex ${index} names no earlier entry; firstKeptEntryId left out` });
  delete entry['firstKeptEntryIndex'];
}

/** Host V2toV3: the only change in v3 is this role's new name. */
function renameHookMessage(entry: Json): void {
  const message = entry['message'];
  if (entry['type'] === 'message' && isRecord(message) && message['role'] === 'hookMessage') message['role'] = 'custom';
}

function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: errorText(error) };
  }
}

function describeKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return `a ${typeof value}`;
}

function describeIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid entry';
  const key = issue.path.map(String).join('.');
  return key.length > 0 ? `"${clip(key)}": ${issue.message}` : issue.message;
}

function errorText(error: unknown): string {
  return clip(error instanceof Error ? error.message : String(error), 200);
}

/** Keeps reports readable when a file holds a huge id or a 5 MB line. */
function clip(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}

function refuse(line: number, message: string): { ok: false; error: { line: number; message: string } } {
  return { ok: false, error: { line, message } };
}
