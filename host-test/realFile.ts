/**
 * The real host's session file as another process would find it (Bun): its seed desk lines, and
 * the Compare a new process opening it would show. The file is copied first: opening may rewrite
 * what it opens (a migration), and the running processes must keep theirs as they left it.
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs';
import type { HostEntry } from '../extension/ompApi';
import type { BranchPair, FileView } from './hostNotes';
import { loadHost } from './omp';
import type { HostSessionManager } from './ompTypes';

const DESK = 'seed-desk-state-v1';
const isDesk = (entry: HostEntry) => entry.type === 'custom' && entry['customType'] === DESK;

/** Seed desk lines in the file on disk; null when there is no file (or a directory stands in its place). */
export function fileDeskLines(file: string | undefined): number | null {
  if (!file || !existsSync(file)) return null;
  try {
    return readFileSync(file, 'utf8').split('\n').filter((line) => line.includes(`"customType":"${DESK}"`)).length;
  } catch {
    return null;
  }
}

/** The Compare panel's two desks from one session manager: each rebuilt from its own branch (`getBranch(id)`). */
export function branchPair(sm: HostSessionManager): BranchPair {
  const newestData = (entries: readonly HostEntry[]) => entries.filter(isDesk).at(-1)?.['data'] ?? null;
  const onBranch = new Set(sm.getBranch().map((entry) => entry.id));
  const other = sm.getEntries().filter((entry) => isDesk(entry) && !onBranch.has(entry.id)).at(-1);
  return { here: newestData(sm.getBranch()), other: other ? newestData(sm.getBranch(other.id)) : null };
}

let copies = 0;
/** What a new process finds in the file now (`SessionManager.open` on a copy); null without a file. */
export async function fileView(file: string | undefined, scratch: string): Promise<FileView | null> {
  if (!file || fileDeskLines(file) === null) return null;
  mkdirSync(scratch, { recursive: true });
  const copy = `${scratch}/read-${++copies}.jsonl`;
  copyFileSync(file, copy);
  const { sdk } = await loadHost();
  const sm = await sdk.SessionManager.open(copy, scratch);
  return { ...branchPair(sm), deskEntries: sm.getEntries().filter(isDesk).length };
}
