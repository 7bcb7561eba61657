/**
 * Every checkpoint, fed by hand: one observation that passes, and realistic wrong attempts that
 * must not pass and must say why, in words that point at the mistake.
 */
import { describe, expect, it } from 'vitest';
import { changeTitle } from '$domain/deskText';
import { FIXTURE } from '$domain/fixture';
import type { BranchItem, ComparisonView, DeskChange, EventLogItem, HostView, ToolCallOutcome, ToolDetailsView } from '../protocol/messages';
import { checkStep, CHECKPOINTS } from './checkpoints';
import type { Fact, Observed } from './facts';

// ---- fixtures ----

type RowId = (typeof FIXTURE)[number]['id'];
type Held = Partial<Record<RowId, number>>;

const SESSION = '5e55-1';
const rev = (entry: string): string => `${SESSION}:${entry}`;
const R0 = rev('root');
const R1 = rev('e0000001');
const R2 = rev('e0000002');
const R3 = rev('e0000003');

function deskRows(held: Held): HostView['rows'] {
  return FIXTURE.map((item) => {
    const reserved = held[item.id] ?? 0;
    return { id: item.id, name: item.name, family: item.family, packets: item.packets, reserved, available: item.packets - reserved };
  });
}

/** What the page shows: the host view, the conversation (branch) and the event log beside it. */
interface Page {
  readonly view: HostView;
  readonly branch: readonly BranchItem[];
  readonly events: readonly EventLogItem[];
}

/** A complete HostView, every field filled and overridable, with the conversation and events the page holds. */
function page(over: Partial<HostView> & { held?: Held; branch?: readonly BranchItem[]; events?: readonly EventLogItem[] } = {}): Page {
  const { held = {}, branch = [], events = [], ...rest } = over;
  const revision = rest.revision ?? R0;
  const agentEnabled = rest.agentEnabled ?? false;
  const view: HostView = {
    sessionId: SESSION,
    entryCount: 0,
    leafId: null,
    revision,
    corrupt: null,
    rows: deskRows(held),
    agentEnabled,
    status: `Seed desk: ${Object.keys(held).length > 0 ? 'holding something' : 'nothing reserved'}; agent ${agentEnabled ? 'on' : 'off'}; revision ${revision}`,
    interactive: true,
    writeFailure: null,
    notice: null,
    transientLeaf: false,
    leafBehind: null,
    approvalPolicy: null,
    approvalMode: 'yolo',
    hostFileWritten: false,
    pendingApproval: null,
    seedDeskEntryCount: 0,
    ...rest,
  };
  return { view, branch, events };
}

function observe(parts: { page?: Page; facts?: Fact[]; journalFilter?: string; comparison?: ComparisonView | null } = {}): Observed {
  const shown = parts.page ?? page();
  return {
    view: shown.view,
    branch: shown.branch,
    events: shown.events,
    facts: (parts.facts ?? []).map((fact, index) => ({ ...fact, seq: index + 1 })),
    journalFilter: parts.journalFilter ?? '',
    comparison: parts.comparison ?? null,
  };
}

const reserve = (id: RowId, packets: number): DeskChange => ({ kind: 'reservation', action: 'reserve', id, packets });
const release = (id: RowId, packets: number): DeskChange => ({ kind: 'reservation', action: 'release', id, packets });
const grant = (enabled: boolean): DeskChange => ({ kind: 'grant', enabled });

/** The extension's dialog for a change: the page knows only its title until the dialog is answered. */
const opened = (change: DeskChange): Fact => ({ kind: 'dialog-opened', title: changeTitle(change) });
const cancelled = (change: DeskChange): Fact => ({ kind: 'cancelled', change });
const committed = (change: DeskChange, via: 'dialog' | 'meanwhile' | 'twin' = 'dialog'): Fact => ({ kind: 'committed', change, via });
/** Seed desk entries before and after an attempt: unchanged unless a test says otherwise. */
const SAME = { before: 1, after: 1 } as const;
const GREW = { before: 1, after: 2 } as const;
/** `change`: what the extension reported was asked (null for a query, or for the compare's tool call). */
const refused = (code: string, via: 'dialog' | 'line' | 'compare', change: DeskChange | null, deskEntries: { before: number; after: number } = SAME): Fact => ({
  kind: 'refused',
  code,
  via,
  change,
  deskEntries,
});
const reopened = (from: string | null, to: string | null, behind: { navigated: boolean; foreignEntryId: string | null } | null = null): Fact => ({ kind: 'reopened', from, to, behind });

/** A `/seeds query` answer: the host's exact text, and what it listed as data. */
function answer(revision: string, held: Held = {}): Fact {
  const rows = deskRows(held);
  const lines = rows.map((row) => `${row.id}: ${row.available} available, ${row.reserved} reserved`);
  return {
    kind: 'answer',
    text: [...lines, `revision: ${revision}`].join('\n'),
    query: { revision, rows: rows.map((row) => ({ id: row.id, available: row.available, reserved: row.reserved })) },
  };
}

/** `/seeds query <family>` for a family with no items: an answer that lists nothing. */
function emptyFamilyAnswer(revision: string, family: string): Fact {
  return { kind: 'answer', text: `No item has the family "${family}". Families: basil, bean, marigold.\nrevision: ${revision}`, query: { revision, rows: [] } };
}

function domain(details: ToolDetailsView): ToolCallOutcome {
  return { kind: 'result', callId: 'call_1', stage: 'domain', isError: false, text: '…', details };
}
const ok = (scope: ToolDetailsView['scope'], revision: string): ToolCallOutcome => domain({ ok: true, scope, revision, agentEnabled: true });
const no = (scope: ToolDetailsView['scope'], code: NonNullable<ToolDetailsView['code']>, revision: string): ToolCallOutcome =>
  domain({ ok: false, scope, revision, agentEnabled: true, code });
