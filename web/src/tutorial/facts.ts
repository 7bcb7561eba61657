import type { CustomEntries } from '../protocol/outcomes';
import type { ApprovalModeView, ApprovalPolicy, BranchItem, ComparisonView, DeskChange, EditedVersion, EventLogItem, ExtensionKind, HostView, LeafBehind, QueryAnswer, ToolCallOutcome } from '../protocol/messages';

/** Who made a seed_desk call: the learner by hand, a scripted agent's run, or a real model's turn. */
export type ToolCaller = 'you' | 'careful' | 'careless' | 'model';

/** Seed desk entries in the journal just before an attempt and just after it: a refusal leaves them equal. */
export interface DeskEntryCounts {
  readonly before: number;
  readonly after: number;
}

/**
 * What the learner did, as the page saw it happen. Checkpoints read these (only the ones since
 * their step began) together with the current view: pure data, so every checkpoint is a pure
 * function that unit tests can feed by hand.
 */
export type Fact =
  /** A desk query's answer: its text as shown, and what it listed as data. */
  | { readonly kind: 'answer'; readonly text: string; readonly query: QueryAnswer }
  | { readonly kind: 'said'; readonly text: string }
  /** The extension asked `ctx.ui.confirm`; what it was about is known once it is answered. */
  | { readonly kind: 'dialog-opened'; readonly title: string }
  | { readonly kind: 'cancelled'; readonly change: DeskChange }
  | { readonly kind: 'committed'; readonly change: DeskChange | null; readonly via: 'dialog' | 'meanwhile' | 'twin' }
  /** `change`: what was asked, when the extension reported it (null for a tool call or a query). */
  | { readonly kind: 'refused'; readonly code: string; readonly via: 'dialog' | 'line' | 'compare'; readonly change: DeskChange | null; readonly deskEntries: DeskEntryCounts }
  /** `by`: who made the call (absent: the learner, by hand in the Tool call tab or the compare panel). */
  | { readonly kind: 'tool'; readonly args: string; readonly outcome: ToolCallOutcome; readonly deskEntries: DeskEntryCounts; readonly by?: ToolCaller }
  | { readonly kind: 'meanwhile'; readonly what: 'reserve' | 'step-back' }
  | { readonly kind: 'navigated'; readonly entryId: string | null }
  /** `from`/`to`: the leaf before and after; `behind`: why the leaf was off the last appended entry before. */
  | { readonly kind: 'reopened'; readonly from: string | null; readonly to: string | null; readonly behind: LeafBehind | null }
  | { readonly kind: 'new-session' }
  | { readonly kind: 'forked' }
  | { readonly kind: 'foreign-append' }
  | { readonly kind: 'storage-failed'; readonly text: string }
  | { readonly kind: 'interactive'; readonly value: boolean }
  | { readonly kind: 'policy'; readonly value: ApprovalPolicy | null }
  | { readonly kind: 'approval-mode'; readonly value: ApprovalModeView }
  | { readonly kind: 'closing-answer'; readonly value: 'yes' | 'no' }
  /** A step's own question answered (`question`: the step that asked it). */
  | { readonly kind: 'question-answer'; readonly question: string; readonly value: 'yes' | 'no' }
  /** The Refusals panel's invalid snapshot appended; `validAfter`: a valid one followed it. */
  | { readonly kind: 'corrupted'; readonly validAfter: boolean }
  /** Issue 37: "Run my version" ran the learner's own extension. */
  | { readonly kind: 'own-ran' }
  /** Issue 37: a line the learner's own extension ended: what it said, and the custom entries as it left them. */
  | { readonly kind: 'own-line'; readonly text: string; readonly custom: CustomEntries };

/** The extension the host ran: Seed Desk as shipped or edited, or the learner's own (issue 37). */
export type RunningExtension = ExtensionKind | 'own';

/**
 * A fact as the log keeps it: numbered, and stamped with the extension the host ran when the page
 * noted it (absent: the shipped one) and, for the edited one, what its text was and what it was
 * changed from, so a goal can ask under which version a refusal happened.
 */
export type StampedFact = Fact & { readonly seq: number; readonly extension?: RunningExtension; readonly version?: EditedVersion };

/** Everything a checkpoint may look at. */
export interface Observed {
  readonly view: HostView;
  /** Facts since the step began, oldest first. */
  readonly facts: readonly StampedFact[];
  /** The active branch's last entries, root side first (the conversation the page shows). */
  readonly branch: readonly BranchItem[];
  /** The host's events and notifications, oldest first. */
  readonly events: readonly EventLogItem[];
  readonly journalFilter: string;
  /** The Journal panel's lines for that filter (the session file's JSONL), as it shows them. */
  readonly journalLines: readonly string[];
  readonly comparison: ComparisonView | null;
}

export interface CheckResult {
  readonly done: boolean;
  /** When not done: why not yet, in a sentence that points at the next thing to do. */
  readonly whyNot: string | null;
}
