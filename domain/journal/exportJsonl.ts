import { CURRENT_SESSION_VERSION, type JournalEntry, type SessionHeader } from './entry';

/** The order the host's `_newSessionSync` writes; any other header key follows in its own order. */
const HEADER_KEY_ORDER = ['type', 'version', 'id', 'timestamp', 'cwd'] as const;

/**
 * Write a session the real host can open: the header, then one entry per line in the given
 * (append) order, each line ending in '\n', exactly as the host's JSON.stringify-per-line does.
 *
 * No OMP-new title slot is written: OMP-5.7 and PI read line 0 as the header and would reject a
 * file that starts with `{"type":"title"}`, while OMP-new reads a header-first file fine and takes
 * the title from the header. So header-first is the one form every host version opens.
 */
export function toSessionJsonl(header: SessionHeader, entries: readonly JournalEntry[]): string {
  const parts = [JSON.stringify(orderedHeader(header))];
  for (const entry of entries) parts.push(JSON.stringify(entry));
  return `${parts.join('\n')}\n`;
}

function orderedHeader(header: SessionHeader): Record<string, unknown> {
  // Null prototype: a `__proto__` key from an imported file is then plain data, not a prototype.
  const out = Object.create(null) as Record<string, unknown>;
  const source = header as Record<string, unknown>;
  for (const key of HEADER_KEY_ORDER) {
    const value = key === 'version' ? CURRENT_SESSION_VERSION : source[key];
    if (value !== undefined) out[key] = value;
  }
  for (const key of Object.keys(source)) {
    if (!(HEADER_KEY_ORDER as readonly string[]).includes(key)) out[key] = source[key];
  }
  return out;
}
