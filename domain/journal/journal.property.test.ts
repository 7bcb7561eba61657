/**
 * Seeded model-based tests of the journal and the desk decisions (tldraw's oracle habit): random
 * command sequences grow random trees, and after every step the incremental index must equal the
 * reference walk and a rebuild from the entries alone.
 *
 * Replay a failure: fast-check prints `{ seed, path }` in the failure message; the seed is also in
 * the test name. Run with another seed: FC_SEED=<seed> npx vitest run domain/journal/journal.property.test.ts
 * Replay one counterexample: FC_SEED=<seed> FC_PATH=<path> npx vitest run <this file> -t '<test name>'
 * (a path belongs to one property, so select it with -t).
 */
import * as fc from 'fast-check';
import { isDeepStrictEqual } from 'node:util';
import { describe, expect, it } from 'vitest';
import { decideGrant, decideReservation, type Decision } from '../desk';
import { FIXTURE, isFixtureId } from '../fixture';
import { asEntryId, asSessionId, seededIdSource, type EntryId, type SessionId } from '../ids';
import { reconstructBranch, type BranchState } from '../reconstruct';
import type { RefusalCode } from '../refusal';
import { deskRows, EMPTY_SNAPSHOT, normalizeSnapshot, parseSnapshot, SEED_DESK_CUSTOM_TYPE, type Snapshot } from '../snapshot';
import { planSeedDeskCall } from '../tool/seedDeskTool';
import {
  assistantMessageEntry,
  customEntry,
  editorTextOf,
  isReeditable,
  labelEntry,
  sessionFileName,
  sessionHeader,
  userMessageEntry,
  type JournalEntry,
} from './entry';
import { SessionJournal } from './journal';

const DEFAULT_SEED = 20260501;
const envSeed = process.env['FC_SEED'];
const SEED = envSeed !== undefined && envSeed !== '' ? Number(envSeed) : DEFAULT_SEED;
const PATH = process.env['FC_PATH'] || undefined;
const TIME = '2026-05-01T12:00:00.000Z';

// ---------------------------------------------------------------- commands

type Pick = number;
type RevisionChoice = { readonly kind: 'current' } | { readonly kind: 'at'; readonly pick: Pick } | { readonly kind: 'foreign'; readonly pick: Pick };

type Command =
  | { readonly t: 'reserve'; readonly action: 'reserve' | 'release'; readonly id: unknown; readonly packets: unknown; readonly rev: RevisionChoice; readonly interactive: boolean }
  | { readonly t: 'grant'; readonly enabled: boolean; readonly rev: RevisionChoice; readonly interactive: boolean }
  | { readonly t: 'act'; readonly action: 'reserve' | 'release'; readonly id: unknown; readonly packets: unknown; readonly rev: RevisionChoice }
  | { readonly t: 'query'; readonly family: string | undefined }
  | { readonly t: 'user'; readonly text: string }
  | { readonly t: 'assistant'; readonly text: string }
  | { readonly t: 'otherCustom' }
  | { readonly t: 'label'; readonly pick: Pick; readonly text: string | undefined }
  | { readonly t: 'rawDesk'; readonly data: unknown }
  | { readonly t: 'move'; readonly pick: Pick | null }
  | { readonly t: 'navigate'; readonly pick: Pick }
  | { readonly t: 'reopen' }
  | { readonly t: 'fork' };

const pickArb = fc.nat({ max: 1000 });
const revArb: fc.Arbitrary<RevisionChoice> = fc.oneof(
  { weight: 6, arbitrary: fc.constant({ kind: 'current' as const }) },
  { weight: 3, arbitrary: pickArb.map((pick) => ({ kind: 'at' as const, pick })) },
  { weight: 1, arbitrary: pickArb.map((pick) => ({ kind: 'foreign' as const, pick })) },
);
const idArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...FIXTURE.map((item) => item.id)) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>('Basil-genovese', ' basil-genovese', 'tomato', '__proto__', 'constructor', 7, undefined) },
);
const packetsArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 8, arbitrary: fc.integer({ min: 1, max: 4 }) },
  { weight: 1, arbitrary: fc.integer({ min: 5, max: 9 }) },
  { weight: 1, arbitrary: fc.constantFrom<unknown>(0, -1, 1.5, 2 ** 53, Number.NaN, '2', null) },
);
const actionArb = fc.constantFrom('reserve' as const, 'release' as const);
/** Mostly true: a false refuses the whole command early, which teaches little after the first time. */
const mostlyTrue = fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) });

