import { parseJsonObject } from '$domain/jsonObject';
import type { DeskChange, ToolCallOutcome } from '../protocol/messages';
import type { DeskEntryCounts, Observed, StampedFact } from './facts';
import type { ChangeMatch, Count, DialogMatch, OutcomeMatch, RevisionMatch, ToolMatch } from './goalSchema';

/**
 * The facts since the step began, read once into three lists a goal condition matches against:
 * outcomes (what a line, a dialog, a call, a move… came to), tool calls, and dialogs (asked, and
 * how they were answered). A match is the earliest fact that fits; `as` names it for later parts.
 */

export interface OutcomeFact {
  readonly seq: number;
  readonly kind: OutcomeMatch['kind'];
  readonly path: NonNullable<OutcomeMatch['path']> | null;
  readonly code: string | null;
  readonly change: DeskChange | null;
  readonly entries: DeskEntryCounts | null;
  readonly revision: string | null;
  readonly rows: readonly string[] | null;
  readonly leafMoved: boolean | null;
  readonly behind: 'navigated' | 'another-tab' | null;
}

export interface ToolFact {
  readonly seq: number;
  readonly args: Record<string, unknown> | null;
  readonly outcome: ToolCallOutcome;
  readonly entries: DeskEntryCounts;
}

export interface DialogFact {
  readonly seq: number;
  readonly answered: 'confirm' | 'cancel' | 'none';
  readonly about: DeskChange | null;
}

/** A fact a condition matched: what `as` binds, and what a reason's `{code}`, `{op}`… are filled from. */
export interface Match {
  readonly seq: number;
  readonly revision: string | null;
  readonly values: Readonly<Record<string, string>>;
}

export function countMatches(count: Count | undefined, n: number): boolean {
  if (count === undefined) return n >= 1;
  if (typeof count === 'number') return n === count;
  return n >= (count.atLeast ?? 0) && n <= (count.atMost ?? Number.POSITIVE_INFINITY);
}

