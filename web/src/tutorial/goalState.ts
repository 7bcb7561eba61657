import { parseJsonObject } from '$domain/jsonObject';
import { SEED_DESK_CUSTOM_TYPE } from '$domain/seedDeskNames';
import type { Observed } from './facts';
import { countMatches, type Match } from './goalFacts';
import type { Condition } from '../../../lessons/format/goalSchema';
import { runNamedCheck } from './namedChecks';

/**
 * The conditions read from what the page shows now (the view, the active branch, the events, the
 * panels), not from the facts: the desk's numbers, the grant, the leaf, the entries, the
 * approval settings, the journal panel, the comparison, the closing answer, a named check.
 */

const met = (values: Readonly<Record<string, string>> = {}): Match => ({ seq: 0, revision: null, values });

const deskEntriesOnBranch = (observed: Observed): number => observed.branch.filter((item) => item.role === 'seed-desk').length;

/** The branch entry the revision names: the seed desk entry it was taken at. */
const currentEntryIndex = (observed: Observed): number => observed.branch.findIndex((item) => item.role === 'seed-desk' && item.revision === observed.view.revision);

type Row = { readonly id: string; readonly packets: number; readonly reserved: number; readonly available: number };

/** Each item's numbers (`every`: each row) as the rows show them. */
function rowsHold(all: readonly Row[], desk: NonNullable<Condition['desk']>): boolean {
  return Object.entries(desk).every(([id, numbers]) => {
    if (!numbers) return true;
    const rows = id === 'every' ? all : all.filter((row) => row.id === id);
    if (rows.length === 0) return false;
    return rows.every((row) => {
      const reserved = numbers.reserved === 'all' ? row.reserved === row.packets : numbers.reserved === undefined || countMatches(numbers.reserved, row.reserved);
      return reserved && (numbers.available === undefined || countMatches(numbers.available, row.available));
    });
  });
}

function branchHolds(observed: Observed, branch: NonNullable<Condition['branch']>): boolean {
  const items = observed.branch;
  const index = currentEntryIndex(observed);
  if (branch.current) {
    const entry = items[index];
    if (!entry || (branch.current.role !== undefined && entry.role !== branch.current.role)) return false;
    if (branch.current.sentToModel !== undefined && entry.modelVisible !== branch.current.sentToModel) return false;
    const newest = items.findLastIndex((item) => item.role === 'seed-desk') === index;
    if (branch.current.newest !== undefined && newest !== branch.current.newest) return false;
  }
  if (branch.nothingAfter && index >= 0 && items.slice(index + 1).some((item) => branch.nothingAfter?.includes(item.role))) return false;
  if (branch.order) {
    const roles = items.map((item) => item.role);
    const first = roles.indexOf(branch.order[0]);
    const second = roles.indexOf(branch.order[1]);
    if (first < 0 || (second >= 0 && second < first)) return false;
  }
  return true;
}

function entriesCount(observed: Observed, where: 'journal' | 'branch' | 'elsewhere' = 'journal'): number {
  if (where === 'branch') return deskEntriesOnBranch(observed);
  if (where === 'elsewhere') return observed.view.seedDeskEntryCount - deskEntriesOnBranch(observed);
  return observed.view.seedDeskEntryCount;
}

function approvalHolds(observed: Observed, approval: NonNullable<Condition['approval']>): boolean {
  const { view } = observed;
  return (
    (approval.mode === undefined || view.approvalMode === approval.mode) &&
    (approval.policy === undefined || (view.approvalPolicy ?? 'not-set') === approval.policy) &&
    (approval.interactive === undefined || view.interactive === approval.interactive) &&
    (approval.pending === undefined || (view.pendingApproval !== null) === approval.pending)
  );
}

/** Every line shown is a seed desk state entry whose data has exactly `keys` (and at least one is shown). */
function linesAreSnapshots(lines: readonly string[], keys: readonly string[]): boolean {
  const wanted = [...keys].sort().join();
  return (
    lines.length > 0 &&
    lines.every((line) => {
      const entry = parseJsonObject(line);
      const data = entry?.['data'];
      return entry?.['customType'] === SEED_DESK_CUSTOM_TYPE && typeof data === 'object' && data !== null && Object.keys(data).sort().join() === wanted;
    })
  );
}