/** Deliberately corrupt snapshots (and a few hand-written valid ones, as an import might hold). */
const rawDeskDataArb: fc.Arbitrary<unknown> = fc.oneof(
  { weight: 2, arbitrary: fc.constantFrom<unknown>(
    { version: 2, agentEnabled: false, quantities: {} },
    { version: 1, agentEnabled: 'yes', quantities: {} },
    { version: 1, agentEnabled: true, quantities: { tomato: 1 } },
    { version: 1, agentEnabled: true, quantities: { 'basil-genovese': 9 } },
    { version: 1, agentEnabled: false, quantities: { 'bean-scarlet': 1.5 } },
    { version: 1, agentEnabled: false, quantities: { 'marigold-french': -1 } },
    { version: 1, agentEnabled: false, quantities: {}, extra: true },
    null,
    'not a snapshot',
  ) },
  { weight: 1, arbitrary: fc.constant(null).map(() => JSON.parse('{"version":1,"agentEnabled":false,"quantities":{"__proto__":1}}') as unknown) },
  { weight: 3, arbitrary: fc
    .record({
      agentEnabled: fc.boolean(),
      basil: fc.integer({ min: 0, max: 8 }),
      bean: fc.integer({ min: 0, max: 5 }),
      marigold: fc.integer({ min: 0, max: 3 }),
    })
    .map(({ agentEnabled, basil, bean, marigold }) => ({
      version: 1,
      agentEnabled,
      quantities: { 'marigold-french': marigold, 'basil-genovese': basil, 'bean-scarlet': bean },
    })) },
);

const commandArb: fc.Arbitrary<Command> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ t: fc.constant('reserve' as const), action: actionArb, id: idArb, packets: packetsArb, rev: revArb, interactive: mostlyTrue }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('grant' as const), enabled: mostlyTrue, rev: revArb, interactive: mostlyTrue }) },
  { weight: 4, arbitrary: fc.record({ t: fc.constant('act' as const), action: actionArb, id: idArb, packets: packetsArb, rev: revArb }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('query' as const), family: fc.constantFrom(undefined, 'bean', 'Bean', 'bea', 'basil') }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('user' as const), text: fc.constantFrom('hi', '/seeds query', 'reserve some basil') }) },
  { weight: 2, arbitrary: fc.record({ t: fc.constant('assistant' as const), text: fc.constantFrom('ok', 'done') }) },
  { weight: 1, arbitrary: fc.constant({ t: 'otherCustom' as const }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('label' as const), pick: pickArb, text: fc.constantFrom<string | undefined>('plan A', 'plan B', '', undefined) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('rawDesk' as const), data: rawDeskDataArb }) },
  { weight: 3, arbitrary: fc.record({ t: fc.constant('move' as const), pick: fc.option(pickArb, { freq: 6 }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('navigate' as const), pick: pickArb }) },
  { weight: 1, arbitrary: fc.constant({ t: 'reopen' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'fork' as const }) },
);

// ---------------------------------------------------------------- the independent model

type Expected = { readonly ok: true; readonly snapshot: Snapshot } | { readonly ok: false; readonly code: RefusalCode };

