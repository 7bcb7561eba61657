import { asEntryId, type EntryId } from '$domain/ids';
import { compareBranches, type BranchComparison } from '$domain/journal/compare';
import { entryText, entryTypeOf, isSeedDeskEntry, messageRole, type JournalEntry } from '$domain/journal/entry';
import { toSessionJsonl } from '$domain/journal/exportJsonl';
import { graphLayout } from '$domain/journal/graphLayout';
import type { GraphRow } from '$domain/journal/graphRow';
import type { SessionJournal } from '$domain/journal/journal';
import { flattenTree, type TreeFilter } from '$domain/journal/treeLayout';
import { deskRows, EMPTY_SNAPSHOT } from '$domain/snapshot';
import type { BranchItem, EntryTarget, HostView } from '../protocol/messages';
import type { HostCore } from './hostCore';
import { wasMaterialized } from './sessionLoad';
import type { SessionHead } from './store';

/**
 * Read-only projections of the host's state for the page: the view, the conversation, the graph,
 * a comparison, the journal's lines. Display text is clipped here: the journal keeps every
 * character; the page shows a bounded piece.
 */

const BRANCH_VIEW_LIMIT = 400;
const BRANCH_TEXT_LIMIT = 400;
const ROW_TEXT_LIMIT = 200;
const JOURNAL_LINES_LIMIT = 500;
const JOURNAL_LINE_LIMIT = 2000;

/** Entry types the host's `buildSessionContext` turns into model messages; `custom` and `label` are not among them. */
const MODEL_VISIBLE_TYPES: ReadonlySet<string> = new Set(['message', 'custom_message', 'branch_summary', 'compaction']);

export function hostView(core: HostCore): HostView {
  if (core.opening) return openingView(core, core.opening);
  const journal = core.journal;
  const state = journal.state();
  const snapshot = state.ok ? state.snapshot : null;
  const rows = deskRows(snapshot ?? EMPTY_SNAPSHOT);
  return {
    sessionId: journal.sessionId,
    entryCount: journal.size,
    leafId: journal.leafId,
    revision: state.revision,
    corrupt: state.ok ? null : { entryId: state.corruptEntryId, problem: state.problem },
    rows,
    agentEnabled: snapshot?.agentEnabled ?? false,
    status: statusLine(core),
    interactive: core.interactive,
    writeFailure: core.writeFailure,
    notice: core.notice,
    transientLeaf: journal.leafIsTransient(),
    leafBehind: core.leafBehind(),
    approvalPolicy: core.approvalPolicy,
    approvalMode: core.approvalMode,
    hostFileWritten: hasAssistantMessage(journal) || wasMaterialized(journal),
    pendingApproval: core.pendingApproval ? { callId: core.pendingApproval.callId, prompt: core.pendingApproval.prompt } : null,
    seedDeskEntryCount: journal.seedDeskEntryCount,
    extension: core.extensionKind,
    ...(core.editedVersion ? { editedVersion: core.editedVersion } : {}),
    editedWaiting: core.editedWaiting,
    own: core.own,
    ownWaiting: core.ownWaiting,
    ...pageUiView(core),
  };
}

/** What the extension set beside the Command box (`setWidget`, `setEditorText`), left out of the view while there is none. */
function pageUiView(core: HostCore): Pick<HostView, 'widgets' | 'editorText'> {
  const widgets = core.pageUi.widgetViews();
  const editor = core.pageUi.editorView();
  return { ...(widgets.length > 0 ? { widgets: widgets.map(({ key, lines }) => ({ key, lines: [...lines] })) } : {}), ...(editor ? { editorText: editor } : {}) };
}

/** What the extensions set with `ctx.ui.setStatus`, one text per key, as a host's footer shows them. */
function statusLine(core: HostCore): string {
  return [...core.statuses.values()].join(' · ');
}

/** The view from the stored head, while the whole journal is still being read: the leaf is on the last entry. */
function openingView(core: HostCore, head: SessionHead): HostView {
  const state = head.lastState;
  const rows = deskRows(state.ok ? state.snapshot : EMPTY_SNAPSHOT);
  return {
    sessionId: head.header.id,
    entryCount: head.entryCount,
    leafId: head.lastEntry?.id ?? null,
    revision: state.revision,
    corrupt: state.ok ? null : { entryId: state.corruptEntryId, problem: state.problem },
    rows,
    agentEnabled: state.ok ? state.snapshot.agentEnabled : false,
    status: statusLine(core),
    interactive: core.interactive,
    writeFailure: core.writeFailure,
    notice: core.notice,
    transientLeaf: false,
    leafBehind: null,
    approvalPolicy: core.approvalPolicy,
    approvalMode: core.approvalMode,
    hostFileWritten: head.hasAssistantMessage || head.materialized,
    pendingApproval: null,
    seedDeskEntryCount: head.seedDeskEntryCount,
    extension: core.extensionKind,
    ...(core.editedVersion ? { editedVersion: core.editedVersion } : {}),
    editedWaiting: core.editedWaiting,
    own: core.own,
    ownWaiting: core.ownWaiting,
    ...pageUiView(core),
  };
}

