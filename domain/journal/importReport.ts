import type * as z from 'zod/mini';
import type { JournalEntry, SessionHeader } from './entry';

/**
 * What a session file import returns, and how it words what it found: the notes on skipped and
 * repaired lines, the refusal of a whole file, and the short descriptions they are made of.
 */

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

export function refuse(line: number, message: string): { ok: false; error: { line: number; message: string } } {
  return { ok: false, error: { line, message } };
}

export type Parsed = { ok: true; value: unknown } | { ok: false; problem: string };

/** `JSON.parse` as a value: a line that is not JSON is a note (or a refusal), never a throw. */
export function parseJson(text: string): Parsed {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch (error) {
    return { ok: false, problem: errorText(error) };
  }
}

export function describeKind(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'object' ? 'an object' : `a ${typeof value}`;
}

export function describeIssue(error: z.core.$ZodError): string {
  const issue = error.issues[0];
  if (!issue) return 'invalid entry';
  const key = issue.path.map(String).join('.');
  return key.length > 0 ? `"${clip(key)}": ${issue.message}` : issue.message;
}

export function errorText(error: unknown): string {
  return clip(error instanceof Error ? error.message : String(error), 200);
}

/** Keeps reports readable when a file holds a huge id or a 5 MB line. */
export function clip(text: string, max = 60): string {
  return text.length > max ? `${text.slice(0, max)}…` : text;
}
