import type { DeskChange, EditedVersion, ToolCallOutcome } from '../protocol/messages';
import type { RunningExtension, ToolCaller } from './facts';
import type { DeskEntryCounts, StampedFact } from './facts';
import type { OutcomeMatch } from '../../../lessons/format/goalSchema';

/**
 * The facts since the step began, read into the three lists a goal condition matches against:
 * outcomes (what a line, a dialog, a call, a move… came to), tool calls, and dialogs (asked, and
 * how they were answered). `goalFacts.ts` matches conditions against them.
 */

/** Which extension ran a fact: its kind, and for the edited one what its text was and what it was changed from. */
export interface RanUnder {
  readonly seq: number;
  readonly extension: RunningExtension;
  readonly version: EditedVersion | null;
}

export interface OutcomeFact extends RanUnder {
  readonly kind: OutcomeMatch['kind'];
  readonly path: NonNullable<OutcomeMatch['path']> | null;
  readonly code: string | null;
  readonly change: DeskChange | null;
  readonly entries: DeskEntryCounts | null;
  readonly revision: string | null;
  readonly rows: readonly string[] | null;
  readonly leafMoved: boolean | null;
  readonly behind: 'navigated' | 'another-tab' | null;
  readonly validAfter: boolean | null;
  /** answered: reserved packets per item, as the answer listed them. */
  readonly reserved: Readonly<Record<string, number>> | null;
  /** A dialog's answer: a Meanwhile action landed while that dialog waited. */
  readonly raced: boolean | null;
}

export interface ToolFact extends RanUnder {
  readonly by: ToolCaller;
  readonly args: Record<string, unknown> | null;
  readonly outcome: ToolCallOutcome;
  readonly entries: DeskEntryCounts;
}

/** `extension`, `version`: the extension that asked. */
export interface DialogFact extends RanUnder {
  readonly answered: 'confirm' | 'cancel' | 'none';
  readonly about: DeskChange | null;
}

function toolChange(args: Record<string, unknown> | null): DeskChange | null {
  const action = args?.['action'];
  if (args?.['op'] !== 'act' || (action !== 'reserve' && action !== 'release')) return null;
  const packets = args['packets'];
  return { kind: 'reservation', action, id: String(args['id']), packets: typeof packets === 'number' ? packets : String(packets) };
}

/** The desk's own answer to a call, or null when the host stopped it first. */
export function deskDetails(call: ToolFact) {
  const { outcome } = call;
  return outcome.kind === 'result' && outcome.stage === 'domain' ? outcome.details : null;
}

export function stoppedBy(call: ToolFact): 'schema' | 'approval' | 'failed' | 'none' {
  const { outcome } = call;
  if (outcome.kind === 'failed') return 'failed';
  if (outcome.kind === 'result' && outcome.stage === 'schema') return 'schema';
  if (outcome.kind === 'approval' || (outcome.kind === 'result' && outcome.stage === 'approval' && outcome.isError)) return 'approval';
  return 'none';
}

const NOTHING = { rows: null, leafMoved: null, behind: null, validAfter: null, reserved: null, raced: null } as const;

export function outcomeOfTool(call: ToolFact): OutcomeFact | null {
  const base = { ...NOTHING, seq: call.seq, extension: call.extension, version: call.version, path: 'tool' as const, entries: call.entries };
  if (call.outcome.kind === 'failed') return { ...base, kind: 'failed', code: null, change: toolChange(call.args), revision: null };
  const details = deskDetails(call);
  if (!details) return null;
  const revision = details.revision ?? null;
  if (!details.ok) return { ...base, kind: 'refused', code: details.code ?? null, change: toolChange(call.args), revision };
  const change = toolChange(call.args);
  return change && details.scope === 'act' ? { ...base, kind: 'committed', code: null, change, revision } : null;
}

/** The extension a fact was stamped with (absent: the shipped one). */
export function ranUnder(fact: StampedFact): RanUnder {
  return { seq: fact.seq, extension: fact.extension ?? 'shipped', version: fact.extension === 'edited' ? (fact.version ?? null) : null };
}

export function outcomeOf(fact: StampedFact): OutcomeFact | null {
  const base = { ...NOTHING, ...ranUnder(fact), path: null, code: null, change: null, entries: null, revision: null };
  switch (fact.kind) {
    case 'answer':
      return {
        ...base,
        kind: 'answered',
        path: 'line',
        revision: fact.query.revision,
        rows: fact.query.rows.map((row) => row.id),
        reserved: Object.fromEntries(fact.query.rows.map((row) => [row.id, row.reserved])),
      };
    case 'said':
      return { ...base, kind: 'said', path: 'line' };
    case 'cancelled':
      return { ...base, kind: 'cancelled', path: 'dialog', change: fact.change };
    case 'committed':
      return { ...base, kind: 'committed', path: fact.via === 'twin' ? 'another-tab' : fact.via, change: fact.change };
    case 'refused':
      return { ...base, kind: 'refused', path: fact.via, code: fact.code, change: fact.change, entries: fact.deskEntries };
    case 'storage-failed':
      return { ...base, kind: 'failed', path: 'dialog' };
    case 'meanwhile':
      return { ...base, kind: 'meanwhile', path: 'meanwhile' };
    case 'navigated':
      return { ...base, kind: 'moved' };
    case 'reopened':
      return { ...base, kind: 'reopened', leafMoved: fact.from !== fact.to, behind: fact.behind === null ? null : fact.behind.navigated ? 'navigated' : 'another-tab' };
    case 'new-session':
      return { ...base, kind: 'new-session' };
    case 'forked':
      return { ...base, kind: 'forked' };
    case 'foreign-append':
      return { ...base, kind: 'from-another-tab', path: 'another-tab' };
    case 'corrupted':
      return { ...base, kind: 'corrupted', validAfter: fact.validAfter };
    case 'own-ran':
      return { ...base, kind: 'own-ran' };
    default:
      return null;
  }
}

/** The seqs of the dialog answers a Meanwhile action came before, while their dialog waited. */
export function racedAnswers(facts: readonly StampedFact[]): ReadonlySet<number> {
  const raced = new Set<number>();
  let open = false;
  let meanwhile = false;
  for (const fact of facts) {
    if (fact.kind === 'dialog-opened') [open, meanwhile] = [true, false];
    else if (fact.kind === 'meanwhile') meanwhile ||= open;
    else if (open && (fact.kind === 'cancelled' || fact.kind === 'storage-failed' || ((fact.kind === 'committed' || fact.kind === 'refused') && fact.via === 'dialog'))) {
      if (meanwhile) raced.add(fact.seq);
      [open, meanwhile] = [false, false];
    }
  }
  return raced;
}

export function dialogsOf(facts: readonly StampedFact[]): DialogFact[] {
  const dialogs: (RanUnder & { answered: DialogFact['answered']; about: DeskChange | null })[] = [];
  let open: (typeof dialogs)[number] | null = null;
  for (const fact of facts) {
    if (fact.kind === 'dialog-opened') {
      open = { ...ranUnder(fact), answered: 'none', about: null };
      dialogs.push(open);
      continue;
    }
    if (!open) continue;
    if (fact.kind === 'cancelled') open.answered = 'cancel';
    else if ((fact.kind === 'committed' || fact.kind === 'refused') && fact.via === 'dialog') open.answered = 'confirm';
    else if (fact.kind === 'storage-failed') open.answered = 'confirm';
    else continue;
    if (fact.kind !== 'storage-failed') open.about = fact.change;
    open = null;
  }
  return dialogs;
}