function journalHolds(observed: Observed, journal: NonNullable<Condition['journal']>): boolean {
  const { filter, hostFile, writeFailure, snapshotKeys } = journal;
  if (snapshotKeys !== undefined && !linesAreSnapshots(observed.journalLines, snapshotKeys)) return false;
  if (filter === 'set' && observed.journalFilter.length === 0) return false;
  if (typeof filter === 'object' && !observed.journalFilter.includes(filter.contains)) return false;
  if (hostFile !== undefined && observed.view.hostFileWritten !== (hostFile === 'written')) return false;
  return writeFailure === undefined || (observed.view.writeFailure !== null) === writeFailure;
}

function eventHolds(observed: Observed, channel: string): boolean {
  const event = observed.events.filter((item) => item.kind === 'event' && item.channel === channel).at(-1);
  return event?.kind === 'event' && parseJsonObject(event.payload)?.['revision'] === observed.view.revision;
}

function comparisonHolds(observed: Observed, wanted: NonNullable<Condition['comparison']>): boolean {
  const { comparison, view } = observed;
  const shown = comparison !== null;
  const current = shown && comparison.left.revision === view.revision;
  const otherBranch = shown && comparison.right.revision !== comparison.left.revision && comparison.forkPointId !== comparison.right.tipId;
  const sides = (wanted.here === undefined || (shown && rowsHold(comparison.left.rows, wanted.here))) && (wanted.there === undefined || (shown && rowsHold(comparison.right.rows, wanted.there)));
  return sides && (wanted.shown === undefined || shown === wanted.shown) && (wanted.current === undefined || current === wanted.current) && (wanted.otherBranch === undefined || otherBranch === wanted.otherBranch);
}

function closingHolds(observed: Observed, wanted: 'answered' | 'yes' | 'no'): boolean {
  const answer = observed.facts.filter((fact) => fact.kind === 'closing-answer').at(-1);
  return answer?.kind === 'closing-answer' && (wanted === 'answered' || answer.value === wanted);
}

function questionHolds(observed: Observed, wanted: 'answered' | 'yes' | 'no'): boolean {
  const answer = observed.facts.filter((fact) => fact.kind === 'question-answer').at(-1);
  return answer?.kind === 'question-answer' && (wanted === 'answered' || answer.value === wanted);
}

/** A condition about what the page shows now; null when it does not hold. */
export function evaluateState(condition: Condition, observed: Observed): Match | null {
  const { view } = observed;
  if (condition.desk) return rowsHold(view.rows, condition.desk) ? met() : null;
  if (condition.grant) return view.agentEnabled === (condition.grant === 'on') ? met() : null;
  if (condition.leaf) {
    const { transient, at } = condition.leaf;
    return (transient === undefined || view.transientLeaf === transient) && (at === undefined || view.leafId === null) ? met() : null;
  }
  if (condition.branch) return branchHolds(observed, condition.branch) ? met() : null;
  if (condition.entries) return countMatches(condition.entries.count, entriesCount(observed, condition.entries.where)) ? met() : null;
  if (condition.branches) return countMatches(condition.branches, (deskEntriesOnBranch(observed) > 0 ? 1 : 0) + (entriesCount(observed, 'elsewhere') > 0 ? 1 : 0)) ? met() : null;
  if (condition.approval) return approvalHolds(observed, condition.approval) ? met() : null;
  if (condition.journal) return journalHolds(observed, condition.journal) ? met() : null;
  if (condition.event) return eventHolds(observed, condition.event.channel) ? met() : null;
  if (condition.status) return view.status.includes(view.revision) ? met() : null;
  if (condition.comparison) return comparisonHolds(observed, condition.comparison) ? met() : null;
  if (condition.extension) return (view.own ? 'own' : view.extension) === condition.extension ? met() : null;
  if (condition.corruptBranch !== undefined) return (view.corrupt !== null) === condition.corruptBranch ? met() : null;
  if (condition.closing) return closingHolds(observed, condition.closing) ? met() : null;
  if (condition.question) return questionHolds(observed, condition.question) ? met() : null;
  if (condition.check) {
    const result = runNamedCheck(condition.check.name, observed, condition.check.item);
    return result.met ? met(result.values) : null;
  }
  return null;
}

/** The values a reason may name from what the page shows (`{basil-genovese.reserved}`, `{revision}`…). */
export function stateValues(observed: Observed): Record<string, string> {
  const values: Record<string, string> = {
    revision: observed.view.revision,
    deskEntries: String(observed.view.seedDeskEntryCount),
    filter: observed.journalFilter,
  };
  for (const row of observed.view.rows) {
    values[`${row.id}.reserved`] = String(row.reserved);
    values[`${row.id}.available`] = String(row.available);
    values[`${row.id}.packets`] = String(row.packets);
  }
  return values;
}
