import type { JsonObject } from '../jsonObject';
import { clip, describeKind, type LineNote } from './importReport';

/**
 * The import's repairs of the entry tree, as the host reads a file: parents it cannot follow
 * become roots, the last line with an id wins, and a loop of parents is cut. Each repair is
 * reported as a note.
 */

/** A line that will become an entry, with where it came from. */
export interface Candidate {
  readonly line: number;
  readonly raw: JsonObject;
  /** True once the import changed the entry, so the line no longer says what it is. */
  changed: boolean;
}

/**
 * The host walks up only while `parentId` is truthy: a missing, empty or non-string parent makes
 * a root. A self-parent is a root in its tree too (its getBranch would loop forever). All become
 * null, the one form every reader of the export agrees on.
 */
export function normalizeParent(raw: JsonObject, line: number, warnings: LineNote[]): boolean {
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

/** The lines kept, and each kept id's position among them (the map `linkParents` looks parents up in). */
export interface KeptLines {
  readonly kept: Candidate[];
  readonly positionOf: ReadonlyMap<string, number>;
}

/**
 * Host `_buildIndex`: a later line with the same id replaces the earlier one, so only the last is
 * kept. The map of ids it builds is the kept lines' positions when no id repeats (the usual file),
 * so the parents are looked up in it: one map of 100k ids per import, not two (issue 38).
 */
export function lastLineWins(candidates: readonly Candidate[], skipped: LineNote[]): KeptLines {
  const lastAt = new Map<string, number>();
  candidates.forEach((candidate, at) => lastAt.set(candidate.raw['id'] as string, at));
  if (lastAt.size === candidates.length) return { kept: [...candidates], positionOf: lastAt };
  const kept: Candidate[] = [];
  candidates.forEach((candidate, at) => {
    const id = candidate.raw['id'] as string;
    const last = lastAt.get(id) as number;
    if (last === at) kept.push(candidate);
    else skipped.push({ line: candidate.line, reason: `id "${clip(id)}" is used again on line ${(candidates[last] as Candidate).line}, and the last line with an id wins, as in the host` });
  });
  skipped.sort((a, b) => a.line - b.line);
  const positionOf = new Map<string, number>();
  kept.forEach((candidate, at) => positionOf.set(candidate.raw['id'] as string, at));
  return { kept, positionOf };
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
export function linkParents({ kept, positionOf }: KeptLines, warnings: LineNote[]): void {
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
