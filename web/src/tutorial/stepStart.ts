import type { ApprovalModeView, ApprovalPolicy, BranchItem, ExtensionKind, HostView } from '../protocol/messages';

/**
 * "Reset this step": the state a step began from, and the moves that bring it back. The journal
 * is append-only, so nothing is taken out of it: the session is switched back to, the leaf is put
 * back by tree moves (as the real host moves it), and the host's settings and the running
 * extension are set again. What the learner did meanwhile stays in the journal, on its own branch.
 * Pure: the page (app/actions.ts) and the simulated page (tests) each perform the moves.
 */

/** The host settings a lesson or a reset may change, and that the page names when it does. */
export interface HostSettings {
  readonly approvalMode: ApprovalModeView;
  readonly approvalPolicy: ApprovalPolicy | null;
  readonly interactive: boolean;
  readonly extension: ExtensionKind;
}

export interface StepStart extends HostSettings {
  readonly sessionId: string;
  readonly leafId: string | null;
  /** The leaf is a message the host's `/tree` re-edits (a user message, a custom message): selecting it puts the leaf on its parent. */
  readonly leafReeditable: boolean;
  /** The learner's files that ran, when the edited extension ran (null: the shipped one). */
  readonly editedFiles: Readonly<Record<string, string>> | null;
}

export type RestoreMove =
  | { readonly do: 'switch-session'; readonly sessionId: string }
  | { readonly do: 'leaf'; readonly to: string | null; readonly reeditable: boolean }
  | { readonly do: 'approval-mode'; readonly value: ApprovalModeView }
  | { readonly do: 'policy'; readonly value: ApprovalPolicy | null }
  | { readonly do: 'interactive'; readonly value: boolean }
  | { readonly do: 'run-files'; readonly files: Readonly<Record<string, string>> }
  | { readonly do: 'shipped-extension' };

/** An edited version waiting to run again after a reload counts as the edited one: the page runs it right after the first view. */
export function settingsOf(view: HostView): HostSettings {
  return {
    approvalMode: view.approvalMode,
    approvalPolicy: view.approvalPolicy,
    interactive: view.interactive,
    extension: view.extension === 'edited' || view.editedWaiting === true ? 'edited' : 'shipped',
  };
}

const REEDITABLE_ROLES = new Set(['user']);

/** Whether the leaf is an entry the host's `/tree` would not stop on (it re-edits it and stands on its parent). */
export function leafIsReeditable(view: HostView, branch: readonly BranchItem[]): boolean {
  const leaf = branch.at(-1);
  return leaf !== undefined && leaf.id === view.leafId && (REEDITABLE_ROLES.has(leaf.role) || leaf.type === 'custom_message');
}

export function stepStartOf(view: HostView, branch: readonly BranchItem[], editedFiles: Readonly<Record<string, string>> | null): StepStart {
  const settings = settingsOf(view);
  return {
    ...settings,
    sessionId: view.sessionId,
    leafId: view.leafId,
    leafReeditable: leafIsReeditable(view, branch),
    editedFiles: settings.extension === 'edited' ? (editedFiles ?? {}) : null,
  };
}

const sameFiles = (a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean =>
  Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([path, text]) => b[path] === text);

/**
 * The moves from the page as it is now back to `start`, in order: the session, then the leaf on
 * it, then the settings, then the extension. `runningFiles`: the files the edited extension now
 * runs (null when the shipped one runs). Nothing is moved that is already where it was.
 */
export function restorePlan(start: StepStart, view: HostView, runningFiles: Readonly<Record<string, string>> | null): RestoreMove[] {
  const moves: RestoreMove[] = [];
  const otherSession = view.sessionId !== start.sessionId;
  if (otherSession) moves.push({ do: 'switch-session', sessionId: start.sessionId });
  if (otherSession || view.leafId !== start.leafId) moves.push({ do: 'leaf', to: start.leafId, reeditable: start.leafReeditable });
  if (view.approvalMode !== start.approvalMode) moves.push({ do: 'approval-mode', value: start.approvalMode });
  if (view.approvalPolicy !== start.approvalPolicy) moves.push({ do: 'policy', value: start.approvalPolicy });
  if (view.interactive !== start.interactive) moves.push({ do: 'interactive', value: start.interactive });
  const now = settingsOf(view).extension;
  if (start.editedFiles === null) {
    if (now === 'edited') moves.push({ do: 'shipped-extension' });
  } else if (now !== 'edited' || runningFiles === null || !sameFiles(start.editedFiles, runningFiles)) {
    moves.push({ do: 'run-files', files: start.editedFiles });
  }
  return moves;
}