/** The contract's order of checks, written again from DESIGN.md §3, against the reference state. */
function expectedReservation(
  ref: BranchState,
  req: { action: 'reserve' | 'release'; id: unknown; packets: unknown; expectedRevision: string; actor: 'human' | 'agent' },
  interactive: boolean,
): Expected {
  if (req.actor === 'human' && !interactive) return { ok: false, code: 'ui-required' };
  if (!ref.ok) return { ok: false, code: 'corrupt-state' };
  if (req.actor === 'agent' && !ref.snapshot.agentEnabled) return { ok: false, code: 'agent-disabled' };
  if (typeof req.id !== 'string' || !FIXTURE.some((item) => item.id === req.id)) return { ok: false, code: 'invalid-target' };
  if (typeof req.packets !== 'number' || !Number.isSafeInteger(req.packets) || req.packets <= 0) return { ok: false, code: 'invalid-quantity' };
  if (req.expectedRevision !== ref.revision) return { ok: false, code: 'stale-revision' };
  const item = FIXTURE.find((candidate) => candidate.id === req.id)!;
  const held = ref.snapshot.quantities[item.id] ?? 0;
  if (req.action === 'reserve' && req.packets > item.packets - held) return { ok: false, code: 'insufficient-availability' };
  if (req.action === 'release' && req.packets > held) return { ok: false, code: 'insufficient-reservation' };
  const next = req.action === 'reserve' ? held + req.packets : held - req.packets;
  return { ok: true, snapshot: normalizeSnapshot(ref.snapshot.agentEnabled, { ...ref.snapshot.quantities, [item.id]: next }) };
}

function expectedGrant(ref: BranchState, enabled: boolean, expectedRevision: string, interactive: boolean): Expected {
  if (!interactive) return { ok: false, code: 'ui-required' };
  if (!ref.ok) return { ok: false, code: 'corrupt-state' };
  if (expectedRevision !== ref.revision) return { ok: false, code: 'stale-revision' };
  return { ok: true, snapshot: normalizeSnapshot(enabled, ref.snapshot.quantities) };
}

/** The corrupt-state rule in its plainest form: any invalid desk entry on the path poisons it; else the last wins. */
function plainBranchRule(path: readonly JournalEntry[]): { corrupt: EntryId } | { snapshot: Snapshot; head: EntryId | null } {
  const desks = path.filter((entry) => entry.type === 'custom' && entry['customType'] === SEED_DESK_CUSTOM_TYPE);
  const bad = desks.find((entry) => !parseSnapshot(entry['data']).ok);
  if (bad) return { corrupt: bad.id };
  const last = desks.at(-1);
  const parsed = last ? parseSnapshot(last['data']) : undefined;
  return { snapshot: parsed?.ok ? parsed.snapshot : EMPTY_SNAPSHOT, head: last?.id ?? null };
}

function sameAsPlainRule(state: BranchState, path: readonly JournalEntry[], what: string): void {
  const plain = plainBranchRule(path);
  if ('corrupt' in plain) {
    check(!state.ok, `${what}: a corrupt desk entry (${plain.corrupt}) must make the branch corrupt-state`);
    if (!state.ok) same(state.corruptEntryId, plain.corrupt, `${what}: the first corrupt entry is reported`);
  } else {
    check(state.ok, `${what}: a branch of valid desk entries must not be corrupt`);
    if (state.ok) same(state.snapshot, plain.snapshot, `${what}: the last desk entry wins`);
    same(state.deskHead, plain.head, `${what}: desk head`);
  }
}

// ---------------------------------------------------------------- the driver

class PropertyFailure extends Error {}

/** What the runs reached, so a generator that stopped reaching a rule shows up as a failure. */
const reached = new Map<string, number>();
const tally = (what: string): void => {
  reached.set(what, (reached.get(what) ?? 0) + 1);
};

function same(actual: unknown, expected: unknown, what: string): void {
  if (!isDeepStrictEqual(actual, expected)) {
    throw new PropertyFailure(`${what}\n  actual:   ${JSON.stringify(actual)}\n  expected: ${JSON.stringify(expected)}`);
  }
}
function check(condition: boolean, what: string): void {
  if (!condition) throw new PropertyFailure(what);
}

/** What a step did, for the revision rule. */
type Effect = 'desk-append' | 'other-append' | 'nothing' | 'leaf-move' | 'new-session';

class Run {
  journal: SessionJournal;
  private counter = 0;
  private sessions = 0;
  private readonly ids = seededIdSource(7);
  /** Revisions from sessions left behind by a fork, and made-up ones. */
  private readonly foreign: string[] = ['other-session:root', 'COPY_THE_LATEST_RETURNED_REVISION', ''];
  labels = new Map<string, string>();

