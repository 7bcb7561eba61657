import { asSessionId } from '$domain/ids';
import { parseJsonObject } from '$domain/jsonObject';
import { revisionOf } from '$domain/revision';
import { SEED_DESK_CUSTOM_TYPE } from '$domain/seedDeskType';
import { CHANGED_EVENT, type ApprovalResolutionView, type ComparisonView, type DeskChange, type HostView, type ToolCallOutcome, type ToolDetailsView } from '../protocol/messages';
import type { CheckResult, DeskEntryCounts, Fact, Observed, StampedFact } from './facts';
import type { LessonStep } from './schema';

/**
 * One pure predicate per lesson step. Each reads the current view (what the desk really holds
 * now) AND the facts since its step began (what the learner did to get there), so a state that
 * merely happens to look right — reached by confirming instead of cancelling, by a revision no
 * query returned, in the same tab instead of another — does not tick. A check that fails says
 * what is missing and what to do next.
 */
export type Checkpoint = (observed: Observed) => CheckResult;

const DONE: CheckResult = { done: true, whyNot: null };
const notYet = (whyNot: string): CheckResult => ({ done: false, whyNot: `Not yet: ${whyNot}` });


// ---- reading the view ----

type RowId = HostView['rows'][number]['id'];

function rowOf(view: HostView, id: RowId): { reserved: number; available: number; packets: number } {
  const row = view.rows.find((candidate) => candidate.id === id);
  return row ? { reserved: row.reserved, available: row.available, packets: row.packets } : { reserved: 0, available: 0, packets: 0 };
}

/** Seed desk entries on the active branch (the view's branch list holds the last 400 entries). */
function deskEntriesOnBranch(observed: Observed): number {
  return observed.branch.filter((item) => item.role === 'seed-desk').length;
}

/** True when the journal holds a seed desk entry that is not on the active branch: a sibling exists. */
function hasDeskEntryElsewhere(observed: Observed): boolean {
  return observed.view.seedDeskEntryCount > deskEntriesOnBranch(observed);
}

function reservedIn(side: ComparisonView['left'], id: RowId): number {
  return side.rows.find((row) => row.id === id)?.reserved ?? 0;
}

// ---- reading the facts ----

type FactOf<K extends Fact['kind']> = Extract<StampedFact, { kind: K }>;

function factsOf<K extends Fact['kind']>(observed: Observed, kind: K): FactOf<K>[] {
  return observed.facts.filter((fact): fact is FactOf<K> => fact.kind === kind);
}

const after = <T extends { seq: number }>(facts: readonly T[], seq: number): T[] => facts.filter((fact) => fact.seq > seq);
const last = <T>(items: readonly T[]): T | undefined => items[items.length - 1];

function isReservation(change: DeskChange | null, action: 'reserve' | 'release', id?: RowId): change is Extract<DeskChange, { kind: 'reservation' }> {
  return change !== null && change.kind === 'reservation' && change.action === action && (id === undefined || change.id === id);
}

function isGrant(change: DeskChange | null, enabled: boolean): boolean {
  return change !== null && change.kind === 'grant' && change.enabled === enabled;
}

/** Human commits made through a confirmation dialog (not the meanwhile button, not another tab). */
function dialogCommits(observed: Observed): FactOf<'committed'>[] {
  return factsOf(observed, 'committed').filter((fact) => fact.via === 'dialog');
}

/** What a query answer listed for `id`, or null when it did not list that item. */
function itemIn(answer: FactOf<'answer'>, id: RowId): { available: number; reserved: number } | null {
  return answer.query.rows.find((row) => row.id === id) ?? null;
}

/** Answers that list the desk (a `/seeds query`), as opposed to a family filter that matched nothing. */
function deskAnswers(observed: Observed): FactOf<'answer'>[] {
  return factsOf(observed, 'answer').filter((fact) => fact.query.rows.length > 0);
}

interface ToolCall {
  readonly seq: number;
  readonly args: Record<string, unknown> | null;
  readonly outcome: ToolCallOutcome;
  readonly deskEntries: DeskEntryCounts;
}

function toolCalls(observed: Observed): ToolCall[] {
  return factsOf(observed, 'tool').map((fact) => ({ seq: fact.seq, args: parseJsonObject(fact.args), outcome: fact.outcome, deskEntries: fact.deskEntries }));
}

/** A refusal must leave the journal's seed desk entries exactly as they were. */
const wroteNothing = (attempt: { readonly deskEntries: DeskEntryCounts }): boolean => attempt.deskEntries.before === attempt.deskEntries.after;

function entriesChanged(attempt: { readonly deskEntries: DeskEntryCounts }): CheckResult {
  const { before, after: afterwards } = attempt.deskEntries;
  return notYet(`the journal's seed desk entries went from ${before} to ${afterwards} during that attempt, so something besides the refusal was written (another tab?). Reset the lesson and try again.`);
}

/** How the host resolved approval for a call that got past its schema check; null when unknown. */
const approvalOf = (call: ToolCall): ApprovalResolutionView | null => (call.outcome.kind === 'result' ? (call.outcome.approval ?? null) : null);

/** The host (not the desk) stopped the call at its approval gate. */
const stoppedAtApproval = (call: ToolCall): boolean => call.outcome.kind === 'result' && call.outcome.stage === 'approval' && call.outcome.isError;

/** What the seed desk itself answered; null when the host stopped the call first (or it is still waiting). */
function deskDetails(call: ToolCall): ToolDetailsView | null {
  const { outcome } = call;
  return outcome.kind === 'result' && outcome.stage === 'domain' && !outcome.isError ? outcome.details : null;
}

function succeeded(call: ToolCall, scope: ToolDetailsView['scope']): boolean {
  const details = deskDetails(call);
  return details !== null && details.ok && details.scope === scope;
}

function refusedWith(call: ToolCall, code: string): boolean {
  const details = deskDetails(call);
  return details !== null && !details.ok && details.code === code;
}

const opOf = (call: ToolCall): unknown => call.args?.['op'];
const stringArg = (call: ToolCall, key: string): string | null => {
  const value = call.args?.[key];
  return typeof value === 'string' ? value : null;
};

/** Why a tool call never reached the desk, in learner terms; null when the desk answered it. */
function hostStopped(call: ToolCall): string | null {
  const { outcome } = call;
  if (outcome.kind === 'approval') return 'that call is waiting for host approval — press Approve in the "Host approval: seed_desk" prompt.';
  if (outcome.kind === 'failed') return `that call did not run: ${outcome.text}`;
  if (outcome.stage === 'schema') return "the host's schema check rejected those arguments, so the seed desk never saw them — check the field names and types.";
  if (outcome.stage === 'approval') return 'the host blocked that call before the seed desk saw it — set "Host approval for seed_desk" to not set and "Approval mode" to yolo.';
  return null;
}

/**
 * The value of a page switch when the fact at `seq` happened: the last change of it before
 * `seq` in this step, else the view's value if the step never touched it; null when unknown.
 */
