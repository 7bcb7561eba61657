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
      /**
       * The 1-based line each entry was read from, or 0 where the import changed the entry (a
       * migration, a parent made a root), so that its line no longer says what it is. Where it is
       * not 0, `JSON.parse` of that line gives the entry: the store keeps such lines as they are.
       */
      readonly lineOf: Int32Array;
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

/**
 * Read a host session file (v1, v2 or v3; optional OMP-new title slot) into a current (v3) header
 * and entries, migrating the way the host's `migrateToCurrentVersion` does, and opening what the
 * host opens with the same leaf (the last line) and branch. Never throws: a file that cannot be a
 * session, or that holds a line the playground refuses on purpose (a version above 3, an entry id
 * "root", an entry without a usable id), is refused with the line to blame; lines the host skips
 * (bad JSON, a second header) are skipped and reported.
 */
export function parseSessionJsonl(text: string, ids: IdSource): ImportResult {
  const reader = new SessionLineReader(ids);
  const lines = withoutBom(text).split('\n');
  // The line after the file's last '\n' is no line.
  if (lines.at(-1) === '') lines.pop();
  for (const line of lines) reader.line(line);
  return reader.finish();
}

/** The host trims the whole text before splitting, which drops a BOM too; JSON.parse alone would not. */
function withoutBom(text: string): string {
  return text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
}

/** A line that will become an entry, with where it came from. */
interface Candidate {
  readonly line: number;
  readonly raw: Json;
  /** True once the import changed the entry, so the line no longer says what it is. */
  changed: boolean;
}

/**
 * `parseSessionJsonl`'s reading, a line at a time: every physical line of the text (`withoutBom`
 * applied) in order, without its '\n' (the text after the last '\n' only when it is not empty),
 * then `finish()`. Never throws; once the file is refused, later lines are ignored.
 * CRLF needs no special case: JSON.parse and trim() both treat a trailing '\r' as whitespace.
 */
class SessionLineReader {
  private count = 0;
  private phase: 'first' | 'header' | 'entries' = 'first';
  private refusal: ImportResult | null = null;
  private slot: { title: string; source: unknown } | undefined;
  private hadTitleSlot = false;
  private header: (SessionHeader & Json) | null = null;
  private migratedFrom: 1 | 2 | null = null;
  private readonly skipped: LineNote[] = [];
  private readonly warnings: LineNote[] = [];
  private readonly candidates: Candidate[] = [];
  /** v1 only: the host's array of parsed lines, header at 0, that `firstKeptEntryIndex` counts in. */
  private readonly v1Slots: (Json | null)[] = [];
  private readonly v1Ids = new Set<string>();
  private previousId: string | null = null;

  constructor(private readonly ids: IdSource) {}

  line(text: string): void {
    const line = ++this.count;
    if (this.refusal) return;
    try {
      this.refusal = this.read(text, line);
    } catch (error) {
      // Nothing below should throw; this keeps the "never throws" promise if something still does.
      this.refusal = refuse(line, `Line ${line} could not be read: ${errorText(error)}`);
    }
  }

  finish(): ImportResult {
    if (this.refusal) return this.refusal;
    const header = this.header;
    if (this.phase !== 'entries' || header === null) {
      const line = this.count + 1;
      return refuse(
        line,
        this.hadTitleSlot
          ? `Line ${line}: the file ends after its title line, so it has no session header.`
          : 'The file is empty: a session file starts with a {"type":"session",…} header line.',
      );
    }
    try {
      const { skipped, warnings } = this;
      const kept = lastLineWins(this.candidates, skipped);
      linkParents(kept, warnings);
      warnings.sort((a, b) => a.line - b.line);
      const entries: JournalEntry[] = new Array<JournalEntry>(kept.length);
      const lineOf = new Int32Array(kept.length);
      kept.forEach((candidate, position) => {
        // EntryBaseSchema accepted it as it was read, and linkParents only ever sets a parent to null.
        entries[position] = candidate.raw as JournalEntry;
        lineOf[position] = candidate.changed ? 0 : candidate.line;
      });
      return { ok: true, header, entries, lineOf, migratedFrom: this.migratedFrom, hadTitleSlot: this.hadTitleSlot, skipped, warnings, lineCount: this.count };
    } catch (error) {
      return refuse(this.count, `Line ${this.count} could not be read: ${errorText(error)}`);
    }
  }

  /** One line; a refusal ends the file. */
  private read(text: string, line: number): ImportResult | null {
    if (this.phase === 'first') {
      this.phase = 'header';
      const first = parseJson(text);
      if (first.ok && isRecord(first.value) && first.value['type'] === 'title') {
        this.hadTitleSlot = true;
        const title = first.value['title'];
        if (typeof title === 'string') this.slot = { title, source: first.value['source'] };
        return null;
      }
    }
    if (text.trim() === '') return null;
    if (this.phase === 'header') return this.readHeaderLine(text, line);
    this.readEntry(text, line);
    return this.refusal;
  }

