import type { StampedFact } from './facts';
import { ranUnder, type RanUnder } from './goalOutcomes';

/**
 * Issue 37's lesson: the lines the learner's own extension ended, read against the notes its
 * custom entries hold (each entry's `data.text`). The facts carry the entries as the run left
 * them (the worker's, `CustomEntries`); what the line said is compared with them here, as data.
 */
export interface NoteLine extends RanUnder {
  /** What the extension said. */
  readonly text: string;
  /** The active branch's note (its newest entry), or null when the branch has none. */
  readonly onBranch: string | null;
  /** The notes of the entries off the branch. */
  readonly offBranch: readonly string[];
  /** The move or reopen this line is the first line after, with nothing appended between (what it says is what the extension rebuilt). */
  readonly firstAfter: readonly ('moved' | 'reopened')[];
  /** Off the branch lies a note different from this branch's. */
  readonly otherNote: boolean;
  /** The line appended entries (a write), or none (a read). */
  readonly wrote: 'nothing' | 'something';
}

const noteText = (data: unknown): string | null => {
  const text = typeof data === 'object' && data !== null ? (data as { text?: unknown }).text : undefined;
  return typeof text === 'string' && text.trim() !== '' ? text : null;
};

/** The own extension's lines in the step, oldest first, with their notes of custom type `type`. */
export function noteLinesOf(facts: readonly StampedFact[], type: string): NoteLine[] {
  const lines: NoteLine[] = [];
  // The newest move or reopen that no line has followed yet.
  let anchor: 'moved' | 'reopened' | null = null;
  for (const fact of facts) {
    if (fact.kind === 'navigated') anchor = 'moved';
    else if (fact.kind === 'reopened') anchor = 'reopened';
    else if (fact.kind === 'new-session' || fact.kind === 'forked' || fact.kind === 'own-ran') anchor = null;
    if (fact.kind !== 'own-line') continue;
    const onBranch = noteText(fact.custom.onBranch[type]);
    const offBranch = (fact.custom.offBranch[type] ?? []).map(noteText).filter((text): text is string => text !== null);
    lines.push({
      ...ranUnder(fact),
      text: fact.text,
      onBranch,
      offBranch,
      firstAfter: anchor !== null && fact.custom.appended === 0 ? [anchor] : [],
      otherNote: offBranch.some((text) => text !== onBranch),
      wrote: fact.custom.appended === 0 ? 'nothing' : 'something',
    });
    anchor = null;
  }
  return lines;
}

/**
 * Whose note a line names: this branch's (and no other note), a note that lies only off the
 * branch, or neither (it named none, or the branch has a note it did not name). A note that is
 * part of this branch's own cannot be told apart from it in the text, so it does not count.
 */
export function saysOfLine(line: NoteLine): 'this-branch' | 'another-branch' | null {
  const { onBranch, text } = line;
  const others = line.offBranch.filter((note) => note !== onBranch && !(onBranch?.includes(note) ?? false));
  if (others.some((note) => text.includes(note))) return 'another-branch';
  return onBranch !== null && text.includes(onBranch) ? 'this-branch' : null;
}