function switchAt<T>(seq: number, changes: readonly { seq: number; value: T }[], now: T): T | null {
  const before = changes.filter((change) => change.seq < seq);
  const latest = last(before);
  if (latest) return latest.value;
  return changes.length === 0 ? now : null;
}

const interactiveAt = (observed: Observed, seq: number): boolean | null =>
  switchAt(seq, factsOf(observed, 'interactive'), observed.view.interactive);


// ---- lesson 1: a confirmed human reservation ----

const queryDesk: Checkpoint = (observed) => {
  const answer = last(deskAnswers(observed));
  if (!answer) {
    if (factsOf(observed, 'said').length > 0) return notYet('that went into the conversation as a message. Commands start with a slash: type `/seeds query`.');
    if (factsOf(observed, 'answer').length > 0) return notYet('that family has no items, so no desk came back. Type `/seeds query` without a family.');
    return notYet('no query has answered yet. Type `/seeds query` in the command line and press Enter.');
  }
  const revision = answer.query.revision;
  if (revision !== observed.view.revision) {
    return notYet(`the desk changed after your query (it said ${revision ?? '?'}, the branch is now at ${observed.view.revision}). Query again so the numbers and revision are current.`);
  }
  return DONE;
};

const cancelBeforeCommit: Checkpoint = (observed) => {
  const basil = rowOf(observed.view, 'basil-genovese');
  if (dialogCommits(observed).some((fact) => isReservation(fact.change, 'reserve', 'basil-genovese'))) {
    return notYet(`you confirmed, so the reservation was appended and basil now shows ${basil.reserved} reserved. This step is about Cancel: reset the lesson and press Cancel in the dialog.`);
  }
  const cancelled = factsOf(observed, 'cancelled');
  if (!cancelled.some((fact) => isReservation(fact.change, 'reserve', 'basil-genovese'))) {
    if (cancelled.length > 0) return notYet('you cancelled a different request. Type `/seeds reserve basil-genovese 2`, then press Cancel.');
    if (factsOf(observed, 'dialog-opened').length > 0) return notYet('the dialog is open and waiting. Press Cancel.');
    return notYet('no reservation dialog has been cancelled. Type `/seeds reserve basil-genovese 2`, then press Cancel.');
  }
  if (basil.reserved !== 0) return notYet(`basil shows ${basil.reserved} reserved; a cancelled request should leave it at 0. Reset the lesson to start clean.`);
  return DONE;
};

const confirmReservation: Checkpoint = (observed) => {
  const basil = rowOf(observed.view, 'basil-genovese');
  if (!dialogCommits(observed).some((fact) => isReservation(fact.change, 'reserve', 'basil-genovese'))) {
    if (factsOf(observed, 'cancelled').some((fact) => isReservation(fact.change, 'reserve', 'basil-genovese'))) {
      return notYet(`the reservation was cancelled, so basil still shows ${basil.reserved} reserved — run it again and press Confirm this time.`);
    }
    if (factsOf(observed, 'dialog-opened').length > 0) return notYet('the dialog is waiting for you. Press Confirm.');
    return notYet('no basil reservation has been confirmed. Type `/seeds reserve basil-genovese 2` and press Confirm.');
  }
  if (basil.reserved !== 2 || basil.available !== 6) {
    return notYet(`basil shows ${basil.reserved} reserved and ${basil.available} available; this step expects 2 reserved and 6 available. Reset the lesson if the count went astray.`);
  }
  return DONE;
};

const raceRefused: Checkpoint = (observed) => {
  const bean = rowOf(observed.view, 'bean-scarlet');
  const opened = factsOf(observed, 'dialog-opened');
  if (opened.length === 0) return notYet('start a bean reservation and leave its dialog open: type `/seeds reserve bean-scarlet 2`.');
  if (dialogCommits(observed).some((fact) => isReservation(fact.change, 'reserve', 'bean-scarlet'))) {
    return notYet(`Confirm went through because nothing changed while the dialog waited, so bean-scarlet now holds ${bean.reserved}. Reset the lesson, and this time press a "Meanwhile" button before Confirm.`);
  }
  if (factsOf(observed, 'committed').some((fact) => fact.change?.kind === 'reservation' && fact.change.id === 'basil-genovese')) {
    return notYet('a basil reservation was written during the race, but this race is about the waiting bean decision and should leave basil alone. Reset the lesson and use a Meanwhile button instead.');
  }
  const stale = opened.flatMap((open) => {
    const first = after(factsOf(observed, 'meanwhile'), open.seq)[0];
    return first === undefined ? [] : after(factsOf(observed, 'refused'), first.seq).filter((fact) => fact.via === 'dialog' && fact.code === 'stale-revision' && isReservation(fact.change, 'reserve', 'bean-scarlet'));
  });
  const refusal = stale[0];
  if (!refusal) {
    const anyMeanwhile = opened.some((open) => after(factsOf(observed, 'meanwhile'), open.seq).length > 0);
    if (!anyMeanwhile) return notYet('while the bean dialog is still open, press "Meanwhile: move to the previous entry" (or "Meanwhile: reserve 1 marigold-french"), and only then Confirm.');
    if (factsOf(observed, 'cancelled').some((fact) => isReservation(fact.change, 'reserve', 'bean-scarlet'))) {
      return notYet('you cancelled, so the revision check never ran. Open the bean dialog again, press a Meanwhile button, then Confirm.');
    }
    return notYet('something changed while the dialog waited; now press Confirm and watch the decision be checked again.');
  }
  if (!stale.some(wroteNothing)) return entriesChanged(refusal);
  if (bean.reserved !== 0) return notYet(`bean-scarlet shows ${bean.reserved} reserved; the refused confirmation should have left it at 0.`);
  return DONE;
};

const basilExercise: Checkpoint = (observed) => {
  const basil = rowOf(observed.view, 'basil-genovese');
  if (dialogCommits(observed).some((fact) => isReservation(fact.change, 'release', 'basil-genovese'))) {
    return notYet(`you confirmed the release, so basil went down to ${basil.reserved} reserved. Here Cancel is the point: reset the lesson and cancel the release dialog.`);
  }
  const reserved = last(dialogCommits(observed).filter((fact) => isReservation(fact.change, 'reserve', 'basil-genovese')));
  if (!reserved) {
    if (factsOf(observed, 'refused').some((fact) => fact.code === 'insufficient-reservation')) {
      return notYet('the release was refused: basil holds nothing here yet. Reserve two first with `/seeds reserve basil-genovese 2` and Confirm.');
    }
    return notYet('reserve two basil packets: `/seeds reserve basil-genovese 2`, then Confirm.');
  }
  if (!after(factsOf(observed, 'cancelled'), reserved.seq).some((fact) => isReservation(fact.change, 'release', 'basil-genovese'))) {
    return notYet('two are reserved; now ask to give one back with `/seeds release basil-genovese 1` and press Cancel in the dialog.');
  }
  if (basil.reserved !== 2 || basil.available !== 6) {
    if (basil.reserved > 2) {
      return notYet(`basil shows ${basil.reserved} reserved, not exactly 2: this branch already held basil before the exercise. Press "New session" (or Reset lesson), then reserve two and cancel a release.`);
    }
    return notYet(`basil shows ${basil.available} available and ${basil.reserved} reserved; the exercise ends at exactly 6 available, 2 reserved. Reset the lesson to start clean.`);
  }
  return DONE;
};