  private readHeaderLine(text: string, line: number): ImportResult | null {
    const headerCheck = readHeader(text, line);
    if (!headerCheck.ok) return headerCheck;
    const header = headerCheck.header;
    // OMP-new rewrites the fixed-width slot in place when the title changes (never the header),
    // so the slot holds the current title: it wins, an empty one clears, and its source comes along.
    const slot = this.slot;
    if (slot !== undefined) {
      if (slot.title.length > 0) header['title'] = slot.title;
      else delete header['title'];
      if (slot.source === 'auto' || slot.source === 'user') header['titleSource'] = slot.source;
    }
    // Set in place (not re-spread) so the key keeps its position, or is appended, as the host's mutation does.
    header['version'] = CURRENT_SESSION_VERSION;
    this.header = header;
    this.migratedFrom = headerCheck.migratedFrom;
    this.v1Slots.push(header);
    this.phase = 'entries';
    return null;
  }

  private readEntry(text: string, line: number): void {
    const { skipped, warnings, migratedFrom } = this;
    const parsed = parseJson(text);
    if (!parsed.ok) {
      skipped.push({ line, reason: `not valid JSON (${parsed.problem})` });
      return;
    }
    if (!isRecord(parsed.value)) {
      if (migratedFrom === 1) this.v1Slots.push(null);
      skipped.push({ line, reason: `not a JSON object (${describeKind(parsed.value)})` });
      return;
    }
    const raw = parsed.value;
    // The host reads every "session" line as a header and never as an entry.
    if (raw['type'] === 'session') {
      if (migratedFrom === 1) this.v1Slots.push(null);
      skipped.push({ line, reason: 'a second session header is not an entry (the host ignores it too)' });
      return;
    }
    let changed = migratedFrom === 1;
    if (migratedFrom === 1) {
      // Host migrateV1ToV2: every line gets a fresh id, whatever it had, and hangs off the line before;
      // both are assigned onto the entry, so new keys land after its own.
      const v1Ids = this.v1Ids;
      const id = freshEntryId(this.ids, (candidate) => v1Ids.has(candidate));
      v1Ids.add(id);
      raw['id'] = id;
      raw['parentId'] = this.previousId;
      this.previousId = id;
      this.v1Slots.push(raw);
      if (raw['type'] === 'compaction') convertFirstKeptIndex(raw, this.v1Slots, line, warnings);
    } else {
      changed = normalizeParent(raw, line, warnings);
    }
    if (migratedFrom !== null && renameHookMessage(raw)) changed = true;
    // The one check of an entry (the schema is the rule); the wording only explains a refusal.
    if (!EntryBaseSchema.safeParse(raw).success) {
      this.refusal = refuse(line, `Line ${line}: ${whyNotAnEntry(raw)}; nothing was imported.`);
      return;
    }
    this.candidates.push({ line, raw, changed });
  }
}

/**
 * Why EntryBaseSchema refused a line, in the order a reader fixes it. The host keeps an entry
 * whose `type` or `timestamp` is missing (an unknown entry) but never reads one of another kind
 * than a string; neither can the playground show or sort it. The id rule is unusableId's.
 */
function whyNotAnEntry(raw: Json): string {
  for (const key of ['type', 'timestamp'] as const) {
    const value = raw[key];
    if (value !== undefined && typeof value !== 'string') return `"${key}" is ${describeKind(value)}, not a string`;
  }
  const problem = unusableId(raw['id']);
  if (problem) return problem;
  const issue = EntryBaseSchema.safeParse(raw);
  return issue.success ? 'invalid entry' : describeIssue(issue.error);
}

/** Deliberately stricter than the host, which keeps such a line and then loses track of it. */
function unusableId(id: unknown): string | null {
  if (typeof id !== 'string' || id.length === 0) {
    return `the entry has no usable id (${id === undefined ? 'none' : `${describeKind(id)}${typeof id === 'string' ? ', empty' : ''}`}), so nothing can name it as a parent or as the leaf`;
  }
  if (id === 'root') return 'the entry id "root" is reserved: a revision says "root" before any seed desk entry, so this entry would share a revision with the empty branch';
  return null;
}

/**
 * The host walks up only while `parentId` is truthy: a missing, empty or non-string parent makes
 * a root. A self-parent is a root in its tree too (its getBranch would loop forever). All become
 * null, the one form every reader of the export agrees on.
 */
function normalizeParent(raw: Json, line: number, warnings: LineNote[]): boolean {
  const parentId = raw['parentId'];
  if (parentId === null) return false;
  let why: string | null = null;
  if (parentId === undefined) why = 'has no parentId';
  else if (parentId === '') why = 'has an empty parentId';
  else if (typeof parentId !== 'string') why = `has a parentId that is ${describeKind(parentId)}`;
  else if (parentId === raw['id']) why = 'names itself as its parent';
  if (why === null) return false;
  raw['parentId'] = null;
  warnings.push({ line, reason: `the entry ${why}: it is a root, as the host reads it` });
  return true;
}