export function changeMatches(match: ChangeMatch | undefined, change: DeskChange | null): boolean {
  if (match === undefined) return true;
  if (change === null) return false;
  if (match.grant !== undefined) return change.kind === 'grant' && change.enabled === (match.grant === 'on');
  if (change.kind !== 'reservation') return false;
  const action = match.reserve !== undefined ? 'reserve' : 'release';
  const item = match.reserve ?? match.release;
  if (change.action !== action || (item !== 'any' && change.id !== item)) return false;
  return match.packets === undefined || change.packets === match.packets;
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

function outcomeOfTool(call: ToolFact): OutcomeFact | null {
  const base = { seq: call.seq, path: 'tool' as const, entries: call.entries, rows: null, leafMoved: null, behind: null };
  if (call.outcome.kind === 'failed') return { ...base, kind: 'failed', code: null, change: toolChange(call.args), revision: null };
  const details = deskDetails(call);
  if (!details) return null;
  const revision = details.revision ?? null;
  if (!details.ok) return { ...base, kind: 'refused', code: details.code ?? null, change: toolChange(call.args), revision };
  const change = toolChange(call.args);
  return change && details.scope === 'act' ? { ...base, kind: 'committed', code: null, change, revision } : null;
}

function outcomeOf(fact: StampedFact): OutcomeFact | null {
  const base = { seq: fact.seq, path: null, code: null, change: null, entries: null, revision: null, rows: null, leafMoved: null, behind: null };
  switch (fact.kind) {
    case 'answer':
      return { ...base, kind: 'answered', path: 'line', revision: fact.query.revision, rows: fact.query.rows.map((row) => row.id) };
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
    default:
      return null;
  }
}

function dialogsOf(facts: readonly StampedFact[]): DialogFact[] {
  const dialogs: { seq: number; answered: DialogFact['answered']; about: DeskChange | null }[] = [];
  let open: (typeof dialogs)[number] | null = null;
  for (const fact of facts) {
    if (fact.kind === 'dialog-opened') {
      open = { seq: fact.seq, answered: 'none', about: null };
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

const wroteMatches = (wrote: 'nothing' | 'something' | undefined, entries: DeskEntryCounts | null): boolean =>
  wrote === undefined || (entries !== null && (entries.before === entries.after) === (wrote === 'nothing'));

/** The facts of one step, and the names parts gave to the facts they matched. */
export class StepFacts {
  readonly outcomes: readonly OutcomeFact[];
  readonly tools: readonly ToolFact[];
  readonly dialogs: readonly DialogFact[];
  readonly labels = new Map<string, Match>();

  constructor(readonly observed: Observed) {
    const tools = observed.facts.flatMap((fact) => (fact.kind === 'tool' ? [{ seq: fact.seq, args: parseJsonObject(fact.args), outcome: fact.outcome, entries: fact.deskEntries }] : []));
    this.tools = tools;
    this.outcomes = [...observed.facts.map(outcomeOf), ...tools.map(outcomeOfTool)].filter((fact): fact is OutcomeFact => fact !== null).sort((a, b) => a.seq - b.seq);
    this.dialogs = dialogsOf(observed.facts);
  }

  /** The Interactive UI switch when the fact at `seq` happened: its last change before it in this step, else now if the step never touched it. */
  interactiveAt(seq: number): boolean | null {
    const changes = this.observed.facts.filter((fact): fact is Extract<StampedFact, { kind: 'interactive' }> => fact.kind === 'interactive');
    const before = changes.filter((change) => change.seq < seq).at(-1);
    if (before) return before.value;
    return changes.length === 0 ? this.observed.view.interactive : null;
  }

  revisionMatches(match: RevisionMatch | undefined, revision: string | null): boolean {
    if (match === undefined) return true;
    if (revision === null) return false;
    const now = this.observed.view.revision;
    if (match === 'current') return revision === now;
    if (match === 'not-current') return revision !== now;
    if ('sameAs' in match) return this.labels.get(match.sameAs)?.revision === revision;
    return this.labels.get(match.differentFrom)?.revision !== revision;
  }

  /** Placement shared by every fact condition: after/before a named fact, the UI at the time. */
  private placed(seq: number, where: { after?: string | undefined; before?: string | undefined; ui?: 'headless' | 'interactive' | undefined }): boolean {
    const after = where.after === undefined ? undefined : this.labels.get(where.after);
    const before = where.before === undefined ? undefined : this.labels.get(where.before);
    if (where.after !== undefined && (after === undefined || seq <= after.seq)) return false;
    if (where.before !== undefined && (before === undefined || seq >= before.seq)) return false;
    return where.ui === undefined || this.interactiveAt(seq) === (where.ui === 'interactive');
  }

  /** The earliest fact among `candidates` that fits, counted against `count`; `latest` keeps only the newest of its kind. */
  private pick<F extends { seq: number }>(all: readonly F[], sameKind: (fact: F) => boolean, fits: (fact: F) => boolean, cond: { latest?: boolean | undefined; count?: Count | undefined }, match: (fact: F) => Match): Match | null {
    const pool = cond.latest ? all.filter(sameKind).slice(-1) : all;
    const found = pool.filter(fits);
    if (!countMatches(cond.count, found.length)) return null;
    const first = found[0];
    return first ? match(first) : { seq: 0, revision: null, values: {} };
  }

  outcome(cond: OutcomeMatch): Match | null {
    return this.pick(
      this.outcomes,
      (fact) => fact.kind === cond.kind,
      (fact) =>
        fact.kind === cond.kind &&
        (cond.path === undefined || fact.path === cond.path) &&
        (cond.code === undefined || fact.code === cond.code) &&
        changeMatches(cond.change, fact.change) &&
        wroteMatches(cond.wrote, fact.entries) &&
        this.revisionMatches(cond.revision, fact.revision) &&
        rowsMatch(cond.rows, fact.rows) &&
        (cond.leafMoved === undefined || fact.leafMoved === cond.leafMoved) &&
        (cond.behind === undefined || fact.behind === cond.behind) &&
        this.placed(fact.seq, cond),
      cond,
      (fact) => ({ seq: fact.seq, revision: fact.revision, values: { code: fact.code ?? '', ...entryValues(fact.entries) } }),
    );
  }

  tool(cond: ToolMatch): Match | null {
    return this.pick(
      this.tools,
      (call) => cond.op === undefined || call.args?.['op'] === cond.op,
      (call) => {
        const details = deskDetails(call);
        const approval = call.outcome.kind === 'failed' ? undefined : call.outcome.approval;
        return (
          (cond.op === undefined || call.args?.['op'] === cond.op) &&
          Object.entries(cond.args ?? {}).every(([key, value]) => JSON.stringify(call.args?.[key]) === JSON.stringify(value)) &&
          (cond.ok === undefined || details?.ok === cond.ok) &&
          (cond.scope === undefined || details?.scope === cond.scope) &&
          (cond.code === undefined || details?.code === cond.code) &&
          (cond.stopped === undefined || stoppedBy(call) === cond.stopped) &&
          (cond.approval?.policy === undefined || approval?.policy === cond.approval.policy) &&
          (cond.approval?.source === undefined || approval?.source === cond.approval.source) &&
          this.revisionMatches(cond.revision, details?.revision ?? null) &&
          this.sentFrom(cond.expectedRevision, call) &&
          wroteMatches(cond.wrote, call.entries) &&
          this.placed(call.seq, cond)
        );
      },
      cond,
      (call) => ({
        seq: call.seq,
        revision: deskDetails(call)?.revision ?? null,
        values: { code: deskDetails(call)?.code ?? '', op: String(call.args?.['op'] ?? '?'), id: String(call.args?.['id'] ?? ''), ...entryValues(call.entries) },
      }),
    );
  }

  dialog(cond: DialogMatch): Match | null {
    return this.pick(
      this.dialogs,
      () => true,
      (dialog) => (cond.answered === undefined || dialog.answered === cond.answered) && changeMatches(cond.about, dialog.about) && this.placed(dialog.seq, cond),
      cond,
      (dialog) => ({ seq: dialog.seq, revision: null, values: {} }),
    );
  }

  /** Where the revision a call sent came from. */
  private sentFrom(from: ToolMatch['expectedRevision'], call: ToolFact): boolean {
    if (from === undefined) return true;
    const sent = call.args?.['expectedRevision'];
    if (typeof sent !== 'string') return false;
    const { view, comparison } = this.observed;
    switch (from) {
      case 'queried':
        return this.tools.some((query) => query.seq < call.seq && query.args?.['op'] === 'query' && deskDetails(query)?.ok === true && deskDetails(query)?.revision === sent);
      case 'stale':
        return sent.startsWith(`${view.sessionId}:`) && sent !== view.revision;
      case 'other-branch':
        return comparison !== null && sent === comparison.right.revision;
      case 'current':
        return sent === view.revision;
    }
  }
}

function rowsMatch(match: OutcomeMatch['rows'], rows: readonly string[] | null): boolean {
  if (match === undefined) return true;
  if (rows === null) return false;
  if (match === 'some') return rows.length > 0;
  if (match === 'none') return rows.length === 0;
  return rows.length === match.length && match.every((id) => rows.includes(id));
}

const entryValues = (entries: DeskEntryCounts | null): Record<string, string> => (entries ? { before: String(entries.before), after: String(entries.after) } : {});