// ---- lesson 2: the agent grant and the tool ----

/** An act turned away with agent-disabled, writing nothing: before any grant, or after a revoke. */
function actRefusedWithoutGrant(afterRevoke: boolean): Checkpoint {
  return (observed) => {
    const calls = toolCalls(observed);
    const acts = calls.filter((call) => opOf(call) === 'act');
    const refusal = acts.find((act) => refusedWith(act, 'agent-disabled'));
    if (afterRevoke && observed.view.seedDeskEntryCount === 0) {
      return notYet('this session never had a grant to take back. Do the previous step: switch the agent on, then off, confirming both.');
    }
    if (!refusal) {
      const lastAct = last(acts);
      if (lastAct) {
        const stopped = hostStopped(lastAct);
        if (stopped) return notYet(stopped);
        if (succeeded(lastAct, 'act')) return notYet('that act went through, so the agent is on here. This step needs it off: reset the lesson.');
        const code = deskDetails(lastAct)?.code;
        return notYet(`the act was refused with ${code ?? 'an error'}, not agent-disabled. Query, then act with exactly the revision the query returned.`);
      }
      if (calls.some((call) => succeeded(call, 'query'))) return notYet('now act: reserve one bean with the revision that query returned ("Use latest revision" copies it in).');
      return notYet('call {"op":"query"} first, then act with the revision it returns.');
    }
    if (!wroteNothing(refusal)) return entriesChanged(refusal);
    if (observed.view.agentEnabled) return notYet('the agent shows on now; this step is about the desk without a grant. Reset the lesson.');
    return DONE;
  };
}

const grantAgent: Checkpoint = (observed) => {
  if (!dialogCommits(observed).some((fact) => isGrant(fact.change, true))) {
    if (factsOf(observed, 'cancelled').some((fact) => isGrant(fact.change, true))) return notYet('you cancelled, so the agent stays off. Run `/seeds agent on` again and press Confirm.');
    if (toolCalls(observed).some((call) => refusedWith(call, 'agent-disabled'))) {
      return notYet('seed_desk was refused with agent-disabled: the tool cannot switch itself on. Only you can — type `/seeds agent on` and confirm.');
    }
    return notYet('type `/seeds agent on` in the command line and confirm the dialog.');
  }
  if (!observed.view.agentEnabled) return notYet('the agent shows off on this branch again. Run `/seeds agent on` and confirm.');
  return DONE;
};

const toolDiscover: Checkpoint = (observed) => {
  const calls = toolCalls(observed);
  if (calls.some((call) => opOf(call) === 'discover' && succeeded(call, 'discover'))) {
    if (!observed.view.agentEnabled) return notYet('discover answered, but the agent is off on this branch; switch it on (previous step) so act is allowed.');
    return DONE;
  }
  const latest = last(calls);
  if (latest) {
    const stopped = hostStopped(latest);
    if (stopped) return notYet(stopped);
    return notYet(`that call was ${JSON.stringify(opOf(latest) ?? '?')}; this step asks for {"op":"discover"}.`);
  }
  return notYet('in the tool panel, call seed_desk with {"op":"discover"} (the "Preset: discover" button fills it in).');
};

const toolQueryInspect: Checkpoint = (observed) => {
  const calls = toolCalls(observed);
  const query = last(calls.filter((call) => succeeded(call, 'query')));
  const inspect = calls.find((call) => succeeded(call, 'inspect'));
  if (!inspect) {
    const refused = last(calls.filter((call) => opOf(call) === 'inspect' && refusedWith(call, 'invalid-target')));
    if (refused) return notYet(`${JSON.stringify(refused.args?.['id'] ?? null)} is not an exact id, so inspect was refused with invalid-target. Copy an id from the query, such as basil-genovese.`);
    const stopped = last(calls.map(hostStopped).filter((text): text is string => text !== null));
    if (stopped) return notYet(stopped);
    if (!query) return notYet('call {"op":"query"}, then {"op":"inspect","id":"basil-genovese"}.');
    return notYet('the query worked; now look at one item with {"op":"inspect","id":"basil-genovese"}.');
  }
  if (!query) return notYet('inspect worked; also call {"op":"query"} to see every item and the revision.');
  if (deskDetails(query)?.revision !== observed.view.revision) return notYet('the desk changed after your query; query again so what you read is current.');
  return DONE;
};

const carefulAct: Checkpoint = (observed) => {
  const calls = toolCalls(observed);
  const queries = calls.filter((call) => succeeded(call, 'query'));
  const acts = calls.filter((call) => opOf(call) === 'act');
  const grounded = acts.find((act) => {
    if (!succeeded(act, 'act') || stringArg(act, 'action') !== 'reserve') return false;
    const sent = stringArg(act, 'expectedRevision');
    return queries.some((query) => query.seq < act.seq && deskDetails(query)?.revision === sent);
  });
  if (grounded) {
    const id = stringArg(grounded, 'id');
    const row = observed.view.rows.find((candidate) => candidate.id === id);
    if (!row || row.reserved < 1) return notYet(`the act went through, but ${id ?? 'the item'} shows nothing reserved on this branch now. Did the leaf move? Query again.`);
    return DONE;
  }
  const lastAct = last(acts);
  if (lastAct && succeeded(lastAct, 'act')) {
    return notYet("the act went through, but its expectedRevision is not one a query returned in this step (copied from the status line or another call?). Query first, then send exactly the revision that query returned.");
  }
  if (lastAct) {
    const stopped = hostStopped(lastAct);
    if (stopped) return notYet(stopped);
    const code = deskDetails(lastAct)?.code;
    if (code === 'stale-revision') return notYet('the act was refused with stale-revision: the revision you sent is not the current one. Query again and use the revision it returns.');
    if (code === 'agent-disabled') return notYet('the act was refused with agent-disabled: the agent is off on this branch. Run `/seeds agent on` and confirm first.');
    return notYet(`the act was refused with ${code ?? 'an error'}. Fix the arguments (an exact id, a positive whole packet count) and try again after a fresh query.`);
  }
  if (queries.length > 0) return notYet('you queried; now act with that exact revision: {"op":"act","action":"reserve","id":"bean-scarlet","packets":1,"expectedRevision":"…"} ("Use latest revision" copies it).');
  return notYet('start with {"op":"query"}: you need its revision before you act.');
};