const hostError = (stage: 'schema' | 'approval', text: string): ToolCallOutcome => ({ kind: 'result', callId: 'call_1', stage, isError: true, text, details: null });
type Approval = NonNullable<Extract<ToolCallOutcome, { kind: 'result' }>['approval']>;
const BY_MODE_ALLOW: Approval = { policy: 'allow', tier: 'write', source: 'mode' };
const BY_MODE_PROMPT: Approval = { policy: 'prompt', tier: 'write', source: 'mode' };
const BY_USER_PROMPT: Approval = { policy: 'prompt', tier: 'write', source: 'user' };
const BY_USER_DENY: Approval = { policy: 'deny', tier: 'write', source: 'user' };
/** An outcome as it came through a host approval resolution. */
const resolved = (outcome: ToolCallOutcome, approval: Approval): ToolCallOutcome => (outcome.kind === 'result' ? { ...outcome, approval } : outcome);
const NO_UI = 'Tool "seed_desk" requires approval but no interactive UI available.';

const tool = (args: Record<string, unknown>, outcome: ToolCallOutcome, deskEntries: { before: number; after: number } = SAME): Fact => ({ kind: 'tool', args: JSON.stringify(args), outcome, deskEntries });
const act = (id: string, packets: number, expectedRevision: string) => ({ op: 'act', action: 'reserve', id, packets, expectedRevision });

const deskItem = (id: string, revision: string): BranchItem => ({ id, type: 'custom', role: 'seed-desk', text: '{}', label: null, revision, modelVisible: false });
const message = (id: string, role: string): BranchItem => ({ id, type: 'message', role, text: 'hello', label: null, revision: null, modelVisible: true });
const changedEvent = (revision: string): EventLogItem => ({ kind: 'event', seq: 1, channel: 'workbook:seed-desk:changed', payload: JSON.stringify({ reason: 'release', revision }) });

function comparison(left: { tip: string; revision: string; held: Held }, right: { tip: string; revision: string; held: Held }, forkPointId: string | null): ComparisonView {
  const side = (s: typeof left) => ({ tipId: s.tip, revision: s.revision, ok: true, agentEnabled: true, rows: deskRows(s.held) });
  return {
    left: side(left),
    right: side(right),
    forkPointId,
    leftSince: [],
    rightSince: [],
    differences: [],
    grantDiffers: false,
    combinedReserved: FIXTURE.map((item) => ({ id: item.id, reserved: (left.held[item.id] ?? 0) + (right.held[item.id] ?? 0), packets: item.packets })),
  };
}

// ---- the cases ----

interface Wrong {
  readonly name: string;
  readonly observed: Observed;
  /** A word the explanation must contain, so it names this mistake rather than a generic one. */
  readonly says: RegExp;
}

interface Case {
  readonly pass: Observed;
  readonly wrong: readonly Wrong[];
}

