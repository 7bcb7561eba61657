/**
 * What `/seeds` did, as data: the command handler's return value. The real OMP ignores a
 * handler's return (host-test proves it), so this changes nothing there; a host that wants facts
 * rather than text (the playground's worker) reads it instead of parsing what `notify` said.
 */
import type { HumanChange } from '../domain/humanChange';
import type { RefusalCode } from '../domain/refusal';

/** A human change as it was asked for (the domain's shape); `packets` stays the typed text when it is not a whole number. */
export type SeedsChange = HumanChange;

export interface QueryRow {
  readonly id: string;
  readonly available: number;
  readonly reserved: number;
}

export type SeedsOutcome =
  | { readonly kind: 'usage' }
  | { readonly kind: 'answer'; readonly revision: string; readonly rows: readonly QueryRow[] }
  /** `change`: present when the refusal came after the arguments were understood. */
  | { readonly kind: 'refused'; readonly code: RefusalCode; readonly change: SeedsChange | null }
  | { readonly kind: 'cancelled'; readonly change: SeedsChange; readonly revision: string }
  | { readonly kind: 'committed'; readonly change: SeedsChange; readonly revision: string };