const staleReuse: Checkpoint = (observed) => {
  const acts = toolCalls(observed).filter((call) => opOf(call) === 'act');
  const bean = rowOf(observed.view, 'bean-scarlet');
  if (acts.some((act) => succeeded(act, 'act'))) {
    return notYet(`that act sent the current revision, so it reserved again (bean-scarlet now holds ${bean.reserved}). This step needs the OLD revision — the one your earlier query returned, before your act changed the desk.`);
  }
  const stale = acts.filter((act) => refusedWith(act, 'stale-revision') && stringArg(act, 'action') === 'reserve');
  if (stale.length === 0) {
    const lastAct = last(acts);
    const stopped = lastAct ? hostStopped(lastAct) : null;
    if (stopped) return notYet(stopped);
    return notYet('send the same reserve again with the revision from BEFORE your successful act (the query\'s revision), and watch it be refused.');
  }
  const ours = stale.some((act) => {
    const sent = stringArg(act, 'expectedRevision') ?? '';
    return sent.startsWith(`${observed.view.sessionId}:`) && sent !== observed.view.revision;
  });
  if (!ours) return notYet('that revision was refused, but it is not one this session returned (made up?). Reuse the revision your earlier query really returned.');
  if (!stale.some(wroteNothing)) return entriesChanged(stale[0] as ToolCall);
  return DONE;
};

const REFUSALS_TO_MEET = ['invalid-target', 'invalid-quantity', 'insufficient-availability'] as const;

const toolRefusals: Checkpoint = (observed) => {
  const calls = toolCalls(observed);
  const met = new Set<string>();
  for (const call of calls) {
    const details = deskDetails(call);
    // Only the desk's own refusals count: a call the host stopped never reached the desk.
    if (details && !details.ok && details.code && wroteNothing(call)) met.add(details.code);
  }
  const changed = calls.find((call) => !wroteNothing(call) && !succeeded(call, 'act'));
  if (changed) return entriesChanged(changed);
  const missing = REFUSALS_TO_MEET.filter((code) => !met.has(code));
  if (missing.length === 0) return DONE;
  const schemaStopped = calls.some((call) => call.outcome.kind === 'result' && call.outcome.stage === 'schema');
  const hint = schemaStopped ? " (A call the host's schema rejects never reaches the desk, so it carries no code: keep the types right — packets is a number.)" : '';
  return notYet(`still to meet through seed_desk: ${missing.join(', ')}.${hint}`);
};

const excessRelease: Checkpoint = (observed) => {
  const bean = rowOf(observed.view, 'bean-scarlet');
  const viaTool = toolCalls(observed).filter((call) => stringArg(call, 'action') === 'release' && refusedWith(call, 'insufficient-reservation'));
  const viaCommand = factsOf(observed, 'refused').filter((fact) => fact.code === 'insufficient-reservation');
  if (dialogCommits(observed).some((fact) => isReservation(fact.change, 'release')) || toolCalls(observed).some((call) => succeeded(call, 'act'))) {
    return notYet(`a release went through (bean-scarlet now holds ${bean.reserved}). Ask for MORE than the branch holds: 2 when it holds 1.`);
  }
  if (viaTool.length === 0) {
    const lastCall = last(toolCalls(observed));
    const stopped = lastCall ? hostStopped(lastCall) : null;
    if (stopped) return notYet(stopped);
    const code = lastCall ? deskDetails(lastCall)?.code : undefined;
    if (code === 'stale-revision') return notYet('the tool release was refused with stale-revision: query first and use the revision it returns.');
    return notYet(`through seed_desk, release 2 bean-scarlet on the latest revision: {"op":"act","action":"release","id":"bean-scarlet","packets":2,"expectedRevision":"…"}.`);
  }
  if (viaCommand.length === 0) return notYet('the tool was refused; now try the same as yourself: `/seeds release bean-scarlet 2`.');
  const changed = [...viaTool, ...viaCommand].find((attempt) => !wroteNothing(attempt));
  if (changed) return entriesChanged(changed);
  if (bean.reserved !== 1) return notYet(`bean-scarlet shows ${bean.reserved} reserved; this step expects the 1 from your careful act. Reset the lesson if it went astray.`);
  return DONE;
};

// ---- lesson 3: reconstructing the branch ----

const journalFilter: Checkpoint = (observed) => {
  const filter = observed.journalFilter;
  if (filter.length === 0) return notYet('type the state entries\' custom type into "Filter journal" (or press "Only seed desk entries").');
  if (!filter.includes(SEED_DESK_CUSTOM_TYPE)) {
    return notYet(`"${filter}" is plain text, so it also catches (or misses) conversation lines. Filter by the custom type of the state entries: ${SEED_DESK_CUSTOM_TYPE}.`);
  }
  if (observed.view.seedDeskEntryCount === 0) return notYet('the filter is right, but this journal holds no seed desk entry yet. Reset the lesson to get its prepared reservation.');
  return DONE;
};

const reopenSurvives: Checkpoint = (observed) => {
  const reopened = last(factsOf(observed, 'reopened'));
  if (!reopened) return notYet('press "Reopen session", then run `/seeds query`.');
  const answers = deskAnswers(observed);
  const afterReopen = last(after(answers, reopened.seq));
  if (!afterReopen) return notYet('reopened — now run `/seeds query` to see what came back from the journal.');
  const revision = afterReopen.query.revision;
  if (revision !== observed.view.revision) return notYet('the desk changed after your query; query again.');
  const before = last(answers.filter((answer) => answer.seq < reopened.seq));
  if (before && before.query.revision !== revision) {
    return notYet('the revision differs from your query before the reopen: the leaf was somewhere a reopen does not return to. Query, reopen and query again without moving in between.');
  }
  const basil = rowOf(observed.view, 'basil-genovese');
  if (basil.reserved !== 2) return notYet(`basil shows ${basil.reserved} reserved; this lesson starts from 2 reserved. Reset the lesson if you changed it.`);
  return DONE;
};

const rewindBeforeReservation: Checkpoint = (observed) => {
  if (factsOf(observed, 'new-session').length > 0) {
    return notYet('that started a new session, which has no history at all. Rewinding stays in this session: reset the lesson, select the entry just above the reservation in the Session tree and press "Branch from here".');
  }
  if (factsOf(observed, 'committed').length > 0) {
    return notYet('a change was appended. Rewinding appends nothing: it only moves the leaf above the reservation, which stays on its own branch. Reset the lesson and use "Branch from here".');
  }
  if (factsOf(observed, 'navigated').length === 0) return notYet('select the entry just above the basil reservation in the Session tree and press "Branch from here".');
  const basil = rowOf(observed.view, 'basil-genovese');
  if (basil.reserved !== 0) return notYet(`you moved, but basil still shows ${basil.reserved} reserved here: pick an entry ABOVE the reservation.`);
  if (!hasDeskEntryElsewhere(observed)) return notYet('the reservation should still exist on its own branch, but none is off this branch. Reset the lesson.');
  return DONE;
};