const CASES: Record<string, Case> = {
  'query-desk': {
    pass: observe({ facts: [answer(R0)] }),
    wrong: [
      { name: 'typed "query" without the slash', observed: observe({ facts: [{ kind: 'said', text: 'seeds query' }] }), says: /slash/ },
      { name: 'queried a family that has no items', observed: observe({ facts: [emptyFamilyAnswer(R0, 'tomato')] }), says: /that family has no items/ },
      { name: 'queried, then the desk changed', observed: observe({ page: page({ revision: R1, held: { 'basil-genovese': 1 } }), facts: [answer(R0)] }), says: /changed after your query/ },
    ],
  },
  'cancel-before-commit': {
    pass: observe({ facts: [opened(reserve('basil-genovese', 2)), cancelled(reserve('basil-genovese', 2))] }),
    wrong: [
      {
        name: 'confirmed instead of cancelling',
        observed: observe({ page: page({ revision: R1, held: { 'basil-genovese': 2 } }), facts: [opened(reserve('basil-genovese', 2)), committed(reserve('basil-genovese', 2))] }),
        says: /you confirmed/,
      },
      { name: 'left the dialog open', observed: observe({ facts: [opened(reserve('basil-genovese', 2))] }), says: /open and waiting. Press Cancel/ },
    ],
  },
  'confirm-reservation': {
    pass: observe({ page: page({ revision: R1, held: { 'basil-genovese': 2 } }), facts: [opened(reserve('basil-genovese', 2)), committed(reserve('basil-genovese', 2))] }),
    wrong: [
      { name: 'cancelled again', observed: observe({ facts: [opened(reserve('basil-genovese', 2)), cancelled(reserve('basil-genovese', 2))] }), says: /cancelled, so basil still shows 0 reserved — run it again and press Confirm/ },
      {
        name: 'reserved 3 instead of 2',
        observed: observe({ page: page({ revision: R1, held: { 'basil-genovese': 3 } }), facts: [opened(reserve('basil-genovese', 3)), committed(reserve('basil-genovese', 3))] }),
        says: /expects 2 reserved/,
      },
    ],
  },
  'race-refused': {
    pass: observe({
      page: page({ revision: R0, leafId: null, transientLeaf: true }),
      facts: [opened(reserve('bean-scarlet', 2)), { kind: 'meanwhile', what: 'step-back' }, refused('stale-revision', 'dialog', reserve('bean-scarlet', 2))],
    }),
    wrong: [
      {
        name: 'confirmed with nothing in between',
        observed: observe({ page: page({ revision: R2, held: { 'basil-genovese': 2, 'bean-scarlet': 2 } }), facts: [opened(reserve('bean-scarlet', 2)), committed(reserve('bean-scarlet', 2))] }),
        says: /went through/,
      },
      { name: 'pressed Meanwhile but never confirmed', observed: observe({ page: page({ revision: R0 }), facts: [opened(reserve('bean-scarlet', 2)), { kind: 'meanwhile', what: 'step-back' }] }), says: /press Confirm/ },
      {
        name: 'reserved basil meanwhile (the race must leave basil alone)',
        observed: observe({
          page: page({ revision: R2, held: { 'basil-genovese': 3 } }),
          facts: [opened(reserve('bean-scarlet', 2)), { kind: 'meanwhile', what: 'reserve' }, committed(reserve('basil-genovese', 1), 'meanwhile'), refused('stale-revision', 'dialog', reserve('bean-scarlet', 2))],
        }),
        says: /leave basil alone/,
      },
      {
        // A dialog no longer says what it is about when it opens: the refusal's change tells which decision was turned away.
        name: 'a stale refusal of another decision (a marigold dialog, not the bean one)',
        observed: observe({
          page: page({ revision: R0 }),
          facts: [opened(reserve('marigold-french', 1)), { kind: 'meanwhile', what: 'step-back' }, refused('stale-revision', 'dialog', reserve('marigold-french', 1))],
        }),
        says: /press Confirm/,
      },
      {
        name: 'refused, but the journal gained a seed desk entry meanwhile in the same attempt',
        observed: observe({ page: page({ revision: R0 }), facts: [opened(reserve('bean-scarlet', 2)), { kind: 'meanwhile', what: 'step-back' }, refused('stale-revision', 'dialog', reserve('bean-scarlet', 2), GREW)] }),
        says: /went from 1 to 2/,
      },
    ],
  },
  'basil-exercise': {
    pass: observe({
      page: page({ revision: R2, held: { 'basil-genovese': 2 } }),
      facts: [opened(reserve('basil-genovese', 2)), committed(reserve('basil-genovese', 2)), opened(release('basil-genovese', 1)), cancelled(release('basil-genovese', 1))],
    }),
    wrong: [
      {
        name: 'confirmed the release',
        observed: observe({
          page: page({ revision: R3, held: { 'basil-genovese': 1 } }),
          facts: [committed(reserve('basil-genovese', 2)), opened(release('basil-genovese', 1)), committed(release('basil-genovese', 1))],
        }),
        says: /confirmed the release/,
      },
      {
        name: 'reserved on top of the earlier 2 (4 held, not exactly 2)',
        observed: observe({ page: page({ revision: R3, held: { 'basil-genovese': 4 } }), facts: [committed(reserve('basil-genovese', 2)), cancelled(release('basil-genovese', 1))] }),
        says: /not exactly 2/,
      },
      { name: 'only cancelled a release, reserved nothing', observed: observe({ page: page({ revision: R1, held: { 'basil-genovese': 2 } }), facts: [cancelled(release('basil-genovese', 1))] }), says: /reserve two/ },
      { name: 'reserved but never cancelled a release', observed: observe({ page: page({ revision: R1, held: { 'basil-genovese': 2 } }), facts: [committed(reserve('basil-genovese', 2))] }), says: /press Cancel/ },
    ],
  },
  'act-before-grant': {
    pass: observe({ facts: [tool({ op: 'query' }, ok('query', R0)), tool(act('bean-scarlet', 1, R0), no('act', 'agent-disabled', R0))] }),
    wrong: [
      { name: 'only queried', observed: observe({ facts: [tool({ op: 'query' }, ok('query', R0))] }), says: /now act/ },
      { name: 'acted after granting (went through)', observed: observe({ page: page({ revision: R2, agentEnabled: true, held: { 'bean-scarlet': 1 } }), facts: [tool(act('bean-scarlet', 1, R1), ok('act', R2))] }), says: /went through/ },
      { name: 'refused, but an entry was written meanwhile', observed: observe({ facts: [tool(act('bean-scarlet', 1, R0), no('act', 'agent-disabled', R0), GREW)] }), says: /went from 1 to 2/ },
    ],
  },
  'grant-agent': {
    pass: observe({ page: page({ revision: R1, agentEnabled: true }), facts: [opened(grant(true)), committed(grant(true))] }),
    wrong: [
      { name: 'cancelled the grant', observed: observe({ facts: [opened(grant(true)), cancelled(grant(true))] }), says: /agent stays off/ },
      { name: 'asked the tool to act first', observed: observe({ facts: [tool(act('bean-scarlet', 1, R0), no('act', 'agent-disabled', R0))] }), says: /cannot switch itself on/ },
    ],
  },
  'tool-discover': {
    pass: observe({ page: page({ revision: R1, agentEnabled: true }), facts: [tool({ op: 'discover' }, ok('discover', R1))] }),
    wrong: [
      { name: 'misspelled op', observed: observe({ page: page({ agentEnabled: true }), facts: [tool({ op: 'discovery' }, hostError('schema', 'Validation failed'))] }), says: /schema/ },
      { name: 'queried instead', observed: observe({ page: page({ revision: R1, agentEnabled: true }), facts: [tool({ op: 'query' }, ok('query', R1))] }), says: /"query"/ },
    ],
  },
  'tool-query-inspect': {
    pass: observe({ page: page({ revision: R1, agentEnabled: true }), facts: [tool({ op: 'query' }, ok('query', R1)), tool({ op: 'inspect', id: 'basil-genovese' }, ok('inspect', R1))] }),
    wrong: [
      {
        name: 'inspected a wrongly cased id',
        observed: observe({ page: page({ revision: R1, agentEnabled: true }), facts: [tool({ op: 'query' }, ok('query', R1)), tool({ op: 'inspect', id: 'Basil-Genovese' }, no('inspect', 'invalid-target', R1))] }),
        says: /exact id/,
      },
      { name: 'only queried', observed: observe({ page: page({ revision: R1, agentEnabled: true }), facts: [tool({ op: 'query' }, ok('query', R1))] }), says: /inspect/ },
    ],
  },
  'careful-act': {
    pass: observe({
      page: page({ revision: R2, agentEnabled: true, held: { 'bean-scarlet': 1 } }),
      facts: [tool({ op: 'query' }, ok('query', R1)), tool(act('bean-scarlet', 1, R1), ok('act', R2))],
    }),
    wrong: [
      {
        name: 'acted with a revision no query returned (copied from discover)',
        observed: observe({
          page: page({ revision: R2, agentEnabled: true, held: { 'bean-scarlet': 1 } }),
          facts: [tool({ op: 'discover' }, ok('discover', R1)), tool(act('bean-scarlet', 1, R1), ok('act', R2))],
        }),
        says: /not one a query returned/,
      },
      {
        name: 'acted with an out-of-date revision',
        observed: observe({ page: page({ revision: R1, agentEnabled: true }), facts: [tool({ op: 'query' }, ok('query', R1)), tool(act('bean-scarlet', 1, R0), no('act', 'stale-revision', R1))] }),
        says: /stale-revision/,
      },
    ],
  },
  'stale-reuse': {
    pass: observe({ page: page({ revision: R2, agentEnabled: true, held: { 'bean-scarlet': 1 } }), facts: [tool(act('bean-scarlet', 1, R1), no('act', 'stale-revision', R2))] }),
    wrong: [
      {
        name: 'reused the latest revision instead',
        observed: observe({ page: page({ revision: R3, agentEnabled: true, held: { 'bean-scarlet': 2 } }), facts: [tool(act('bean-scarlet', 1, R2), ok('act', R3))] }),
        says: /reserved again/,
      },
      {
        name: 'made a revision up',
        observed: observe({ page: page({ revision: R2, agentEnabled: true, held: { 'bean-scarlet': 1 } }), facts: [tool(act('bean-scarlet', 1, 'COPY_THE_LATEST_REVISION'), no('act', 'stale-revision', R2))] }),
        says: /made up/,
      },
      {
        name: 'refused, but the seed desk entries changed',
        observed: observe({ page: page({ revision: R2, agentEnabled: true, held: { 'bean-scarlet': 1 } }), facts: [tool(act('bean-scarlet', 1, R1), no('act', 'stale-revision', R2), GREW)] }),
        says: /went from 1 to 2/,
      },
    ],
  },
  'tool-refusals': {
    pass: observe({
      page: page({ revision: R2, agentEnabled: true }),
      facts: [
        tool(act('basil', 1, R2), no('act', 'invalid-target', R2)),
        tool(act('basil-genovese', 0, R2), no('act', 'invalid-quantity', R2)),
        tool(act('marigold-french', 4, R2), no('act', 'insufficient-availability', R2)),
      ],
    }),
    wrong: [
      {
        name: 'met only two of the three',
        observed: observe({ page: page({ revision: R2, agentEnabled: true }), facts: [tool(act('basil', 1, R2), no('act', 'invalid-target', R2)), tool(act('basil-genovese', 0, R2), no('act', 'invalid-quantity', R2))] }),
        says: /insufficient-availability/,
      },
      {
        name: 'sent the count as a string, so the schema stopped it',
        observed: observe({
          page: page({ revision: R2, agentEnabled: true }),
          facts: [tool(act('basil', 1, R2), no('act', 'invalid-target', R2)), tool({ ...act('basil-genovese', 0, R2), packets: '0' }, hostError('schema', 'Validation failed')), tool(act('marigold-french', 4, R2), no('act', 'insufficient-availability', R2))],
        }),
        says: /schema/,
      },
    ],
  },
  'excess-release': {
    pass: observe({
      page: page({ revision: R2, agentEnabled: true, held: { 'bean-scarlet': 1 } }),
      facts: [tool({ ...act('bean-scarlet', 2, R2), action: 'release' }, no('act', 'insufficient-reservation', R2)), refused('insufficient-reservation', 'line', release('bean-scarlet', 2))],
    }),
    wrong: [
      {
        name: 'only through the tool',
        observed: observe({ page: page({ revision: R2, agentEnabled: true, held: { 'bean-scarlet': 1 } }), facts: [tool({ ...act('bean-scarlet', 2, R2), action: 'release' }, no('act', 'insufficient-reservation', R2))] }),
        says: /seeds release bean-scarlet 2/,
      },
      { name: 'only through the command', observed: observe({ page: page({ revision: R2, agentEnabled: true, held: { 'bean-scarlet': 1 } }), facts: [refused('insufficient-reservation', 'line', release('bean-scarlet', 2))] }), says: /through seed_desk/ },
      {
        name: 'released what was held instead',
        observed: observe({ page: page({ revision: R3, agentEnabled: true }), facts: [tool({ ...act('bean-scarlet', 1, R2), action: 'release' }, ok('act', R3))] }),
        says: /went through/,
      },
      {
        name: 'refused, but an entry appeared',
        observed: observe({
          page: page({ revision: R2, agentEnabled: true, held: { 'bean-scarlet': 1 } }),
          facts: [tool({ ...act('bean-scarlet', 2, R2), action: 'release' }, no('act', 'insufficient-reservation', R2)), refused('insufficient-reservation', 'line', release('bean-scarlet', 2), GREW)],
        }),
        says: /went from 1 to 2/,
      },
    ],
  },
  'journal-filter': {
    pass: observe({ page: page({ seedDeskEntryCount: 2 }), journalFilter: '"customType":"seed-desk-state-v1"' }),
    wrong: [
      { name: 'filtered by a seed name', observed: observe({ page: page({ seedDeskEntryCount: 2 }), journalFilter: 'basil' }), says: /custom type/ },
      { name: 'no filter', observed: observe({ page: page({ seedDeskEntryCount: 2 }) }), says: /Filter journal/ },
    ],
  },
  'reopen-survives': {
    pass: observe({ page: page({ revision: R2, agentEnabled: true, held: { 'basil-genovese': 2 } }), facts: [answer(R2, { 'basil-genovese': 2 }), reopened('e0000002', 'e0000002'), answer(R2, { 'basil-genovese': 2 })] }),
    wrong: [
      { name: 'queried without reopening', observed: observe({ page: page({ revision: R2, held: { 'basil-genovese': 2 } }), facts: [answer(R2, { 'basil-genovese': 2 })] }), says: /Reopen session/ },
      { name: 'reopened but did not query', observed: observe({ page: page({ revision: R2, held: { 'basil-genovese': 2 } }), facts: [reopened('e0000002', 'e0000002')] }), says: /seeds query/ },
    ],
  },
  'rewind-before-reservation': {
    pass: observe({ page: page({ revision: R1, agentEnabled: true, seedDeskEntryCount: 2, branch: [message('m1', 'user'), deskItem('e0000001', R1)] }), facts: [{ kind: 'navigated', entryId: 'e0000001' }] }),
    wrong: [
      {
        name: 'released the basil instead',
        observed: observe({
          page: page({ revision: R3, agentEnabled: true, seedDeskEntryCount: 3, branch: [deskItem('e0000001', R1), deskItem('e0000002', R2), deskItem('e0000003', R3)] }),
          facts: [opened(release('basil-genovese', 2)), committed(release('basil-genovese', 2))],
        }),
        says: /appended/,
      },
      { name: 'started a new session', observed: observe({ page: page({ sessionId: 'other' }), facts: [{ kind: 'new-session' }] }), says: /new session/ },
    ],
  },
  'plain-move-not-kept': {
    pass: observe({
      page: page({ revision: R2, agentEnabled: true, leafId: 'e0000002', held: { 'basil-genovese': 2 } }),
      facts: [{ kind: 'navigated', entryId: 'e0000001' }, reopened('e0000001', 'e0000002', { navigated: true, foreignEntryId: null })],
    }),
    wrong: [
      { name: 'moved but did not reopen', observed: observe({ page: page({ revision: R1, agentEnabled: true, transientLeaf: true }), facts: [{ kind: 'navigated', entryId: 'e0000001' }] }), says: /Reopen session/ },
      { name: 'reopened without moving', observed: observe({ page: page({ revision: R2, held: { 'basil-genovese': 2 } }), facts: [reopened('e0000002', 'e0000002')] }), says: /Branch from here/ },
      {
        name: 'wrote a message where it moved, then reopened',
        observed: observe({ page: page({ revision: R1, agentEnabled: true }), facts: [{ kind: 'navigated', entryId: 'e0000001' }, { kind: 'said', text: 'here' }, reopened('m0000003', 'm0000003')] }),
        says: /appended/,
      },
    ],
  },
  'written-branch-kept': {
    pass: observe({
      page: page({ revision: R3, agentEnabled: true, seedDeskEntryCount: 3, leafId: 'e0000003', held: { 'basil-genovese': 1 }, branch: [deskItem('e0000001', R1), deskItem('e0000003', R3)] }),
      facts: [reopened('e0000003', 'e0000003')],
    }),
    wrong: [
      { name: 'did not reopen', observed: observe({ page: page({ revision: R3, held: { 'basil-genovese': 1 } }) }), says: /Reopen session/ },
      {
        name: 'reopened from a plain move (the leaf moved)',
        observed: observe({ page: page({ revision: R2, held: { 'basil-genovese': 2 } }), facts: [reopened('e0000001', 'e0000002', { navigated: true, foreignEntryId: null })] }),
        says: /moved the leaf/,
      },
    ],
  },
  'corrupt-branch': {
    pass: observe({ page: page({ revision: R1, seedDeskEntryCount: 2 }), facts: [refused('corrupt-state', 'line', null, { before: 2, after: 2 }), { kind: 'navigated', entryId: 'e0000001' }, answer(R1)] }),
    wrong: [
      { name: 'never met the refusal', observed: observe({ page: page({ revision: R1, seedDeskEntryCount: 2 }), facts: [answer(R1)] }), says: /Try it: corrupt-state/ },
      { name: 'met it but did not query after stepping back', observed: observe({ page: page({ revision: R1, seedDeskEntryCount: 2 }), facts: [refused('corrupt-state', 'line', null)] }), says: /seeds query/ },
      { name: 'the refusal wrote an entry', observed: observe({ page: page({ revision: R1, seedDeskEntryCount: 2 }), facts: [refused('corrupt-state', 'line', null, GREW), answer(R1)] }), says: /went from 1 to 2/ },
    ],
  },
  'sibling-reservation': {
    pass: observe({
      page: page({ revision: R3, agentEnabled: true, held: { 'basil-genovese': 1 }, seedDeskEntryCount: 3, branch: [deskItem('e0000001', R1), deskItem('e0000003', R3)] }),
      facts: [opened(reserve('basil-genovese', 1)), committed(reserve('basil-genovese', 1))],
    }),
    wrong: [
      {
        name: 'reserved without going back first',
        observed: observe({
          page: page({ revision: R3, agentEnabled: true, held: { 'basil-genovese': 3 }, seedDeskEntryCount: 3, branch: [deskItem('e0000001', R1), deskItem('e0000002', R2), deskItem('e0000003', R3)] }),
          facts: [opened(reserve('basil-genovese', 1)), committed(reserve('basil-genovese', 1))],
        }),
        says: /already held/,
      },
    ],
  },
  'sibling-token-refused': {
    pass: observe({
      page: page({ revision: R3, agentEnabled: true, held: { 'basil-genovese': 1 } }),
      comparison: comparison({ tip: 'e0000003', revision: R3, held: { 'basil-genovese': 1 } }, { tip: 'e0000002', revision: R2, held: { 'basil-genovese': 2 } }, 'e0000001'),
      facts: [tool(act('bean-scarlet', 1, R2), no('act', 'stale-revision', R3)), refused('stale-revision', 'compare', null)],
    }),
    wrong: [
      {
        name: 'compared but did not try the token',
        observed: observe({
          page: page({ revision: R3, agentEnabled: true, held: { 'basil-genovese': 1 } }),
          comparison: comparison({ tip: 'e0000003', revision: R3, held: { 'basil-genovese': 1 } }, { tip: 'e0000002', revision: R2, held: { 'basil-genovese': 2 } }, 'e0000001'),
        }),
        says: /Try an act here/,
      },
      {
        name: 'compared with an entry on the own branch',
        observed: observe({
          page: page({ revision: R3, agentEnabled: true, held: { 'basil-genovese': 1 } }),
          comparison: comparison({ tip: 'e0000003', revision: R3, held: { 'basil-genovese': 1 } }, { tip: 'e0000001', revision: R1, held: {} }, 'e0000001'),
          facts: [refused('stale-revision', 'compare', null)],
        }),
        says: /own branch/,
      },
      {
        name: 'refused, but an entry appeared',
        observed: observe({
          page: page({ revision: R3, agentEnabled: true, held: { 'basil-genovese': 1 } }),
          comparison: comparison({ tip: 'e0000003', revision: R3, held: { 'basil-genovese': 1 } }, { tip: 'e0000002', revision: R2, held: { 'basil-genovese': 2 } }, 'e0000001'),
          facts: [refused('stale-revision', 'compare', null, GREW)],
        }),
        says: /went from 1 to 2/,
      },
    ],
  },
  'fresh-session': {
    pass: observe({ page: page({ sessionId: 'fresh', revision: 'fresh:root' }), facts: [{ kind: 'new-session' }, answer('fresh:root')] }),
    wrong: [
      {
        name: 'went to the start of the same session',
        observed: observe({ page: page({ seedDeskEntryCount: 3 }), facts: [{ kind: 'navigated', entryId: 'm1' }, answer(R0)] }),
        says: /same session/,
      },
      { name: 'did nothing yet', observed: observe({ page: page({ seedDeskEntryCount: 3 }) }), says: /New session/ },
    ],
  },
  'revoke-agent': {
    pass: observe({ page: page({ revision: R2, seedDeskEntryCount: 2 }), facts: [committed(grant(true)), committed(grant(false))] }),
    wrong: [
      { name: 'cancelled the switch-off', observed: observe({ page: page({ revision: R1, agentEnabled: true }), facts: [committed(grant(true)), opened(grant(false)), cancelled(grant(false))] }), says: /cancelled the switch-off/ },
      { name: 'only switched off (it was never on)', observed: observe({ page: page({ revision: R1 }), facts: [committed(grant(false))] }), says: /first switch the agent on/ },
    ],
  },
  'headless-ui-required': {
    pass: observe({ page: page({ interactive: false }), facts: [{ kind: 'interactive', value: false }, refused('ui-required', 'line', grant(true)), answer(R0)] }),
    wrong: [
      { name: 'tried the grant with the UI still on', observed: observe({ facts: [opened(grant(true))] }), says: /still has an interactive UI/ },
      { name: 'refused, but did not query', observed: observe({ page: page({ interactive: false }), facts: [{ kind: 'interactive', value: false }, refused('ui-required', 'line', grant(true))] }), says: /seeds query/ },
      { name: 'refused, but an entry appeared', observed: observe({ page: page({ interactive: false }), facts: [{ kind: 'interactive', value: false }, refused('ui-required', 'line', grant(true), GREW), answer(R0)] }), says: /went from 1 to 2/ },
    ],
  },
  'act-after-revoke': {
    pass: observe({ page: page({ revision: R2, seedDeskEntryCount: 2 }), facts: [tool({ op: 'query' }, ok('query', R2)), tool(act('bean-scarlet', 1, R2), no('act', 'agent-disabled', R2))] }),
    wrong: [
      { name: 'never granted or revoked', observed: observe({ facts: [tool(act('bean-scarlet', 1, R0), no('act', 'agent-disabled', R0))] }), says: /never had a grant/ },
      { name: 'act stopped by the host', observed: observe({ page: page({ revision: R2, seedDeskEntryCount: 2 }), facts: [tool(act('bean-scarlet', 1, R2), resolved(hostError('approval', 'blocked by user policy'), BY_USER_DENY))] }), says: /blocked/ },
    ],
  },
  'headless-revoke-refused': {
    pass: observe({ page: page({ revision: R3, agentEnabled: true, interactive: false, seedDeskEntryCount: 3 }), facts: [refused('ui-required', 'line', grant(false))] }),
    wrong: [
      { name: 'revoked with the UI on', observed: observe({ page: page({ revision: R3, seedDeskEntryCount: 4 }), facts: [opened(grant(false)), committed(grant(false))] }), says: /dialog let you switch the agent off/ },
      { name: 'nothing tried', observed: observe({ page: page({ revision: R3, agentEnabled: true, interactive: false }) }), says: /seeds agent off/ },
      { name: 'refused, but an entry appeared', observed: observe({ page: page({ revision: R3, agentEnabled: true, interactive: false }), facts: [refused('ui-required', 'line', grant(false), GREW)] }), says: /went from 1 to 2/ },
    ],
  },
  'headless-reopen-grant': {
    pass: observe({
      page: page({ revision: R1, agentEnabled: true, interactive: false }),
      facts: [{ kind: 'interactive', value: true }, opened(grant(true)), committed(grant(true)), { kind: 'interactive', value: false }, reopened('e0000002', 'e0000002')],
    }),
    wrong: [
      { name: 'reopened with the UI still on', observed: observe({ page: page({ revision: R1, agentEnabled: true }), facts: [committed(grant(true)), reopened('e0000002', 'e0000002')] }), says: /UI still on/ },
      { name: 'tried to grant while headless', observed: observe({ page: page({ interactive: false }), facts: [refused('ui-required', 'line', grant(true))] }), says: /needs a dialog/ },
    ],
  },
  'headless-tool-allow': {
    pass: observe({
      page: page({ revision: R2, agentEnabled: true, interactive: false, held: { 'bean-scarlet': 1 } }),
      facts: [tool({ op: 'query' }, resolved(ok('query', R1), BY_MODE_ALLOW)), tool(act('bean-scarlet', 1, R1), resolved(ok('act', R2), BY_MODE_ALLOW))],
    }),
    wrong: [
      {
        name: 'acted with the UI switched back on',
        observed: observe({ page: page({ revision: R2, agentEnabled: true, held: { 'bean-scarlet': 1 } }), facts: [{ kind: 'interactive', value: true }, tool(act('bean-scarlet', 1, R1), resolved(ok('act', R2), BY_MODE_ALLOW))] }),
        says: /interactive UI on/,
      },
      {
        name: 'left a prompt policy set',
        observed: observe({
          page: page({ revision: R1, agentEnabled: true, interactive: false, approvalPolicy: 'prompt' }),
          facts: [tool(act('bean-scarlet', 1, R1), resolved(hostError('approval', NO_UI), BY_USER_PROMPT))],
        }),
        says: /blocked/,
      },
    ],
  },
  'headless-prompt-fails-closed': {
    pass: observe({
      page: page({ revision: R2, agentEnabled: true, interactive: false, approvalMode: 'always-ask' }),
      facts: [{ kind: 'approval-mode', value: 'always-ask' }, tool(act('bean-scarlet', 1, R2), resolved(hostError('approval', NO_UI), BY_MODE_PROMPT))],
    }),
    wrong: [
      {
        name: 'prompted with the UI on',
        observed: observe({
          page: page({ revision: R2, agentEnabled: true, approvalMode: 'always-ask' }),
          facts: [{ kind: 'approval-mode', value: 'always-ask' }, tool(act('bean-scarlet', 1, R2), { kind: 'approval', callId: 'call_1', prompt: 'Allow tool: seed_desk', approval: BY_MODE_PROMPT })],
        }),
        says: /interactive/,
      },
      {
        name: 'chose a deny policy instead',
        observed: observe({ page: page({ revision: R2, agentEnabled: true, interactive: false, approvalPolicy: 'deny' }), facts: [{ kind: 'policy', value: 'deny' }, tool(act('bean-scarlet', 1, R2), resolved(hostError('approval', 'blocked by user policy'), BY_USER_DENY))] }),
        says: /deny/,
      },
      { name: 'left the mode on yolo (the desk answered)', observed: observe({ page: page({ revision: R3, agentEnabled: true, interactive: false }), facts: [tool(act('bean-scarlet', 1, R2), resolved(ok('act', R3), BY_MODE_ALLOW), GREW)] }), says: /always-ask/ },
    ],
  },
  'mode-vs-grant': {
    pass: observe({
      page: page({ revision: R2, agentEnabled: true, approvalMode: 'always-ask' }),
      facts: [{ kind: 'interactive', value: true }, tool(act('bean-scarlet', 1, R2), resolved(hostError('approval', 'Tool call denied by user: seed_desk'), BY_MODE_PROMPT))],
    }),
    wrong: [
      {
        name: 'approved instead of denying',
        observed: observe({ page: page({ revision: R3, agentEnabled: true, approvalMode: 'always-ask' }), facts: [{ kind: 'interactive', value: true }, tool(act('bean-scarlet', 1, R2), resolved(ok('act', R3), BY_MODE_PROMPT), GREW)] }),
        says: /approved/,
      },
      {
        name: 'still headless (failed closed, no prompt)',
        observed: observe({ page: page({ revision: R2, agentEnabled: true, interactive: false, approvalMode: 'always-ask' }), facts: [{ kind: 'interactive', value: false }, tool(act('bean-scarlet', 1, R2), resolved(hostError('approval', NO_UI), BY_MODE_PROMPT))] }),
        says: /Tick "Interactive UI"/,
      },
      {
        name: 'a user policy prompted, not the mode',
        observed: observe({ page: page({ revision: R2, agentEnabled: true, approvalPolicy: 'prompt' }), facts: [{ kind: 'interactive', value: true }, tool(act('bean-scarlet', 1, R2), resolved(hostError('approval', 'Tool call denied by user: seed_desk'), BY_USER_PROMPT))] }),
        says: /not set/,
      },
    ],
  },
  'cancel-changes-nothing': {
    pass: observe({ facts: [opened(reserve('marigold-french', 1)), cancelled(reserve('marigold-french', 1)), answer(R0)] }),
    wrong: [
      { name: 'confirmed', observed: observe({ page: page({ revision: R1, held: { 'marigold-french': 1 } }), facts: [opened(reserve('marigold-french', 1)), committed(reserve('marigold-french', 1))] }), says: /committed/ },
      { name: 'cancelled but did not look', observed: observe({ facts: [opened(reserve('marigold-french', 1)), cancelled(reserve('marigold-french', 1))] }), says: /seeds query/ },
    ],
  },
  'query-after-commit': {
    pass: observe({ page: page({ revision: R1, held: { 'marigold-french': 1 } }), facts: [opened(reserve('marigold-french', 1)), committed(reserve('marigold-french', 1)), answer(R1, { 'marigold-french': 1 })] }),
    wrong: [
      {
        name: 'retried blindly before querying',
        observed: observe({
          page: page({ revision: R2, held: { 'marigold-french': 2 } }),
          facts: [committed(reserve('marigold-french', 1)), committed(reserve('marigold-french', 1)), answer(R2, { 'marigold-french': 2 })],
        }),
        says: /committed again before querying/,
      },
      { name: 'committed and moved on', observed: observe({ page: page({ revision: R1, held: { 'marigold-french': 1 } }), facts: [committed(reserve('marigold-french', 1))] }), says: /seeds query/ },
    ],
  },
  'persistence-gate': {
    pass: observe({ page: page({ revision: R1, hostFileWritten: true, branch: [deskItem('e0000001', R1), message('a0000002', 'assistant'), message('t0000003', 'toolResult')] }), facts: [tool({ op: 'query' }, ok('query', R1))] }),
    wrong: [
      { name: 'did not call the tool (no assistant message yet)', observed: observe({ page: page({ revision: R1, branch: [deskItem('e0000001', R1)] }) }), says: /no assistant message yet/ },
      {
        name: 'the assistant message came before any seed desk entry',
        observed: observe({ page: page({ revision: R1, hostFileWritten: true, branch: [message('a0000001', 'assistant'), deskItem('e0000002', R1)] }), facts: [tool({ op: 'query' }, ok('query', R1))] }),
        says: /waiting in memory/,
      },
    ],
  },
  'events-start-nothing': {
    pass: observe({
      page: page({ revision: R2, events: [changedEvent(R1), changedEvent(R2)], branch: [deskItem('e0000001', R1), deskItem('e0000002', R2)] }),
      facts: [opened(release('marigold-french', 1)), committed(release('marigold-french', 1))],
    }),
    wrong: [
      {
        name: 'called the tool after the change',
        observed: observe({
          page: page({ revision: R2, agentEnabled: true, events: [changedEvent(R2)], branch: [deskItem('e0000002', R2), message('a1', 'assistant'), message('t1', 'toolResult')] }),
          facts: [committed(release('marigold-french', 1)), tool({ op: 'query' }, ok('query', R2))],
        }),
        says: /seed_desk call/,
      },
      { name: 'only wrote a message', observed: observe({ page: page({ revision: R1, branch: [message('m1', 'user')] }), facts: [{ kind: 'said', text: 'anything new?' }] }), says: /confirm/ },
    ],
  },
  'append-no-receipt': {
    pass: observe({ page: page({ revision: R2, branch: [message('m0000001', 'user'), deskItem('e0000002', R2)] }), facts: [opened(reserve('marigold-french', 1)), committed(reserve('marigold-french', 1))] }),
    wrong: [
      { name: 'cancelled instead', observed: observe({ page: page({ revision: R1, branch: [deskItem('e0000001', R1)] }), facts: [cancelled(reserve('marigold-french', 1))] }), says: /Confirm/ },
      {
        name: 'the entry claims to be sent to the model',
        observed: observe({ page: page({ revision: R2, branch: [{ ...deskItem('e0000002', R2), modelVisible: true }] }), facts: [committed(reserve('marigold-french', 1))] }),
        says: /sent to the model/,
      },
    ],
  },
  'render-result-presentation': {
    pass: observe({ page: page({ revision: R2 }), facts: [tool({ op: 'inspect', id: 'marigold-french' }, ok('inspect', R2))] }),
    wrong: [
      { name: 'the call was refused', observed: observe({ page: page({ revision: R2 }), facts: [tool({ op: 'inspect', id: 'marigold' }, no('inspect', 'invalid-target', R2))] }), says: /invalid-target/ },
      { name: 'the host blocked it', observed: observe({ page: page({ revision: R2 }), facts: [tool({ op: 'inspect', id: 'marigold-french' }, resolved(hostError('approval', 'blocked'), BY_USER_DENY))] }), says: /blocked/ },
    ],
  },
  'gates-spare-other-code': {
    pass: observe({
      page: page({ revision: R3, approvalPolicy: 'deny', held: { 'marigold-french': 2 } }),
      facts: [{ kind: 'policy', value: 'deny' }, tool({ op: 'query' }, resolved(hostError('approval', 'blocked by user policy'), BY_USER_DENY)), opened(reserve('marigold-french', 1)), committed(reserve('marigold-french', 1))],
    }),
    wrong: [
      { name: 'never blocked the tool', observed: observe({ page: page({ revision: R3 }), facts: [committed(reserve('marigold-french', 1))] }), says: /deny/ },
      {
        name: 'blocked the tool but ran no command after',
        observed: observe({ page: page({ revision: R2, approvalPolicy: 'deny' }), facts: [tool({ op: 'query' }, resolved(hostError('approval', 'blocked by user policy'), BY_USER_DENY))] }),
        says: /command still works/,
      },
    ],
  },
  'storage-failure-latch': {
    pass: observe({ facts: [{ kind: 'storage-failed', text: 'aborted' }, { kind: 'storage-failed', text: 'Writes are stopped' }, reopened('e0000002', 'e0000002')] }),
    wrong: [
      { name: 'reopened right after the first failure', observed: observe({ facts: [{ kind: 'storage-failed', text: 'aborted' }, reopened('e0000002', 'e0000002')] }), says: /one more change/ },
      { name: 'never reopened', observed: observe({ page: page({ writeFailure: 'aborted' }), facts: [{ kind: 'storage-failed', text: 'aborted' }, { kind: 'storage-failed', text: 'Writes are stopped' }] }), says: /Reopen session/ },
    ],
  },
  'reserve-all-marigolds': {
    pass: observe({ page: page({ revision: R2, held: { 'basil-genovese': 1, 'marigold-french': 3 } }), facts: [committed(reserve('marigold-french', 3))] }),
    wrong: [{ name: 'reserved only two', observed: observe({ page: page({ revision: R2, held: { 'basil-genovese': 1, 'marigold-french': 2 } }), facts: [committed(reserve('marigold-french', 2))] }), says: /reserve all/ }],
  },
  'other-tab-reserves': {
    pass: observe({ page: page({ revision: R2, held: { 'basil-genovese': 1, 'marigold-french': 3 }, seedDeskEntryCount: 3, branch: [deskItem('e0000001', R1), deskItem('e0000002', R2)] }), facts: [{ kind: 'foreign-append' }] }),
    wrong: [
      {
        name: 'branched and reserved in this same tab',
        observed: observe({
          page: page({ revision: R3, held: { 'basil-genovese': 1, 'marigold-french': 3 }, seedDeskEntryCount: 3, branch: [deskItem('e0000001', R1), deskItem('e0000003', R3)] }),
          facts: [{ kind: 'navigated', entryId: 'e0000001' }, committed(reserve('marigold-french', 3))],
        }),
        says: /THIS tab/,
      },
    ],
  },
  'compare-overbooked': {
    pass: observe({
      page: page({ revision: R2 }),
      comparison: comparison({ tip: 'e0000002', revision: R2, held: { 'basil-genovese': 1, 'marigold-french': 3 } }, { tip: 'e0000003', revision: R3, held: { 'basil-genovese': 1, 'marigold-french': 3 } }, 'e0000001'),
    }),
    wrong: [
      {
        name: 'compared with the basil entry on the own branch',
        observed: observe({
          page: page({ revision: R2 }),
          comparison: comparison({ tip: 'e0000002', revision: R2, held: { 'basil-genovese': 1, 'marigold-french': 3 } }, { tip: 'e0000001', revision: R1, held: { 'basil-genovese': 1 } }, 'e0000001'),
        }),
        says: /own branch/,
      },
      { name: 'did not compare', observed: observe({ page: page({ revision: R2 }) }), says: /Compare with selected/ },
    ],
  },
  'closing-answer': {
    pass: observe({ facts: [{ kind: 'closing-answer', value: 'yes' }, { kind: 'closing-answer', value: 'no' }] }),
    wrong: [
      { name: 'answered yes', observed: observe({ facts: [{ kind: 'closing-answer', value: 'yes' }] }), says: /authoritative store/ },
      { name: 'did not answer', observed: observe(), says: /choose an answer/ },
    ],
  },
};