/** Host `_buildIndex`: a later line with the same id replaces the earlier one, so only the last is kept. */
function lastLineWins(candidates: readonly Candidate[], skipped: LineNote[]): Candidate[] {
  const lastAt = new Map<string, number>();
  candidates.forEach((candidate, at) => lastAt.set(candidate.raw['id'] as string, at));
  if (lastAt.size === candidates.length) return [...candidates];
  const kept: Candidate[] = [];
  candidates.forEach((candidate, at) => {
    const id = candidate.raw['id'] as string;
    const last = lastAt.get(id) as number;
    if (last === at) kept.push(candidate);
    else skipped.push({ line: candidate.line, reason: `id "${clip(id)}" is used again on line ${(candidates[last] as Candidate).line}, and the last line with an id wins, as in the host` });
  });
  skipped.sort((a, b) => a.line - b.line);
  return kept;
}

/** `linkParents`' walk marks: not yet walked, and settled (its walk up ended without a loop). */
const UNWALKED = 0;
const SETTLED = -1;

/**
 * Parents are looked up in the whole file, as the host's index holds every line before any walk:
 * a parent on a later line is linked (the journal links it when it arrives). A parent no line
 * has leaves an orphan root. A loop of parents (the host's getBranch would never return) is cut
 * at its first line, which becomes a root. Positions and marks in typed arrays, one map of ids:
 * 100k entries must not cost 100k sets.
 */
function linkParents(kept: readonly Candidate[], warnings: LineNote[]): void {
  const positionOf = new Map<string, number>();
  kept.forEach((candidate, at) => positionOf.set(candidate.raw['id'] as string, at));
  const parentAt = new Int32Array(kept.length).fill(-1);
  kept.forEach(({ line, raw }, at) => {
    const parentId = raw['parentId'];
    if (typeof parentId !== 'string') return;
    const parent = positionOf.get(parentId);
    if (parent === undefined) {
      warnings.push({ line, reason: `parent "${clip(parentId)}" is on no line of the file; the entry is kept as a root (an orphan, as the host shows it)` });
      return;
    }
    parentAt[at] = parent;
    // Kept lines are in file order, so a later position is a later line.
    if (parent > at) warnings.push({ line, reason: `parent "${clip(parentId)}" comes later, on line ${(kept[parent] as Candidate).line}; linked to it, as the host does` });
  });
  // Each entry has at most one parent, so a walk up either ends or meets a loop.
  const mark = new Int32Array(kept.length);
  const path: number[] = [];
  for (let start = 0; start < kept.length; start++) {
    if (mark[start] !== UNWALKED) continue;
    const walk = start + 1;
    path.length = 0;
    for (let cursor = start; cursor >= 0 && mark[cursor] !== SETTLED; cursor = parentAt[cursor] as number) {
      if (mark[cursor] === walk) {
        // The loop is the path from the first visit of `cursor`; its first line is its lowest position.
        const loop = path.slice(path.indexOf(cursor));
        const cut = loop.reduce((a, b) => (b < a ? b : a));
        const candidate = kept[cut] as Candidate;
        candidate.raw['parentId'] = null;
        candidate.changed = true;
        parentAt[cut] = -1;
        warnings.push({ line: candidate.line, reason: `its parents lead back to it (${loop.length} entries in a loop); it is kept as a root, where the host would walk the loop forever` });
        break;
      }
      mark[cursor] = walk;
      path.push(cursor);
    }
    for (const visited of path) mark[visited] = SETTLED;
  }
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

  const version = readVersion(value['version']);
  if (version === null) {
    return refuse(line, `Line ${line} cannot be read: its version ${clip(JSON.stringify(value['version']) ?? '')} is not a number.`);
  }
  // Deliberately stricter than pi 0.73.1, which opens any version as v3: OMP refuses a newer file, since it may mean entries this reader gets wrong.
  if (version > CURRENT_SESSION_VERSION) {
    return refuse(
      line,
      `Line ${line} cannot be read: this session was written by a newer host (version ${version}); this playground reads up to ${CURRENT_SESSION_VERSION}.`,
    );
  }
  // The host's cumulative steps: a missing version means 1, `< 2` runs V1toV2, `< 3` runs V2toV3.
  const from = version < 2 ? 1 : version < 3 ? 2 : null;
  // The parsed object itself, not zod's copy: it keeps the file's key order and any `__proto__` key as data.
  return { ok: true, header: value as SessionHeader & Json, migratedFrom: from };
}

/**
 * The version as the host compares it (`header.version ?? 1`, then `>=` and `<` against numbers):
 * missing or null is 1, a numeric string reads as its number. Anything else gives null.
 */
function readVersion(version: unknown): number | null {
  if (version === undefined || version === null) return 1;
  if (typeof version === 'number') return Number.isNaN(version) ? null : version;
  if (typeof version === 'string' && version.trim() !== '') {
    const number = Number(version);
    return Number.isNaN(number) ? null : number;
  }
  return null;
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
function renameHookMessage(entry: Json): boolean {
  const message = entry['message'];
  if (entry['type'] !== 'message' || !isRecord(message) || message['role'] !== 'hookMessage') return false;
  message['role'] = 'custom';
  return true;
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
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
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