const plainMoveNotKept: Checkpoint = (observed) => {
  const moves = factsOf(observed, 'navigated');
  const first = moves[0];
  if (!first) return notYet('select the agent grant (just above the basil reservation) in the Session tree and press "Branch from here".');
  const reopen = after(factsOf(observed, 'reopened'), first.seq).find((fact) => fact.behind?.navigated === true && fact.from !== fact.to);
  if (!reopen) {
    if (after(factsOf(observed, 'committed'), first.seq).length > 0 || after(factsOf(observed, 'said'), first.seq).length > 0) {
      return notYet('something was appended where you moved, so that branch would be kept. This step is about the move alone: reset the lesson, move, and reopen without adding anything.');
    }
    if (factsOf(observed, 'reopened').length > 0) return notYet('that reopen found the leaf on the last appended entry already. Move first (Branch from here on the agent grant), then reopen.');
    return notYet(`you moved the leaf: basil shows ${rowOf(observed.view, 'basil-genovese').reserved} here. Now press "Reopen session" without adding anything.`);
  }
  if (observed.view.transientLeaf) return notYet('the leaf moved again after the reopen; press "Reopen session" once more to see where the session really stands.');
  const basil = rowOf(observed.view, 'basil-genovese');
  if (basil.reserved !== 2) return notYet(`after the reopen basil shows ${basil.reserved} reserved; it should be back on your 2. Reset the lesson.`);
  return DONE;
};

const writtenBranchKept: Checkpoint = (observed) => {
  const reopen = last(factsOf(observed, 'reopened'));
  const basil = rowOf(observed.view, 'basil-genovese');
  if (!reopen) return notYet('press "Reopen session".');
  if (reopen.from !== reopen.to) {
    return notYet('the reopen moved the leaf, so nothing had been appended where you stood (or another tab appended elsewhere). Reserve 1 basil here (previous step), then reopen.');
  }
  if (basil.reserved !== 1 || !hasDeskEntryElsewhere(observed)) {
    return notYet(`basil shows ${basil.reserved} reserved here; this step expects your 1-basil branch, beside the first branch's 2. Do the previous two steps again.`);
  }
  return DONE;
};

const siblingReservation: Checkpoint = (observed) => {
  const commit = last(dialogCommits(observed).filter((fact) => isReservation(fact.change, 'reserve', 'basil-genovese')));
  if (!commit || !isReservation(commit.change, 'reserve')) return notYet('here, before the old reservation, type `/seeds reserve basil-genovese 1` and confirm.');
  const basil = rowOf(observed.view, 'basil-genovese');
  if (basil.reserved !== commit.change.packets) {
    return notYet(`basil shows ${basil.reserved} reserved here, more than you just reserved: this branch already held packets. Go back above the first reservation (previous step), then reserve.`);
  }
  if (!hasDeskEntryElsewhere(observed)) return notYet('no seed desk entry is left on another branch, so there is no sibling to keep the 2. Reset the lesson.');
  return DONE;
};

const siblingTokenRefused: Checkpoint = (observed) => {
  const { comparison, view } = observed;
  if (!comparison) return notYet('select the original reservation in the Session tree (the entry off your branch) and press "Compare with selected".');
  if (comparison.left.revision !== view.revision) return notYet('the comparison is from an earlier position; compare again.');
  if (comparison.right.revision === comparison.left.revision || comparison.forkPointId === comparison.right.tipId) {
    return notYet('the selected entry lies on your own branch. Select the reservation on the OTHER branch, then "Compare with selected".');
  }
  const other = comparison.right.revision;
  const refused =
    factsOf(observed, 'refused').some((fact) => fact.via === 'compare' && fact.code === 'stale-revision') ||
    toolCalls(observed).some((call) => stringArg(call, 'expectedRevision') === other && refusedWith(call, 'stale-revision'));
  if (!refused) return notYet('the branches are side by side; now press "Try an act here with the other branch\'s revision".');
  const changed = [...factsOf(observed, 'refused'), ...toolCalls(observed)].find((attempt) => !wroteNothing(attempt));
  if (changed) return entriesChanged(changed);
  if (dialogCommits(observed).length > 0 || toolCalls(observed).some((call) => succeeded(call, 'act'))) {
    return notYet('something was committed on this branch during the step; the sibling\'s token alone should change nothing. Reset the lesson and try again.');
  }
  return DONE;
};

const corruptBranch: Checkpoint = (observed) => {
  const refusals = factsOf(observed, 'refused').filter((fact) => fact.code === 'corrupt-state');
  const refusal = refusals[0];
  if (!refusal) {
    if (observed.view.seedDeskEntryCount > 0 && factsOf(observed, 'navigated').length > 0) return notYet('you stepped back before meeting the refusal. Press "Try it: corrupt-state" again and run `/seeds query` on the damaged branch.');
    return notYet('in the Refusals panel press "Try it: corrupt-state", then run `/seeds query` yourself.');
  }
  if (!refusals.some(wroteNothing)) return entriesChanged(refusal);
  const answered = after(deskAnswers(observed), refusal.seq).some((answer) => answer.query.revision === observed.view.revision);
  if (!answered) return notYet('the branch is valid again; run `/seeds query` to see the desk answer here.');
  return DONE;
};

const freshSession: Checkpoint = (observed) => {
  const { view } = observed;
  const started = last(factsOf(observed, 'new-session'));
  if (!started) {
    if (factsOf(observed, 'navigated').length > 0) {
      return notYet(`moving in the tree stays in the same session: its journal still holds ${view.seedDeskEntryCount} seed desk entries and any branch inherits them. Press "New session".`);
    }
    return notYet('press "New session", then run `/seeds query`.');
  }
  if (!after(deskAnswers(observed), started.seq).some((answer) => answer.query.revision === view.revision)) {
    return notYet('a new session is open; run `/seeds query` in it to see what it starts with.');
  }
  if (view.seedDeskEntryCount !== 0 || view.rows.some((row) => row.reserved !== 0) || view.agentEnabled || view.revision !== revisionOf(asSessionId(view.sessionId), null)) {
    return notYet('the new session is no longer empty (something was reserved or switched on in it). Press "New session" again and only query.');
  }
  return DONE;
};

// ---- lesson 4: deliberate revoke, and headless ----

const revokeAgent: Checkpoint = (observed) => {
  const commits = dialogCommits(observed);
  const on = commits.find((fact) => isGrant(fact.change, true));
  if (!on) return notYet('first switch the agent on: `/seeds agent on`, then Confirm.');
  const off = after(commits, on.seq).find((fact) => isGrant(fact.change, false));
  if (!off) {
    if (after(factsOf(observed, 'cancelled'), on.seq).some((fact) => isGrant(fact.change, false))) {
      return notYet('you cancelled the switch-off, so the agent is still on. Run `/seeds agent off` again and press Confirm.');
    }
    return notYet('the agent is on; now take it back with `/seeds agent off` and confirm.');
  }
  if (observed.view.agentEnabled) return notYet('the agent shows on again on this branch; switch it off and confirm.');
  return DONE;
};

const headlessUiRequired: Checkpoint = (observed) => {
  const opened = factsOf(observed, 'dialog-opened');
  const refused = factsOf(observed, 'refused').filter((fact) => fact.via === 'line' && fact.code === 'ui-required' && interactiveAt(observed, fact.seq) === false);
  if (refused.length === 0) {
    if (opened.some((fact) => interactiveAt(observed, fact.seq) !== false)) {
      return notYet('a dialog opened because the page still has an interactive UI. Untick "Interactive UI" first, then try `/seeds agent on`.');
    }
    return notYet('untick "Interactive UI", then type `/seeds agent on`.');
  }
  if (!refused.some(wroteNothing)) return entriesChanged(refused[0] as FactOf<'refused'>);
  const reads = deskAnswers(observed).filter((answer) => interactiveAt(observed, answer.seq) === false);
  if (reads.length === 0) return notYet('the switch was refused with ui-required; now run `/seeds query` while still headless — reading needs no dialog.');
  if (observed.view.agentEnabled) return notYet('the agent shows on, but this step expects the headless attempt to change nothing. Reset the lesson.');
  return DONE;
};

