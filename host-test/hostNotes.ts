/**
 * What the real host showed at a step beyond the compared trace: never compared between the two
 * hosts (the page has no such file, log or second process), read by the assertions of the declared
 * steps (declared.ts), which say what OMP 18.2.3 did there.
 */
import type { StepTrace } from './script';
import type { ReportedFailure } from './storageFault';

/** A Compare as one process sees it: the newest seed desk data on its branch, and on the branch of the newest one off it (null: none). */
export interface BranchPair {
  readonly here: unknown;
  readonly other: unknown;
}

/** The session file as a new process reads it (a fresh SessionManager on a copy, its leaf on the last line). */
export interface FileView extends BranchPair {
  /** Seed desk entries in the file, whatever their branch. */
  readonly deskEntries: number;
}

export interface HostNote {
  /** Seed desk lines in the session file on disk after the step; null: no file. */
  readonly fileDeskLines: number | null;
  /** While a write fault watches the session: the failures the host reported and its log lines about them. */
  readonly persistence?: { readonly reported: readonly ReportedFailure[]; readonly logged: readonly string[] };
  /**
   * The other tab (a second process): whether it found the session's file and so holds the same
   * session, and its own Compare after its reservation.
   */
  readonly twin?: { readonly found: boolean; readonly sameSession: boolean; readonly view: BranchPair };
  /** The session file after the step, as a new process opens it; null: no file. */
  readonly file?: FileView | null;
}

export type NotedStep = StepTrace & { readonly host?: HostNote };

export interface NotedTrace {
  readonly script: string;
  readonly omitted: readonly string[];
  readonly steps: NotedStep[];
}
