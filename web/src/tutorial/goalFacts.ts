import { parseJsonObject } from '$domain/jsonObject';
import type { DeskChange } from '../protocol/messages';
import type { DeskEntryCounts, Observed, StampedFact } from './facts';
import type { ChangeMatch, Count, DialogMatch, NoteMatch, OutcomeMatch, RevisionMatch, ToolMatch } from '../../../lessons/format/goalSchema';
import { noteLinesOf, saysOfLine } from './goalNotes';
import { deskDetails, dialogsOf, outcomeOf, outcomeOfTool, racedAnswers, ranUnder, stoppedBy, type DialogFact, type OutcomeFact, type RanUnder, type ToolFact } from './goalOutcomes';

export { deskDetails, stoppedBy } from './goalOutcomes';

/**
 * A goal condition matched against the facts since the step began (read into outcomes, tool
 * calls and dialogs by `goalOutcomes.ts`). A match is the earliest fact that fits; `as` names it
 * for later parts.
 */

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

const wroteMatches = (wrote: 'nothing' | 'something' | undefined, entries: DeskEntryCounts | null): boolean =>
  wrote === undefined || (entries !== null && (entries.before === entries.after) === (wrote === 'nothing'));

/** Where a fact condition places its fact (goalSchema.ts, `factPlacement`). */
interface Placement {
  after?: string | undefined;
  before?: string | undefined;
  ui?: 'headless' | 'interactive' | undefined;
  extension?: 'shipped' | 'edited' | 'own' | undefined;
  text?: 'as-shipped' | 'changed' | undefined;
  editedFrom?: 'an-edit' | 'shipped' | undefined;
}

/** One fact as the goal conditions read it: its outcome, and for a tool call the call and its outcome. */
interface ReadFact {
  readonly outcome: OutcomeFact | null;
  readonly tool: ToolFact | null;
  readonly toolOutcome: OutcomeFact | null;
}

/** A stamped fact never changes once noted (facts.svelte.ts keeps the object), so what it reads as is kept with it. */
const readFacts = new WeakMap<StampedFact, ReadFact>();

function readFact(fact: StampedFact): ReadFact {
  let read = readFacts.get(fact);
  if (read === undefined) {
    const tool = fact.kind === 'tool' ? { ...ranUnder(fact), by: fact.by ?? 'you', args: parseJsonObject(fact.args), outcome: fact.outcome, entries: fact.deskEntries } : null;
    read = { outcome: outcomeOf(fact), tool, toolOutcome: tool ? outcomeOfTool(tool) : null };
    readFacts.set(fact, read);
  }
  return read;
}

/** The facts of one step, and the names parts gave to the facts they matched. */
export class StepFacts {
  readonly outcomes: readonly OutcomeFact[];
  readonly tools: readonly ToolFact[];
  readonly dialogs: readonly DialogFact[];
  readonly labels = new Map<string, Match>();

  /** The step's switches of the Interactive UI, oldest first. */
  private readonly switches: readonly Extract<StampedFact, { kind: 'interactive' }>[];

  constructor(readonly observed: Observed) {
    // A goal is checked on every answer; each fact is read into its outcome once (readFact), so a check costs its new facts, not all of them again.
    const read = observed.facts.map(readFact);
    const tools = read.flatMap((fact) => (fact.tool ? [fact.tool] : []));
    this.tools = tools;
    const raced = racedAnswers(observed.facts);
    const outcomes: OutcomeFact[] = [];
    for (const fact of read) {
      for (const outcome of [fact.outcome, fact.toolOutcome]) if (outcome) outcomes.push(outcome.path === 'dialog' ? { ...outcome, raced: raced.has(outcome.seq) } : outcome);
    }
    // Facts come in seq order, and a fact's own outcomes share its seq: already sorted.
    this.outcomes = outcomes;
    this.dialogs = dialogsOf(observed.facts);
    this.switches = observed.facts.filter((fact): fact is Extract<StampedFact, { kind: 'interactive' }> => fact.kind === 'interactive');
  }