const headlessReopenGrant: Checkpoint = (observed) => {
  const grant = last(dialogCommits(observed).filter((fact) => isGrant(fact.change, true)));
  if (!grant) {
    if (factsOf(observed, 'refused').some((fact) => fact.code === 'ui-required')) {
      return notYet('the grant needs a dialog, so headless it is refused. Tick "Interactive UI", run `/seeds agent on` and confirm; then untick and reopen.');
    }
    return notYet('tick "Interactive UI", run `/seeds agent on` and confirm.');
  }
  const reopens = after(factsOf(observed, 'reopened'), grant.seq);
  if (reopens.length === 0) return notYet('the grant is stored; now untick "Interactive UI" and press "Reopen session".');
  if (!reopens.some((fact) => interactiveAt(observed, fact.seq) === false)) return notYet('you reopened with the UI still on. Untick "Interactive UI" and press "Reopen session" again.');
  if (observed.view.interactive) return notYet('"Interactive UI" is ticked again; leave it unticked — the next steps run headless.');
  if (!observed.view.agentEnabled) return notYet('after the reopen the agent shows off; the grant should have come back from the journal. Reset the lesson.');
  return DONE;
};

const headlessRevokeRefused: Checkpoint = (observed) => {
  const refused = factsOf(observed, 'refused').filter((fact) => fact.code === 'ui-required' && interactiveAt(observed, fact.seq) === false);
  const first = refused[0];
  if (dialogCommits(observed).some((fact) => isGrant(fact.change, false))) {
    return notYet('a dialog let you switch the agent off, so the UI was on. This step is headless: reset the lesson and keep "Interactive UI" unticked.');
  }
  if (!first) {
    if (factsOf(observed, 'dialog-opened').length > 0) return notYet('a dialog opened: the UI is on. Untick "Interactive UI", then type `/seeds agent off`.');
    return notYet('with "Interactive UI" unticked, type `/seeds agent off`.');
  }
  if (!refused.some(wroteNothing)) return entriesChanged(first);
  if (!observed.view.agentEnabled) return notYet('the agent shows off, but a headless revoke should leave the stored grant on. Reset the lesson.');
  return DONE;
};

const headlessToolAllow: Checkpoint = (observed) => {
  const calls = toolCalls(observed);
  const acts = calls.filter((call) => opOf(call) === 'act');
  const good = acts.find((act) => succeeded(act, 'act') && interactiveAt(observed, act.seq) === false && approvalOf(act)?.policy === 'allow');
  if (good) {
    const id = stringArg(good, 'id');
    const row = observed.view.rows.find((candidate) => candidate.id === id);
    if (!row || row.reserved < 1) return notYet(`the act went through, but ${id ?? 'the item'} shows nothing reserved on this branch now. Query again.`);
    return DONE;
  }
  if (acts.some((act) => succeeded(act, 'act'))) {
    return notYet('that act ran with the interactive UI on. This step is about headless: untick "Interactive UI", then act again.');
  }
  const lastAct = last(acts);
  if (lastAct) {
    const stopped = hostStopped(lastAct);
    if (stopped) return notYet(stopped);
    const code = deskDetails(lastAct)?.code;
    if (code === 'agent-disabled') return notYet('the act was refused with agent-disabled: there is no grant on this branch. Do the previous steps again.');
    if (code === 'stale-revision') return notYet('the act was refused with stale-revision. Query first and send the revision it returns.');
    return notYet(`the act was refused with ${code ?? 'an error'}. Query, then reserve 1 bean-scarlet with the returned revision.`);
  }
  return notYet('with the UI still headless, "Host approval for seed_desk" not set and "Approval mode" yolo, call {"op":"query"}, then act with the returned revision.');
};

const headlessPromptFailsClosed: Checkpoint = (observed) => {
  const calls = toolCalls(observed);
  const closed = calls.filter((call) => stoppedAtApproval(call) && approvalOf(call)?.policy === 'prompt' && interactiveAt(observed, call.seq) === false);
  const first = closed[0];
  if (first) {
    if (!closed.some(wroteNothing)) return entriesChanged(first);
    if (observed.view.pendingApproval !== null) return notYet('a prompt is still waiting; answer it first.');
    return DONE;
  }
  if (calls.some((call) => call.outcome.kind === 'approval' || approvalOf(call)?.policy === 'prompt')) {
    return notYet('a prompt appeared because the UI is interactive. Untick "Interactive UI" first, then call seed_desk again.');
  }
  if (calls.some((call) => approvalOf(call)?.policy === 'deny')) {
    return notYet('that was a deny policy, which blocks outright. Set "Host approval for seed_desk" back to not set and "Approval mode" to always-ask, to see a needed prompt with nobody to answer it fail closed.');
  }
  if (calls.some((call) => deskDetails(call) !== null)) {
    return notYet('the seed desk answered, so the host ran the call without asking. Set "Approval mode" to always-ask, then call again while headless.');
  }
  return notYet('set "Approval mode" to always-ask, keep the UI headless, and call seed_desk again.');
};

const modeVsGrant: Checkpoint = (observed) => {
  const calls = toolCalls(observed);
  const asked = calls.filter((call) => approvalOf(call)?.source === 'mode' && approvalOf(call)?.policy === 'prompt' && interactiveAt(observed, call.seq) === true);
  const denied = asked.filter(stoppedAtApproval);
  const first = denied[0];
  if (!first) {
    if (observed.view.pendingApproval !== null) return notYet('the host is asking before the seed desk sees anything, although the agent grant is on. Press Deny.');
    if (asked.length > 0) return notYet('you approved, so the desk ran the act under the grant. This step is about the host saying no first: call again and press Deny.');
    if (calls.some((call) => stoppedAtApproval(call) && interactiveAt(observed, call.seq) === false)) return notYet('headless, the call failed closed instead of asking. Tick "Interactive UI" and call again.');
    if (calls.some((call) => approvalOf(call)?.source === 'user')) return notYet('that decision came from "Host approval for seed_desk". Set it to not set, so the approval mode decides.');
    return notYet('tick "Interactive UI", keep "Approval mode" on always-ask, and call the act again.');
  }
  if (!denied.some(wroteNothing)) return entriesChanged(first);
  if (!observed.view.agentEnabled) return notYet('the agent grant shows off; this step needs it on, to see the host stop a call the desk would allow. Reset the lesson.');
  return DONE;
};

// ---- lesson 5: what persistence and cancellation promise ----

