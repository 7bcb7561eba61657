import '../zodSetup';
import * as z from 'zod/mini';
import { freshEntryId, type IdSource } from '../ids';
import { isRecord, type JsonObject } from '../jsonObject';
import { CURRENT_SESSION_VERSION, EntryBaseSchema, type JournalEntry, type SessionHeader } from './entry';
import { readHeader } from './importHeader';
import { convertFirstKeptIndex, renameHookMessage } from './importMigrations';
import { describeIssue, describeKind, errorText, parseJson, refuse, type ImportResult, type LineNote } from './importReport';
import { lastLineWins, linkParents, normalizeParent, type Candidate } from './importTreeRepair';

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

/**
 * The one check of a line's entry: EntryBaseSchema's fields, without its passthrough of every
 * other key. The verdict is the same (a loose object never refuses a key it does not name), and
 * the entry kept is the parsed line itself, so the copy of each line's other keys that the loose
 * schema builds was thrown away 100k times per import (issue 38).
 */
const EntryCheckSchema = z.object({ ...EntryBaseSchema.def.shape });

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
  private header: (SessionHeader & JsonObject) | null = null;
  private migratedFrom: 1 | 2 | null = null;
  private readonly skipped: LineNote[] = [];
  private readonly warnings: LineNote[] = [];
  private readonly candidates: Candidate[] = [];
  /** v1 only: the host's array of parsed lines, header at 0, that `firstKeptEntryIndex` counts in. */
  private readonly v1Slots: (JsonObject | null)[] = [];
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
      const lines = lastLineWins(this.candidates, skipped);
      linkParents(lines, warnings);
      const { kept } = lines;
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
    if (!EntryCheckSchema.safeParse(raw).success) {
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
function whyNotAnEntry(raw: JsonObject): string {
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
