/**
 * Edits on a JSONL file held as lines (line 0 the header), shared by the import fuzzers so that a
 * mutation means the same thing in both. Each edit leaves the lines alone when it cannot apply.
 */
import { parseJsonObject as jsonFields } from '../jsonObject';

/** An entry line (not the header), 1..n-1, chosen by `pick`; -1 when there is none. */
export const entryIndex = (lines: readonly string[], pick: number): number => (lines.length <= 1 ? -1 : 1 + (pick % (lines.length - 1)));

/** Rewrites one line's fields; a line that is not a JSON object stays as it is. */
export function editFields(lines: string[], index: number, change: (value: Record<string, unknown>) => void): void {
  const value = jsonFields(lines[index]);
  if (index < 0 || !value) return;
  change(value);
  lines[index] = JSON.stringify(value);
}

export function truncateLine(lines: string[], index: number, at: number): void {
  if (index >= 0) lines[index] = lines[index]!.slice(0, at % (lines[index]!.length + 1));
}

/** Flips one bit of the line's UTF-8: it may make a '\n' or invalid UTF-8 (read as U+FFFD), as a damaged file would. */
export function flipBit(lines: string[], index: number, at: number, bit: number): void {
  if (index < 0) return;
  const bytes = Buffer.from(lines[index]!, 'utf8');
  if (bytes.length === 0) return;
  const offset = at % bytes.length;
  bytes[offset] = bytes[offset]! ^ (1 << bit);
  lines[index] = bytes.toString('utf8');
}

export function swapLines(lines: string[], a: number, b: number): void {
  if (a >= 0 && b >= 0) [lines[a], lines[b]] = [lines[b]!, lines[a]!];
}

/** Gives line `to` the id of line `from`: two entries with one id. */
export function copyId(lines: string[], from: number, to: number): void {
  const id = jsonFields(lines[from])?.['id'];
  if (typeof id === 'string') editFields(lines, to, (value) => (value['id'] = id));
}

/** a → b → a: each line names the other as its parent. */
export function linkCycle(lines: string[], a: number, b: number): void {
  const idA = jsonFields(lines[a])?.['id'];
  const idB = jsonFields(lines[b])?.['id'];
  if (typeof idA === 'string' && typeof idB === 'string') {
    editFields(lines, a, (value) => (value['parentId'] = idB));
    editFields(lines, b, (value) => (value['parentId'] = idA));
  }
}