/** What "Reset this step" needs from a page: its view, and the page's own paths for each move. */
export interface StepResetDriver {
  view(): HostView | null;
  /** The files the edited extension runs now (null when the shipped one runs). */
  runningFiles(): Promise<Readonly<Record<string, string>> | null>;
  switchSession(sessionId: string): Promise<void>;
  /** The host's `/tree` selection of an entry. */
  selectEntry(entryId: string): Promise<void>;
  /** The leaf to its parent, appending nothing. */
  stepBack(): Promise<void>;
  approvalMode(value: ApprovalModeView): Promise<void>;
  policy(value: ApprovalPolicy | null): Promise<void>;
  interactive(value: boolean): Promise<void>;
  runFiles(files: Readonly<Record<string, string>>): Promise<void>;
  shipped(): Promise<void>;
}

/** How deep a walk back along the branch may go before it gives up. */
const MAX_STEPS_BACK = 500;

/**
 * The leaf back where the step began, by tree moves only (nothing is deleted): a `/tree` selection
 * of that entry; for the session's start, or a message `/tree` would re-edit (it stops on the
 * message's parent), steps back along the branch until the leaf is there. Off this branch, such a
 * message's parent is as near as a tree move gets.
 */
async function putLeafBack(driver: StepResetDriver, to: string | null, reeditable: boolean): Promise<void> {
  const leaf = (): string | null => driver.view()?.leafId ?? null;
  if (leaf() === to) return;
  if (to !== null && !reeditable) return driver.selectEntry(to);
  for (let step = 0; step < MAX_STEPS_BACK && leaf() !== to && leaf() !== null; step++) await driver.stepBack();
  if (leaf() !== to && to !== null) await driver.selectEntry(to);
}

function perform(driver: StepResetDriver, move: RestoreMove): Promise<void> {
  switch (move.do) {
    case 'switch-session':
      return driver.switchSession(move.sessionId);
    case 'leaf':
      return putLeafBack(driver, move.to, move.reeditable);
    case 'approval-mode':
      return driver.approvalMode(move.value);
    case 'policy':
      return driver.policy(move.value);
    case 'interactive':
      return driver.interactive(move.value);
    case 'run-files':
      return driver.runFiles(move.files);
    case 'shipped-extension':
      return driver.shipped();
  }
}

/** "Reset this step" on a page: the moves back to `start`, in order; the sentence naming the host settings it put back, if any. */
export async function resetStep(driver: StepResetDriver, start: StepStart): Promise<string | null> {
  const view = driver.view();
  if (!view) throw new Error('The journal is still opening.');
  const before = settingsOf(view);
  const running = before.extension === 'edited' ? await driver.runningFiles() : null;
  for (const move of restorePlan(start, view, running)) await perform(driver, move);
  const after = driver.view();
  return after ? settingsSentence(before, settingsOf(after), 'reset') : null;
}

const MODE_WORDS: Readonly<Record<ApprovalModeView, string>> = { 'always-ask': 'always-ask', write: 'write', yolo: "yolo, OMP's default" };

/**
 * One sentence naming the host settings that changed between `before` and `after`, or null when
 * none did. The lesson names its setup's changes where they happen: the lesson warns against
 * loosening approval to get past a check, so the page never changes it without a word.
 */
export function settingsSentence(before: HostSettings, after: HostSettings, by: 'setup' | 'reset'): string | null {
  const changed: string[] = [];
  if (before.approvalMode !== after.approvalMode) changed.push(`"Approval mode" set to ${MODE_WORDS[after.approvalMode]}`);
  if (before.approvalPolicy !== after.approvalPolicy) {
    changed.push(after.approvalPolicy === null ? `"Host approval for seed_desk" cleared (not set, the host's default)` : `"Host approval for seed_desk" set to ${after.approvalPolicy}`);
  }
  if (before.interactive !== after.interactive) changed.push(`"Interactive UI" switched ${after.interactive ? 'on' : 'off'}`);
  if (before.extension !== after.extension) changed.push(after.extension === 'shipped' ? 'the shipped extension runs again' : 'your edited version runs again');
  if (changed.length === 0) return null;
  const what = changed.join('; ');
  return by === 'setup' ? `This lesson's setup changed the host: ${what}.` : `Reset this step put back: ${what}.`;
}