describe('checkpoints', () => {
  it('has cases for exactly the registered checkpoints', () => {
    expect(Object.keys(CASES).sort()).toEqual(Object.keys(CHECKPOINTS).sort());
  });

  describe.each(Object.entries(CASES))('%s', (key, { pass, wrong }) => {
    const check = (observed: Observed) => checkStep({ id: key, checkpoint: key }, observed);

    it('passes when done the right way', () => {
      expect(check(pass)).toEqual({ done: true, whyNot: null });
    });

    it('does not pass on an empty start', () => {
      const result = check(observe());
      expect(result.done).toBe(false);
      expect(result.whyNot).toMatch(/^Not yet: \S/);
    });

    it.each(wrong.map((attempt) => [attempt.name, attempt] as const))('does not pass when %s, and says why', (_name, attempt) => {
      const result = check(attempt.observed);
      expect(result.done).toBe(false);
      expect(result.whyNot).toMatch(/^Not yet: \S/);
      expect(result.whyNot).toMatch(attempt.says);
    });
  });

  it('refuses to judge a corrupt branch', () => {
    const corrupt = { ...CASES['query-desk']!.pass, view: page({ corrupt: { entryId: 'bad00001', problem: '99 of 8' } }).view };
    const result = checkStep({ id: 'query-desk', checkpoint: 'query-desk' }, corrupt);
    expect(result.done).toBe(false);
    expect(result.whyNot).toMatch(/corrupt \(entry bad00001\)/);
  });

  it('never ticks a step whose checkpoint is not registered', () => {
    for (const key of ['no-such-checkpoint', 'toString', '__proto__']) {
      const result = checkStep({ id: 'x', checkpoint: key }, CASES['query-desk']!.pass);
      expect(result.done).toBe(false);
      expect(result.whyNot).toMatch(/This step has no checkpoint/);
    }
  });
});