  constructor() {
    this.journal = SessionJournal.empty(sessionHeader(this.newSessionId(), TIME, '/lab'));
    this.foreign.push(`${this.journal.sessionId}:deadbeef`);
  }

  private newSessionId(): SessionId {
    return asSessionId(`prop-session-${this.sessions++}`);
  }

  place() {
    return { id: asEntryId(`p${String(this.counter++).padStart(7, '0')}`), parentId: this.journal.leafId, timestamp: TIME };
  }

  pick(pick: Pick): JournalEntry | undefined {
    const all = this.journal.entries();
    return all.length === 0 ? undefined : all[pick % all.length];
  }

  revision(choice: RevisionChoice): string {
    if (choice.kind === 'current') return this.journal.revision();
    if (choice.kind === 'foreign') return this.foreign[choice.pick % this.foreign.length]!;
    const entry = this.pick(choice.pick);
    return this.journal.revision(entry ? entry.id : null);
  }

  appendDesk(data: unknown): EntryId {
    const entry = customEntry(SEED_DESK_CUSTOM_TYPE, data, this.place());
    this.journal.append(entry);
    return entry.id;
  }

  /** Applies a decision as the extension does: append exactly one entry on success, nothing otherwise. */
  settle(decision: Decision, expected: Expected, what: string): Effect {
    tally(expected.ok ? `${what}: ok` : expected.code);
    if (!expected.ok) {
      check(!decision.ok, `${what}: expected refusal ${expected.code}, but it was allowed`);
      if (!decision.ok) {
        same(decision.refusal.code, expected.code, `${what}: refusal code`);
        check(decision.refusal.message.length > 0 && decision.refusal.nextStep.length > 0, `${what}: refusal without message or next step`);
        check(!('snapshot' in decision), `${what}: a refusal carries a snapshot`);
      }
      return 'nothing';
    }
    if (!decision.ok) throw new PropertyFailure(`${what}: expected success, got ${decision.refusal.code}: ${decision.refusal.message}`);
    same(decision.snapshot, expected.snapshot, `${what}: new snapshot`);
    this.appendDesk(decision.snapshot);
    return 'desk-append';
  }