  /** The Interactive UI switch when the fact at `seq` happened: its last change before it in this step, else now if the step never touched it. */
  interactiveAt(seq: number): boolean | null {
    const switches = this.switches;
    if (switches.length === 0) return this.observed.view.interactive;
    let before: boolean | null = null;
    for (const change of switches) {
      if (change.seq >= seq) break;
      before = change.value;
    }
    return before;
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

  /** Placement shared by every fact condition: after/before a named fact, the UI and the extension at the time. */
  private placed({ seq, extension, version }: RanUnder, where: Placement): boolean {
    if (where.extension !== undefined && extension !== where.extension) return false;
    // The shipped extension's text is the shipped one; it was edited from nothing.
    if (where.text !== undefined && (version?.text ?? 'as-shipped') !== where.text) return false;
    if (where.editedFrom !== undefined && version?.editedFrom !== where.editedFrom) return false;
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
        (cond.validAfter === undefined || fact.validAfter === cond.validAfter) &&
        (cond.raced === undefined || fact.raced === cond.raced) &&
        reservedMatches(cond.reserved, fact.reserved) &&
        this.placed(fact, cond),
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
          (cond.argsOtherThan === undefined || Object.entries(cond.argsOtherThan).some(([key, value]) => JSON.stringify(call.args?.[key]) !== JSON.stringify(value))) &&
          (cond.by === undefined || cond.by.includes(call.by)) &&
          (cond.then === undefined || this.nextOf(call) === cond.then) &&
          (cond.agentEnabled === undefined || details?.agentEnabled === cond.agentEnabled) &&
          (cond.ok === undefined || details?.ok === cond.ok) &&
          (cond.scope === undefined || details?.scope === cond.scope) &&
          (cond.code === undefined || details?.code === cond.code) &&
          (cond.stopped === undefined || stoppedBy(call) === cond.stopped) &&
          (cond.approval?.policy === undefined || approval?.policy === cond.approval.policy) &&
          (cond.approval?.source === undefined || approval?.source === cond.approval.source) &&
          (cond.approval?.tier === undefined || approval?.tier === cond.approval.tier) &&
          this.revisionMatches(cond.revision, details?.revision ?? null) &&
          (cond.revisionInText === undefined || revisionInText(call) === cond.revisionInText) &&
          (cond.items === undefined || rowsMatch(cond.items, itemIds(call))) &&
          this.sentFrom(cond.expectedRevision, call) &&
          wroteMatches(cond.wrote, call.entries) &&
          this.placed(call, cond)
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
      (dialog) => (cond.answered === undefined || dialog.answered === cond.answered) && changeMatches(cond.about, dialog.about) && this.placed(dialog, cond),
      cond,
      (dialog) => ({ seq: dialog.seq, revision: null, values: {} }),
    );
  }

  /** A line of the learner's own extension, read against its notes (goalNotes.ts). */
  note(cond: NoteMatch): Match | null {
    return this.pick(
      noteLinesOf(this.observed.facts, cond.type),
      () => true,
      (line) =>
        saysOfLine(line) === cond.says &&
        (cond.firstAfter === undefined || line.firstAfter.includes(cond.firstAfter)) &&
        (cond.otherNote === undefined || line.otherNote === cond.otherNote) &&
        (cond.wrote === undefined || line.wrote === cond.wrote) &&
        this.placed(line, cond),
      cond,
      (line) => ({ seq: line.seq, revision: null, values: { note: line.onBranch ?? '' } }),
    );
  }

  /** What the same caller did after `call`: a query, another call, or nothing yet. */
  private nextOf(call: ToolFact): 'query' | 'other' | 'nothing' {
    const next = this.tools.find((later) => later.seq > call.seq && later.by === call.by);
    if (!next) return 'nothing';
    return next.args?.['op'] === 'query' ? 'query' : 'other';
  }

  /** Where the revision a call sent came from. */
  private sentFrom(from: ToolMatch['expectedRevision'], call: ToolFact): boolean {
    if (from === undefined) return true;
    if (from === 'not-last-query') return !this.sentFrom('last-query', call);
    const sent = call.args?.['expectedRevision'];
    if (typeof sent !== 'string') return false;
    const { view, comparison } = this.observed;
    if (typeof from === 'object') return this.labels.get(from.sameAs)?.revision === sent;
    switch (from) {
      case 'queried':
        return this.tools.some((query) => query.seq < call.seq && query.args?.['op'] === 'query' && deskDetails(query)?.ok === true && deskDetails(query)?.revision === sent);
      case 'last-query': {
        // The newest successful query before it, by anyone: an agent's own, when it just queried.
        const last = this.tools.filter((query) => query.seq < call.seq && query.args?.['op'] === 'query' && deskDetails(query)?.ok === true).at(-1);
        return last !== undefined && deskDetails(last)?.revision === sent;
      }
      case 'stale':
        return sent.startsWith(`${view.sessionId}:`) && sent !== view.revision;
      case 'other-branch':
        return comparison !== null && sent === comparison.right.revision;
      case 'current':
        return sent === view.revision;
    }
  }
}

/** The text a model gets ends with `revision: <details.revision>`. */
function revisionInText(call: ToolFact): boolean {
  const { outcome } = call;
  const revision = deskDetails(call)?.revision;
  return outcome.kind === 'result' && revision !== undefined && outcome.text.trimEnd().split('\n').at(-1) === `revision: ${revision}`;
}

/** The ids a query's answer listed (`details.data.items`), or null when it listed none at all. */
function itemIds(call: ToolFact): string[] | null {
  const items = (deskDetails(call)?.data as { items?: unknown } | undefined)?.items;
  return Array.isArray(items) ? items.map((item) => String((item as { id?: unknown }).id)) : null;
}

function reservedMatches(wanted: OutcomeMatch['reserved'], reserved: Readonly<Record<string, number>> | null): boolean {
  if (wanted === undefined) return true;
  if (reserved === null) return false;
  return Object.entries(wanted).every(([id, count]) => reserved[id] !== undefined && countMatches(count, reserved[id]));
}

function rowsMatch(match: OutcomeMatch['rows'], rows: readonly string[] | null): boolean {
  if (match === undefined) return true;
  if (rows === null) return false;
  if (match === 'some') return rows.length > 0;
  if (match === 'none') return rows.length === 0;
  return rows.length === match.length && match.every((id) => rows.includes(id));
}

const entryValues = (entries: DeskEntryCounts | null): Record<string, string> => (entries ? { before: String(entries.before), after: String(entries.after) } : {});