const cancelChangesNothing: Checkpoint = (observed) => {
  if (factsOf(observed, 'committed').length > 0) {
    return notYet('a change was committed, so the journal grew. For this step press Cancel in the dialog; reset the lesson to start clean.');
  }
  const cancel = last(factsOf(observed, 'cancelled'));
  if (!cancel) {
    if (factsOf(observed, 'dialog-opened').length > 0) return notYet('the dialog is open; press Cancel.');
    return notYet('start a change, such as `/seeds reserve marigold-french 1`, and press Cancel.');
  }
  const answer = last(after(deskAnswers(observed), cancel.seq));
  if (!answer) return notYet('cancelled — now run `/seeds query` to see that the numbers and the revision did not move.');
  if (answer.query.revision !== observed.view.revision) return notYet('the desk changed after your query; query again.');
  if (cancel.change.kind === 'reservation') {
    const shown = itemIn(answer, cancel.change.id as RowId);
    if (shown && shown.reserved !== rowOf(observed.view, cancel.change.id as RowId).reserved) return notYet('the query and the desk disagree; query again.');
  }
  return DONE;
};

const queryAfterCommit: Checkpoint = (observed) => {
  const commits = dialogCommits(observed).flatMap((fact) => (fact.change?.kind === 'reservation' ? [{ seq: fact.seq, change: fact.change }] : []));
  const first = commits[0];
  if (!first) return notYet('reserve something and confirm, such as `/seeds reserve marigold-french 1`.');
  const answer = after(deskAnswers(observed), first.seq)[0];
  const retried = commits.filter((commit) => commit.seq > first.seq && (answer === undefined || commit.seq < answer.seq));
  if (retried.length > 0) return notYet('you committed again before querying. Once Confirm has gone through there is nothing left to cancel: read the desk first, then decide.');
  if (!answer) return notYet('the reservation is committed and its dialog is gone. Before anything else, run `/seeds query` to see what the desk really holds.');
  const { action, id } = first.change;
  const packets = typeof first.change.packets === 'number' ? first.change.packets : 0;
  const shown = itemIn(answer, id as RowId);
  if (action === 'reserve' && (!shown || shown.reserved < packets || rowOf(observed.view, id as RowId).reserved < packets)) {
    return notYet(`the query does not show the ${packets} ${id} you committed on this branch. Did the leaf move? Reset the lesson.`);
  }
  return DONE;
};

const eventsStartNothing: Checkpoint = (observed) => {
  const { view } = observed;
  const commit = last(dialogCommits(observed));
  if (!commit) return notYet('make any change and confirm it, such as `/seeds release marigold-french 1`, then watch the Event log and the status line.');
  const event = last(observed.events.filter((item) => item.kind === 'event' && item.channel === CHANGED_EVENT));
  const payloadRevision = event && event.kind === 'event' ? parseJsonObject(event.payload)?.['revision'] : undefined;
  if (payloadRevision !== view.revision) return notYet(`the latest ${CHANGED_EVENT} event is not about the current revision; make the change again on this branch.`);
  if (!view.status.includes(view.revision)) return notYet('the status line does not show the current revision yet.');
  if (toolCalls(observed).length > 0) {
    return notYet('a seed_desk call happened in this step — one you made, not one the event started. Make a change and call nothing, to see that nothing follows it.');
  }
  const deskIndex = observed.branch.findIndex((item) => item.role === 'seed-desk' && item.revision === view.revision);
  if (deskIndex >= 0 && observed.branch.slice(deskIndex + 1).some((item) => item.role === 'assistant' || item.role === 'toolResult')) {
    return notYet('an agent turn follows your change on this branch. Make a change and call nothing, to see that nothing follows it.');
  }
  return DONE;
};

const persistenceGate: Checkpoint = (observed) => {
  const { view } = observed;
  const roles = observed.branch.map((item) => item.role);
  const firstAssistant = roles.indexOf('assistant');
  const firstDesk = roles.indexOf('seed-desk');
  if (toolCalls(observed).length === 0) {
    if (view.hostFileWritten) return notYet('this session already has an assistant message, so a real host wrote its file long ago. Reset the lesson to see the gate closed.');
    return notYet('no assistant message yet, so a real host has written nothing. Call {"op":"query"} in the tool panel: a tool call is an assistant message.');
  }
  if (!view.hostFileWritten) return notYet('the call was not recorded (storage stopped?). Call {"op":"query"} again.');
  if (firstDesk < 0 || (firstAssistant >= 0 && firstAssistant < firstDesk)) {
    return notYet('no seed desk entry was waiting in memory before the first assistant message. Reset the lesson, reserve first, then call the tool.');
  }
  return DONE;
};

const appendNoReceipt: Checkpoint = (observed) => {
  const { view } = observed;
  if (!dialogCommits(observed).some((fact) => fact.change?.kind === 'reservation')) return notYet('reserve one marigold with `/seeds reserve marigold-french 1` and Confirm.');
  const entry = observed.branch.find((item) => item.role === 'seed-desk' && item.revision === view.revision);
  if (!entry) return notYet('the branch does not end on your new seed desk entry; reserve again here.');
  if (entry.modelVisible) return notYet('that entry is marked as sent to the model, which a custom state entry never is. Reset the lesson.');
  return DONE;
};

const renderResultPresentation: Checkpoint = (observed) => {
  const calls = toolCalls(observed);
  if (calls.some((call) => deskDetails(call)?.ok === true)) return DONE;
  const lastCall = last(calls);
  const stopped = lastCall ? hostStopped(lastCall) : null;
  if (stopped) return notYet(stopped);
  if (lastCall) return notYet(`that call was refused with ${deskDetails(lastCall)?.code ?? 'an error'}; call {"op":"inspect","id":"marigold-french"} to get a result with details.`);
  return notYet('call {"op":"inspect","id":"marigold-french"} and compare the three views of its result.');
};

const gatesSpareOtherCode: Checkpoint = (observed) => {
  const blocked = toolCalls(observed).filter((call) => stoppedAtApproval(call) && approvalOf(call)?.policy === 'deny');
  const first = blocked[0];
  if (!first) return notYet('set "Host approval for seed_desk" to deny and call {"op":"query"}: the host should block it.');
  if (!blocked.some(wroteNothing)) return entriesChanged(first);
  if (!after(dialogCommits(observed), first.seq).some((fact) => fact.change?.kind === 'reservation')) {
    return notYet('seed_desk is blocked; now run `/seeds reserve marigold-french 1` and Confirm — the same extension\'s command still works.');
  }
  return DONE;
};

const storageFailureLatch: Checkpoint = (observed) => {
  const failures = [
    ...factsOf(observed, 'storage-failed').map((fact) => fact.seq),
    ...toolCalls(observed).filter((call) => call.outcome.kind === 'failed').map((call) => call.seq),
  ].sort((a, b) => a - b);
  const first = failures[0];
  if (first === undefined) {
    if (observed.view.writeFailure) return notYet('a write failed; now try one more change (a reservation with Confirm) to see that writes stay stopped.');
    return notYet('open "Fault injection", press "Fail the next write", then reserve something and confirm.');
  }
  const reopen = after(factsOf(observed, 'reopened'), first)[0];
  const stoppedAgain = failures.filter((seq) => seq > first && (reopen === undefined || seq < reopen.seq));
  if (stoppedAgain.length === 0) return notYet('the write failed. Before reopening, try one more change and confirm it: it is stopped too, because the failure is latched.');
  if (dialogCommits(observed).some((fact) => fact.seq > first && (reopen === undefined || fact.seq < reopen.seq))) {
    return notYet('something was committed while writes should have been stopped. Reset the lesson.');
  }
  if (!reopen) return notYet('writes are stopped until a reopen. Press "Reopen session".');
  if (observed.view.writeFailure !== null) return notYet('the page still reports a storage failure; press "Reopen session" again.');
  return DONE;
};