  step(command: Command): Effect {
    const j = this.journal;
    const ref = reconstructBranch(j.sessionId, j.branch());
    switch (command.t) {
      case 'reserve': {
        const req = { action: command.action, id: command.id, packets: command.packets, expectedRevision: this.revision(command.rev), actor: 'human' as const };
        return this.settle(decideReservation(j.state(), req, { interactive: command.interactive }), expectedReservation(ref, req, command.interactive), 'human reservation');
      }
      case 'grant': {
        const expectedRevision = this.revision(command.rev);
        return this.settle(
          decideGrant(j.state(), { enabled: command.enabled, expectedRevision }, { interactive: command.interactive }),
          expectedGrant(ref, command.enabled, expectedRevision, command.interactive),
          'grant',
        );
      }
      case 'act': {
        const expectedRevision = this.revision(command.rev);
        const raw = { op: 'act', action: command.action, id: command.id, packets: command.packets, expectedRevision };
        const plan = planSeedDeskCall(raw, j.state());
        if (command.id === undefined) {
          // A missing id never reaches the desk: the tool's own check of the op's fields stops it (opFields.ts).
          tally('agent act: missing id');
          check(plan.kind === 'error', `agent act without an id: expected the tool's error, got ${plan.kind}`);
          return 'nothing';
        }
        const expected = expectedReservation(ref, { ...raw, actor: 'agent' }, false);
        tally(expected.ok ? 'agent act: ok' : `agent act: ${expected.code}`);
        if (!expected.ok) {
          check(plan.kind === 'answer', `agent act: expected an answer with ${expected.code}, got ${plan.kind}`);
          if (plan.kind === 'answer') {
            same(plan.result.details.ok, false, 'agent act: details.ok');
            same(plan.result.details.code, expected.code, 'agent act: refusal code');
            same(plan.result.details.revision, ref.revision, 'agent act: refusal revision');
          }
          return 'nothing';
        }
        if (plan.kind !== 'commit') throw new PropertyFailure(`agent act: expected a commit, got ${plan.kind}`);
        same(plan.snapshot, expected.snapshot, 'agent act: new snapshot');
        const id = this.appendDesk(plan.snapshot);
        const described = plan.describe(this.journal.revision());
        same(described.details.revision, `${j.sessionId}:${id}`, 'agent act: described revision');
        same(described.details.ok, true, 'agent act: described ok');
        check(described.content[0].text.includes(`revision: ${j.sessionId}:${id}`), 'agent act: text lacks the new revision');
        return 'desk-append';
      }
      case 'query': {
        const plan = planSeedDeskCall(command.family === undefined ? { op: 'query' } : { op: 'query', family: command.family }, j.state());
        if (plan.kind !== 'answer') throw new PropertyFailure(`query: got ${plan.kind}`);
        if (!ref.ok) {
          same(plan.result.details.code, 'corrupt-state', 'query on a corrupt branch');
          return 'nothing';
        }
        const rows = deskRows(ref.snapshot).filter((row) => command.family === undefined || row.family === command.family);
        const lines = rows.map((row) => `${row.id}: ${row.available} available, ${row.reserved} reserved`);
        const text = plan.result.content[0].text.split('\n');
        same(text.at(-1), `revision: ${ref.revision}`, 'query: last line');
        if (rows.length > 0) same(text.slice(0, -1), lines, 'query: item lines');
        return 'nothing';
      }
      case 'user':
        j.append(userMessageEntry(command.text, this.place()));
        return 'other-append';
      case 'assistant':
        j.append(assistantMessageEntry([{ type: 'text', text: command.text }], this.place()));
        return 'other-append';
      case 'otherCustom':
        j.append(customEntry('another-extension', { version: 99, junk: true }, this.place()));
        return 'other-append';
      case 'label': {
        const target = this.pick(command.pick);
        if (!target) return 'nothing';
        j.append(labelEntry(target.id, command.text, this.place()));
        if (command.text) this.labels.set(target.id, command.text);
        else this.labels.delete(target.id);
        return 'other-append';
      }
      case 'rawDesk':
        this.appendDesk(command.data);
        return 'desk-append';
      case 'move': {
        const target = command.pick === null ? undefined : this.pick(command.pick);
        j.moveLeaf(target ? target.id : null);
        same(j.leafId, target ? target.id : null, 'moveLeaf: leaf');
        return 'leaf-move';
      }
      case 'navigate': {
        const target = this.pick(command.pick);
        if (!target) return 'nothing';
        const before = j.leafId;
        const result = j.navigateTo(target.id);
        if (target.id === before) same(result, { leafId: before }, 'navigateTo the leaf itself changes nothing');
        else if (isReeditable(target)) same(result, { leafId: target.parentId, editorText: editorTextOf(target) }, 'navigateTo a user message');
        else same(result, { leafId: target.id }, 'navigateTo another entry');
        same(j.leafId, result.leafId, 'navigateTo: leaf');
        return 'leaf-move';
      }
      case 'reopen':
        j.reopen();
        same(j.leafId, j.lastAppendedId(), 'reopen: leaf');
        return 'leaf-move';
      case 'fork': {
        const before = j.state();
        const path = j.branch();
        const fork = j.forkToNewSession(this.ids);
        same(fork.header.parentSession, sessionFileName(j.header), 'fork: parentSession');
        check(fork.sessionId !== j.sessionId, 'fork: same session id');
        same(
          fork.entries().filter((e) => e.type !== 'label').map((e) => e.id),
          path.filter((e) => e.type !== 'label').map((e) => e.id),
          'fork: copied path ids',
        );
        const after = fork.state();
        check(after.revision !== before.revision, 'fork: revision not renewed');
        same(after.ok, before.ok, 'fork: validity');
        if (after.ok && before.ok) same(after.snapshot, before.snapshot, 'fork: snapshot');
        if (!after.ok && !before.ok) same(after.corruptEntryId, before.corruptEntryId, 'fork: corrupt entry');
        const labels = new Map<string, string>();
        for (const entry of path) {
          const text = this.labels.get(entry.id);
          if (text !== undefined && entry.type !== 'label') labels.set(entry.id, text);
        }
        for (const entry of j.entries()) this.foreign.push(j.revision(entry.id));
        this.foreign.push(j.revision(null));
        this.labels = labels;
        this.journal = fork;
        return 'new-session';
      }
    }
  }

