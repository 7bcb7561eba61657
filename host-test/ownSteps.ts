/**
 * What both runners of an own extension's script share (issue 37, point 4): the script's answers
 * to the extension's UI requests, the scripted model's turn, and the custom entries read off a
 * branch. The runners themselves are ownReal.ts (Bun) and ownPage.ts (Node); each extends its side's
 * runner of the differential, so every other step runs as it does for the Seed Desk.
 */
import type { AskedView, OwnView } from './script';
import { HOST_BOOKKEEPING } from './script';

/** The closing text of every scripted turn (after its tool call's result, if it made one). */
export const CLOSING = 'Done.';
/** The scripted model's call ids, numbered across the script (`call_turn_N`). */
export const TURN_CALL = 'call_turn_';

type Answer = boolean | string | null;

/**
 * The script's answers, taken in order by whichever UI request comes next, in either host. A
 * request with no answer left, or an answer of the wrong kind, is the script's mistake: it throws
 * (the step fails and says so) rather than answering something the script did not say.
 */
export class Answers {
  private next = 0;
  constructor(private readonly list: readonly Answer[]) {}

  private take(asked: AskedView): Answer {
    if (this.next >= this.list.length) throw new Error(`the script has no answer left for the ${asked.kind} "${asked.title}"`);
    return this.list[this.next++]!;
  }

  confirm(asked: AskedView): boolean {
    const answer = this.take(asked);
    if (typeof answer !== 'boolean' && answer !== null) throw new Error(`the script answers the confirm "${asked.title}" with ${JSON.stringify(answer)}, not true, false or null`);
    return answer === true;
  }

  /** A select's option or an input's text; undefined: cancelled. */
  text(asked: AskedView): string | undefined {
    const answer = this.take(asked);
    if (typeof answer === 'boolean') throw new Error(`the script answers the ${asked.kind} "${asked.title}" with ${answer}, not a text or null`);
    if (answer !== null && asked.kind === 'select' && !asked.options.includes(answer)) throw new Error(`the script answers the select "${asked.title}" with "${answer}", which is none of its options ${JSON.stringify(asked.options)}`);
    return answer ?? undefined;
  }

  /** Answers the script gave that no request took: the script expected a request that never came. */
  left(): number {
    return this.list.length - this.next;
  }
}

interface EntryLike {
  readonly type?: unknown;
  readonly id?: unknown;
  readonly [key: string]: unknown;
}

/**
 * The real OMP's own records of a turn, which the page's host does not write: before each tool call
 * its agent loop runs, OMP 18.2.3 appends a `tool_execution_start` custom entry (toolCallId,
 * toolName, startedAt: pi-coding-agent session/agent-session.ts `#recordToolExecutionStart`). Left
 * out of own traces as the settings bookkeeping is left out of every trace (script.ts
 * HOST_BOOKKEEPING); an extension that reads the journal does see it in OMP.
 */
export const HOST_TURN_RECORDS: ReadonlySet<string> = new Set(['tool_execution_start']);

/** Whether an entry is the host's own (settings bookkeeping, turn records), not the session's or an extension's. */
export function isHostRecord(entry: EntryLike): boolean {
  return HOST_BOOKKEEPING.has(String(entry.type)) || (entry.type === 'custom' && HOST_TURN_RECORDS.has(String(entry['customType'])));
}

/** The custom entries on a branch, root to leaf (the host's own records left out). */
export function customOnBranch(branch: readonly EntryLike[]): OwnView['custom'] {
  return branch.filter((entry) => entry.type === 'custom' && !isHostRecord(entry)).map((entry) => ({ id: String(entry.id), customType: String(entry['customType']), data: timeless(entry) }));
}

/** A `session_exit` entry's `recordedAt` is the clock's (the page's is seeded): compared as TIME, like an id is named. */
function timeless(entry: EntryLike): unknown {
  const data = entry['data'] ?? null;
  if (entry['customType'] !== 'session_exit' || typeof data !== 'object' || data === null || !('recordedAt' in data)) return data;
  return { ...data, recordedAt: 'TIME' };
}

/** Ids of the entries a trace may show, in file order (the host's own records, which the page does not write, left out). */
export function shownIds(entries: readonly EntryLike[]): string[] {
  return entries.filter((entry) => !isHostRecord(entry)).map((entry) => String(entry.id));
}

/** The text of a user message's content (a string, or text parts). */
export function messageText(content: unknown): string {
  if (typeof content === 'string') return content;
  if (!Array.isArray(content)) return '';
  return content.map((part: unknown) => (typeof part === 'object' && part !== null && 'text' in part ? String((part as { text: unknown }).text) : '')).join('');
}
