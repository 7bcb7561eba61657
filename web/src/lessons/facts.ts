import type { ComparisonView, DeskChange, HostView, ToolCallOutcome, TreeRowView } from '../protocol/messages';

/**
 * What the learner did, as the page saw it happen. Checkpoints read these (only the ones since
 * their step began) together with the current view: pure data, so every checkpoint is a pure
 * function that unit tests can feed by hand.
 */
export type Fact =
  | { readonly kind: 'answer'; readonly text: string }
  | { readonly kind: 'said'; readonly text: string }
  | { readonly kind: 'dialog-opened'; readonly change: DeskChange }
  | { readonly kind: 'cancelled'; readonly change: DeskChange }
  | { readonly kind: 'committed'; readonly change: DeskChange | null; readonly via: 'dialog' | 'meanwhile' | 'twin' }
  | { readonly kind: 'refused'; readonly code: string; readonly via: 'dialog' | 'line' | 'compare' }
  | { readonly kind: 'tool'; readonly args: string; readonly outcome: ToolCallOutcome }
  | { readonly kind: 'meanwhile'; readonly what: 'reserve' | 'step-back' }
  | { readonly kind: 'navigated'; readonly entryId: string }
  | { readonly kind: 'reopened' }
  | { readonly kind: 'new-session' }
  | { readonly kind: 'forked' }
  | { readonly kind: 'foreign-append' }
  | { readonly kind: 'storage-failed'; readonly text: string }
  | { readonly kind: 'interactive'; readonly value: boolean }
  | { readonly kind: 'policy'; readonly value: 'allow' | 'prompt' | 'deny' }
  | { readonly kind: 'closing-answer'; readonly value: 'yes' | 'no' };

export type StampedFact = Fact & { readonly seq: number };

/** Everything a checkpoint may look at. */
export interface Observed {
  readonly view: HostView;
  /** Facts since the step began, oldest first. */
  readonly facts: readonly StampedFact[];
  readonly journalFilter: string;
  readonly comparison: ComparisonView | null;
  readonly treeRows: readonly TreeRowView[];
  readonly sessionCount: number;
}

export interface CheckResult {
  readonly done: boolean;
  /** When not done: why not yet, in a sentence that points at the next thing to do. */
  readonly whyNot: string | null;
}