  /** Everything that must hold after every step. */
  verify(effect: Effect, before: { size: number; revision: string; leaf: EntryId | null }): void {
    const j = this.journal;
    const sid = j.sessionId;
    const reference = reconstructBranch(sid, j.branch());
    tally(`effect ${effect}`);
    if (!reference.ok) tally('leaf on a corrupt branch');
    if (j.branch().length >= 2 && j.leafIsTransient()) tally('leaf off the last entry');

    // The revision rule.
    if (effect === 'desk-append') {
      same(j.size, before.size + 1, 'a seed desk change appends exactly one entry');
      same(j.revision(), `${sid}:${j.lastAppendedId()}`, 'a seed desk append sets the revision');
      check(j.revision() !== before.revision, 'a seed desk append must change the revision');
    } else if (effect === 'other-append') {
      same(j.size, before.size + 1, 'a conversation append adds one entry');
      same(j.revision(), before.revision, 'a conversation append must not change the revision');
    } else if (effect === 'nothing') {
      same(j.size, before.size, 'a refusal or a read appends nothing');
      same(j.revision(), before.revision, 'a refusal or a read keeps the revision');
      same(j.leafId, before.leaf, 'a refusal or a read keeps the leaf');
    } else if (effect === 'leaf-move') {
      same(j.size, before.size, 'moving the leaf appends nothing');
    }
    same(j.revision(), reference.revision, 'revision equals the reference walk’s');
    same(j.state(), reference, 'state() equals the reference walk');

    // The incremental index equals a rebuild and the reference, on every entry.
    const rebuilt = SessionJournal.fromEntries(j.header, j.entries());
    same(rebuilt.leafId, j.lastAppendedId(), 'a rebuild puts the leaf on the last entry');
    same(new Map(rebuilt.allLabels()), new Map(j.allLabels()), 'labels after a rebuild');
    same(new Map(j.allLabels()), this.labels, 'labels: the last label wins, an empty one clears');
    for (const id of [...j.entries().map((e) => e.id), null]) {
      const state = j.state(id);
      const ref = reconstructBranch(sid, j.branch(id));
      same(state, ref, `state(${id}) equals reconstructBranch(branch(${id}))`);
      same(rebuilt.state(id), ref, `rebuilt state(${id}) equals the reference`);
      sameAsPlainRule(state, j.branch(id), `state(${id})`);
      if (state.ok) {
        for (const row of deskRows(state.snapshot)) {
          check(row.available + row.reserved === row.packets, `${id}: ${row.id} available + reserved != packets`);
          check(Number.isSafeInteger(row.reserved) && row.reserved >= 0 && row.reserved <= row.packets, `${id}: ${row.id} reserved out of range`);
        }
        for (const key of Object.keys(state.snapshot.quantities)) check(isFixtureId(key), `${id}: unknown key ${key} in a valid state`);
      }
    }
  }
}

function runCommands(commands: readonly Command[]): void {
  const run = new Run();
  for (const command of commands) {
    const before = { size: run.journal.size, revision: run.journal.revision(), leaf: run.journal.leafId };
    const effect = run.step(command);
    run.verify(effect, before);
  }
}

// ---------------------------------------------------------------- imported journals

interface RawEntry {
  readonly parent: { kind: 'null' } | { kind: 'unknown' } | { kind: 'index'; index: number };
  readonly desk: unknown;
}

const rawEntryArb: fc.Arbitrary<RawEntry> = fc.record({
  parent: fc.oneof(
    { weight: 1, arbitrary: fc.constant({ kind: 'null' as const }) },
    { weight: 1, arbitrary: fc.constant({ kind: 'unknown' as const }) },
    { weight: 6, arbitrary: fc.nat({ max: 30 }).map((index) => ({ kind: 'index' as const, index })) },
  ),
  desk: fc.option(rawDeskDataArb, { freq: 2 }),
});