/** The persistence gate, scanned once per journal and then only over new entries. */
const assistantScans = new WeakMap<SessionJournal, { checked: number; found: boolean }>();

/**
 * The host's persistence gate for the first session a host process makes: nothing reaches its file
 * before the first assistant message. A session made later is written at once (`wasMaterialized`).
 */
export function hasAssistantMessage(journal: SessionJournal): boolean {
  const scan = assistantScans.get(journal) ?? { checked: 0, found: false };
  if (!scan.found) {
    const entries = journal.entries();
    for (let index = scan.checked; index < entries.length && !scan.found; index++) {
      const entry = entries[index];
      scan.found = entry !== undefined && messageRole(entry) === 'assistant';
    }
    scan.checked = entries.length;
  }
  assistantScans.set(journal, scan);
  return scan.found;
}

/** The conversation: the last entries of the active branch, root side first. */
export function branchItems(journal: SessionJournal, limit = BRANCH_VIEW_LIMIT): BranchItem[] {
  return journal.branchTail(limit).map((entry) => branchItem(entry, journal));
}

export function branchItem(entry: JournalEntry, journal: SessionJournal): BranchItem {
  const type = entryTypeOf(entry);
  const base = { id: entry.id, type, label: journal.labelOf(entry.id) ?? null, modelVisible: MODEL_VISIBLE_TYPES.has(type) };
  if (isSeedDeskEntry(entry)) {
    const data = entry['data'];
    return { ...base, role: 'seed-desk', text: clip(JSON.stringify(data) ?? '', BRANCH_TEXT_LIMIT), revision: journal.revision(entry.id) };
  }
  return { ...base, role: messageRole(entry) ?? type, text: clip(entryText(entry), BRANCH_TEXT_LIMIT), revision: null };
}

export function graphRows(journal: SessionJournal, filter: TreeFilter): GraphRow[] {
  return graphLayout(journal, journal.leafId, filter, { textLimit: ROW_TEXT_LIMIT });
}

/** The current branch beside the branch ending at `otherId`. */
export function comparison(journal: SessionJournal, otherId: EntryId): BranchComparison {
  return compareBranches(journal, journal.leafId, otherId);
}

/**
 * The entry a tree action means, or a sentence saying why none is. `text` and `newest-off-branch`
 * look in the tree's order, as a learner reading the tree top to bottom would.
 */
export function resolveTarget(journal: SessionJournal, target: EntryTarget): { ok: true; id: EntryId } | { ok: false; why: string } {
  switch (target.by) {
    case 'id':
      return journal.has(target.id) ? { ok: true, id: asEntryId(target.id) } : { ok: false, why: `Entry ${target.id} is not in this session.` };
    case 'text': {
      const row = flattenTree(journal).find((candidate) => candidate.text.includes(target.text));
      return row ? { ok: true, id: row.id } : { ok: false, why: `No entry in the session tree shows "${target.text}".` };
    }
    case 'before-last-reservation': {
      const last = [...journal.branch()].reverse().find(isSeedDeskEntry);
      const parent = last ? journal.parentIdOf(last.id) : null;
      return parent ? { ok: true, id: parent } : { ok: false, why: 'There is no reservation on this branch to go back before.' };
    }
    case 'newest-off-branch': {
      const other = [...flattenTree(journal)].reverse().find((row) => row.isSeedDesk && !row.onActivePath);
      return other ? { ok: true, id: other.id } : { ok: false, why: 'There is no seed desk entry on another branch to compare with.' };
    }
  }
}

/**
 * The journal file's lines, serialised once each: entries never change after they are appended,
 * so only new ones are turned into text. One instance per journal.
 */
export class JournalLines {
  private readonly lines: string[];

  constructor(readonly journal: SessionJournal) {
    this.lines = toSessionJsonl(journal.header, []).split('\n').filter((line) => line.length > 0);
  }

  /** Every line, header first. */
  all(): readonly string[] {
    const entries = this.journal.entries();
    for (let index = this.lines.length - 1; index < entries.length; index++) this.lines.push(JSON.stringify(entries[index]));
    return this.lines;
  }

  /** Lines from `from` (0 = the header) containing `filter` (plain text, as grep would), clipped for display, the newest `limit`. */
  matching(filter: string, from = 0): { lineCount: number; matchCount: number; lines: string[] } {
    const lines = this.all();
    const scope = from === 0 ? lines : lines.slice(from);
    const matches = filter.length === 0 ? scope : scope.filter((line) => line.includes(filter));
    // Filtered on the whole line, shown clipped: one 1 MB line must not freeze the page's layout.
    return { lineCount: lines.length, matchCount: matches.length, lines: matches.slice(-JOURNAL_LINES_LIMIT).map((line) => clip(line, JOURNAL_LINE_LIMIT)) };
  }
}

/** Display text only: the journal keeps every character; the page shows a bounded piece. */
export function clip(text: string, limit: number): string {
  return text.length <= limit ? text : `${text.slice(0, limit)}… (${(text.length - limit).toLocaleString('en')} more characters)`;
}