// ---- lesson 6: the closing question, with two tabs ----

const reserveAllMarigolds: Checkpoint = (observed) => {
  const marigold = rowOf(observed.view, 'marigold-french');
  if (!dialogCommits(observed).some((fact) => isReservation(fact.change, 'reserve', 'marigold-french'))) {
    if (factsOf(observed, 'cancelled').length > 0) return notYet('you cancelled. Run `/seeds reserve marigold-french 3` again and press Confirm.');
    return notYet('type `/seeds reserve marigold-french 3` and confirm.');
  }
  if (marigold.reserved !== marigold.packets) return notYet(`marigold shows ${marigold.reserved} of ${marigold.packets} reserved; reserve all of them.`);
  return DONE;
};

const otherTabReserves: Checkpoint = (observed) => {
  const fromElsewhere = factsOf(observed, 'foreign-append').length > 0 || factsOf(observed, 'committed').some((fact) => fact.via === 'twin');
  if (!fromElsewhere) {
    if (dialogCommits(observed).length > 0) {
      return notYet('that reservation was made in THIS tab. The point is a second tab with its own view: press "Do it for me", or open the playground in another tab, branch there from the entry before your reservation, and reserve 3 marigolds.');
    }
    return notYet('nothing has arrived from another tab yet. Open the playground in a second tab, branch there from the entry before your reservation, and reserve 3 marigolds.');
  }
  const marigold = rowOf(observed.view, 'marigold-french');
  if (marigold.reserved !== marigold.packets) return notYet(`this tab's branch now shows ${marigold.reserved} marigold reserved; it should still hold all ${marigold.packets} of yours. Reset the lesson.`);
  if (!hasDeskEntryElsewhere(observed)) return notYet('the other tab appended something, but no seed desk entry sits on another branch. Reserve the marigolds there, on a branch from before your reservation.');
  return DONE;
};

const compareOverbooked: Checkpoint = (observed) => {
  const { comparison, view } = observed;
  if (!comparison) return notYet('select the other tab\'s reservation in the Session tree and press "Compare with selected".');
  if (comparison.left.revision !== view.revision) return notYet('the comparison is from an earlier position; compare again.');
  if (comparison.right.revision === comparison.left.revision || comparison.forkPointId === comparison.right.tipId) {
    return notYet('the selected entry lies on your own branch. Select the OTHER tab\'s marigold reservation.');
  }
  const here = reservedIn(comparison.left, 'marigold-french');
  const there = reservedIn(comparison.right, 'marigold-french');
  const combined = comparison.combinedReserved.find((row) => row.id === 'marigold-french');
  if (here === 0 || there === 0 || !combined || combined.reserved <= combined.packets) {
    return notYet(`this pair shows ${here} and ${there} marigolds reserved: not more than exist. Compare the two branches that each reserved all of them.`);
  }
  return DONE;
};

const closingAnswer: Checkpoint = (observed) => {
  const answer = last(factsOf(observed, 'closing-answer'));
  if (!answer) return notYet('choose an answer to the question.');
  if (answer.value === 'yes') {
    return notYet('look at the comparison again: two tabs each held all 3 marigolds, 6 of 3, and neither could see the other. A shared stock needs one authoritative store that every user writes to. Try the other answer.');
  }
  return DONE;
};

/** Turns any check into one that first refuses to judge a corrupt branch. */
function guarded(check: Checkpoint): Checkpoint {
  return (observed) =>
    observed.view.corrupt
      ? notYet(`this branch is corrupt (entry ${observed.view.corrupt.entryId}), so its desk cannot be read. Move to an earlier entry, or reset the lesson.`)
      : check(observed);
}

const RAW: Record<string, Checkpoint> = {
  'query-desk': queryDesk,
  'cancel-before-commit': cancelBeforeCommit,
  'confirm-reservation': confirmReservation,
  'race-refused': raceRefused,
  'basil-exercise': basilExercise,
  'act-before-grant': actRefusedWithoutGrant(false),
  'grant-agent': grantAgent,
  'tool-discover': toolDiscover,
  'tool-query-inspect': toolQueryInspect,
  'careful-act': carefulAct,
  'stale-reuse': staleReuse,
  'tool-refusals': toolRefusals,
  'excess-release': excessRelease,
  'journal-filter': journalFilter,
  'reopen-survives': reopenSurvives,
  'plain-move-not-kept': plainMoveNotKept,
  'rewind-before-reservation': rewindBeforeReservation,
  'sibling-reservation': siblingReservation,
  'written-branch-kept': writtenBranchKept,
  'sibling-token-refused': siblingTokenRefused,
  'corrupt-branch': corruptBranch,
  'fresh-session': freshSession,
  'revoke-agent': revokeAgent,
  'act-after-revoke': actRefusedWithoutGrant(true),
  'headless-ui-required': headlessUiRequired,
  'headless-reopen-grant': headlessReopenGrant,
  'headless-revoke-refused': headlessRevokeRefused,
  'headless-tool-allow': headlessToolAllow,
  'headless-prompt-fails-closed': headlessPromptFailsClosed,
  'mode-vs-grant': modeVsGrant,
  'cancel-changes-nothing': cancelChangesNothing,
  'query-after-commit': queryAfterCommit,
  'persistence-gate': persistenceGate,
  'events-start-nothing': eventsStartNothing,
  'append-no-receipt': appendNoReceipt,
  'render-result-presentation': renderResultPresentation,
  'gates-spare-other-code': gatesSpareOtherCode,
  'storage-failure-latch': storageFailureLatch,
  'reserve-all-marigolds': reserveAllMarigolds,
  'other-tab-reserves': otherTabReserves,
  'compare-overbooked': compareOverbooked,
  'closing-answer': closingAnswer,
};

/** The registry: step.checkpoint → predicate. */
export const CHECKPOINTS: Readonly<Record<string, Checkpoint>> = Object.freeze(
  Object.fromEntries(Object.entries(RAW).map(([key, check]) => [key, guarded(check)])),
);

/** Judges a step; an unknown checkpoint key never ticks, and says so. */
export function checkStep(step: Pick<LessonStep, 'id' | 'checkpoint'>, observed: Observed): CheckResult {
  const check = Object.hasOwn(CHECKPOINTS, step.checkpoint) ? CHECKPOINTS[step.checkpoint] : undefined;
  if (!check) return { done: false, whyNot: `This step has no checkpoint ("${step.checkpoint}" is not in the registry), so it cannot tick.` };
  return check(observed);
}