/**
 * A stored file may hold orphans, parents listed after their children or an entry that names
 * itself: whatever the order, every walk ends and the index agrees with it.
 */
function checkImported(raws: readonly RawEntry[]): void {
  const sid = asSessionId('imported');
  const ids = raws.map((_, i) => asEntryId(`i${String(i).padStart(7, '0')}`));
  const entries = raws.map((raw, i) => {
    const parentId = raw.parent.kind === 'null' ? null : raw.parent.kind === 'unknown' ? asEntryId('gone0000') : ids[raw.parent.index % ids.length]!;
    const place = { id: ids[i]!, parentId, timestamp: TIME };
    return raw.desk === null ? userMessageEntry(`m${i}`, place) : customEntry(SEED_DESK_CUSTOM_TYPE, raw.desk, place);
  });
  const j = SessionJournal.fromEntries(sessionHeader(sid, TIME, '/lab'), entries);
  same(j.leafId, ids.at(-1) ?? null, 'fromEntries: leaf on the last entry');
  for (const id of ids) {
    const path = j.branch(id);
    check(path.length <= ids.length, `branch(${id}) is longer than the journal`);
    same(path.at(-1)?.id, id, `branch(${id}) ends at ${id}`);
    for (let k = 1; k < path.length; k++) same(path[k]!.parentId, path[k - 1]!.id, `branch(${id}) is a parent chain`);
    same(j.depthOf(id), path.length - 1, `depthOf(${id})`);
    same(j.state(id), reconstructBranch(sid, path), `imported state(${id}) equals the reference walk`);
    sameAsPlainRule(j.state(id), path, `imported state(${id})`);
  }
}

// ---------------------------------------------------------------- the properties

const importedProperty = () =>
  fc.property(fc.array(rawEntryArb, { minLength: 1, maxLength: 20, size: 'max' }), (raws) => {
    checkImported(raws);
  });

describe('journal model (fast-check)', () => {
  it(`index = reference walk = rebuild, refusals append nothing, revisions move only with desk entries (seed ${SEED})`, () => {
    fc.assert(
      fc.property(fc.array(commandArb, { minLength: 1, maxLength: 40, size: 'max' }), (commands) => {
        runCommands(commands);
      }),
      { seed: SEED, path: PATH, numRuns: 400, verbose: 1 },
    );
    if (PATH === undefined) {
      const codes: RefusalCode[] = ['ui-required', 'corrupt-state', 'invalid-target', 'invalid-quantity', 'stale-revision', 'insufficient-availability', 'insufficient-reservation'];
      const wanted = [
        ...codes,
        'agent act: agent-disabled',
        'agent act: stale-revision',
        'agent act: ok',
        'human reservation: ok',
        'grant: ok',
        'effect desk-append',
        'effect other-append',
        'effect leaf-move',
        'effect new-session',
        'leaf on a corrupt branch',
        'leaf off the last entry',
      ];
      expect(wanted.filter((what) => (reached.get(what) ?? 0) === 0)).toEqual([]);
    }
  });

  it(`imported journals in any order: every walk ends and agrees with the index (seed ${SEED})`, () => {
    fc.assert(importedProperty(), { seed: SEED, path: PATH, numRuns: 500, verbose: 1 });
  });
});

describe('pinned regressions', () => {
  // Found by the property above before the journal.ts fix: the first generated journal held a
  // self-parented entry and branch() looped forever (shrunk to the case below).
  it('seed 20260501, path 0:0:0:0 of the imported-journal property', () => {
    fc.assert(importedProperty(), { seed: 20260501, path: '0:0:0:0', endOnFailure: true });
  });

  it('a child stored before its parent is a root for both the index and the walk', () => {
    expect(() =>
      checkImported([
        { parent: { kind: 'index', index: 1 }, desk: null },
        { parent: { kind: 'null' }, desk: { version: 1, agentEnabled: true, quantities: {} } },
      ]),
    ).not.toThrow();
  });

  it('an entry that names itself as parent is walked once', () => {
    expect(() => checkImported([{ parent: { kind: 'index', index: 0 }, desk: null }])).not.toThrow();
  });
});
