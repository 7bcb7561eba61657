import 'fake-indexeddb/auto';
/**
 * Seeded fuzz through the real PlaygroundHost over a JournalStore on fake-indexeddb (each test its
 * own database): (a) random tool calls, command lines, dialog answers (with another client's
 * change landing meanwhile, sometimes), approvals and leaf moves, checking after every call that
 * the stored journal is the in-memory one and that desk entries appear only with a committed outcome; (b) imports of mutated session files, checking that a
 * refused import writes nothing and an accepted one stores every parsed entry.
 *
 * Replay: the seed is in the test name; FC_SEED=<seed> npx vitest run web/src/worker/hostFuzz.test.ts
 * One counterexample: FC_SEED=<seed> FC_PATH=<path> npx vitest run web/src/worker/hostFuzz.test.ts -t '<name>'
 */
import * as fc from 'fast-check';
import { readFileSync } from 'node:fs';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { FIXTURE, FIXTURE_IDS } from '$domain/fixture';
import { seededIdSource } from '$domain/ids';
import { parseSessionJsonl } from '$domain/journal/importJsonl';
import { seedDeskJsonSchema } from '$domain/tool/jsonSchema';
import { SEED_DESK_TOOL_NAME } from '$domain/tool/schema';
import { checkArguments } from './omp/argumentCheck';
import { isConfirmAsked, type HostView, type LineOutcome, type ToolCallOutcome } from '../protocol/messages';
import { PlaygroundHost } from './playgroundHost';
import { hasAssistantMessage } from './projections';
import { JournalStore } from './store';
import { freshDatabases, totalStoredEntries } from './databases.testkit';
import { storedEntries } from './storeReads.testkit';
import { copyId, editFields, entryIndex, flipBit, linkCycle, swapLines, truncateLine } from '$domain/journal/jsonlLines.testkit';
import { FuzzFailure, check, createTally, checkConservation } from '$domain/fuzz.testkit';

const DEFAULT_SEED = 20260718;
const PINNED_SEED = 31337;
const envSeed = process.env['FC_SEED'];
const SEED = envSeed !== undefined && envSeed !== '' ? Number(envSeed) : DEFAULT_SEED;
const PATH = process.env['FC_PATH'] || undefined;
/** Generous: a few seconds of CPU each, but fake-indexeddb waits on timers and the machine may be busy. */
const TIMEOUT = 120_000;
const FIXTURE_ID_LIST: readonly string[] = FIXTURE_IDS;

const databases = freshDatabases('host-fuzz-test');
const freshHost = (seed: number) => databases.freshHost(seed);

const show = (value: unknown): string => {
  const text = typeof value === 'string' ? JSON.stringify(value) : inspect(value, { depth: 4, breakLength: Infinity });
  return text.length > 300 ? `${text.slice(0, 300)}…` : text;
};

/** The store's entries must be the host's in-memory journal, in order. */
async function storedMatchesMemory(host: PlaygroundHost, store: JournalStore, what: string): Promise<void> {
  const stored = (await storedEntries(store, host.sessionId)).map((record) => record.entry.id);
  const memory = host.currentJournal().entries().map((entry) => entry.id);
  check(stored.length === memory.length && stored.every((id, index) => id === memory[index]), `${what}: stored ids ${show(stored)} differ from memory ids ${show(memory)}`);
}

/** Stronger, where it is cheap: the stored entries serialise exactly like the ones in memory (`__proto__` keys included). */
async function storedSerialisesLikeMemory(host: PlaygroundHost, store: JournalStore, what: string): Promise<void> {
  const stored = (await storedEntries(store, host.sessionId)).map((record) => JSON.stringify(record.entry));
  const memory = host.currentJournal().entries().map((entry) => JSON.stringify(entry));
  const first = stored.findIndex((line, index) => line !== memory[index]);
  check(stored.length === memory.length && first === -1, `${what}: stored entry ${first} serialises differently:\n  stored: ${show(stored[first])}\n  memory: ${show(memory[first])}`);
}

function conservation(view: HostView, what: string): void {
  checkConservation(view.rows, `${what}: `);
}

const { tally, count, missing } = createTally();

// ================================================================ (a) calls and lines

/** A revision chosen when the call is made: the current one, an older one of this session, or another session's. */
type Rev = 'current' | 'stale' | 'other' | 'wrapped' | 'toStringKey' | 'near';

type ArgsSpec =
  | { readonly k: 'act'; readonly action: unknown; readonly id: unknown; readonly packets: unknown; readonly rev: Rev; readonly extra: readonly (readonly [string, unknown])[] | null }
  | { readonly k: 'read'; readonly value: unknown }
  | { readonly k: 'json'; readonly text: string }
  | { readonly k: 'text'; readonly text: string };

type Action =
  | { readonly t: 'tool'; readonly args: ArgsSpec; readonly skipSchema: boolean }
  /** `confirm`: the answer to a dialog the line opens; `meanwhile`: another client's reservation lands first. */
  | { readonly t: 'line'; readonly line: string; readonly headless: boolean; readonly confirm: boolean; readonly meanwhile: boolean }
  | { readonly t: 'policy'; readonly policy: 'allow' | 'prompt' | 'deny'; readonly approve: boolean }
  | { readonly t: 'interactive'; readonly value: boolean }
  | { readonly t: 'stepBack' }
  | { readonly t: 'navigate'; readonly pick: number }
  | { readonly t: 'fork' }
  | { readonly t: 'reopen' };

const oddScalar = fc.constantFrom<unknown>('', ' bean-scarlet', 'Bean-scarlet', '__proto__', 'constructor', 'toString', '🌱', '\u202ebean-scarlet', 'bean-scarlet\u0000', 0, -0, -1, 1.5, 2 ** 53, Number.MAX_SAFE_INTEGER, 1e308, null, true, [], {}, [1], { toString: 'x' }, '1', 'x'.repeat(10_000));
const revArb = fc.oneof(
  { weight: 10, arbitrary: fc.constant<Rev>('current') },
  { weight: 2, arbitrary: fc.constant<Rev>('stale') },
  { weight: 1, arbitrary: fc.constant<Rev>('other') },
  { weight: 1, arbitrary: fc.constant<Rev>('near') },
  { weight: 1, arbitrary: fc.constant<Rev>('wrapped') },
  { weight: 1, arbitrary: fc.constant<Rev>('toStringKey') },
);
const maybe = <T,>(good: fc.Arbitrary<T>) => fc.oneof({ weight: 8, arbitrary: good as fc.Arbitrary<unknown> }, { weight: 1, arbitrary: oddScalar });
const argsArb: fc.Arbitrary<ArgsSpec> = fc.oneof(
  {
    weight: 8,
    arbitrary: fc.record({
      k: fc.constant('act' as const),
      action: maybe(fc.constantFrom('reserve', 'release')),
      id: maybe(fc.constantFrom(...FIXTURE_ID_LIST)),
      packets: maybe(fc.integer({ min: 1, max: 4 })),
      rev: revArb,
      extra: fc.option(fc.array(fc.tuple(fc.constantFrom('__proto__', 'constructor', 'toString', 'extra', 'family'), oddScalar), { minLength: 1, maxLength: 2 }), { freq: 5 }),
    }),
  },
  {
    weight: 3,
    arbitrary: fc
      .oneof(
        fc.constant<unknown>({ op: 'discover' }),
        fc.constant<unknown>({ op: 'query' }),
        fc.constantFrom('basil', 'bean', 'Bean').map((family): unknown => ({ op: 'query', family })),
        oddScalar.map((family): unknown => ({ op: 'query', family })),
        fc.oneof(fc.constantFrom(...FIXTURE_ID_LIST), oddScalar).map((id): unknown => ({ op: 'inspect', id })),
      )
      .map((value) => ({ k: 'read' as const, value })),
  },
  { weight: 2, arbitrary: fc.json({ maxDepth: 2 }).map((text) => ({ k: 'json' as const, text })) },
  {
    weight: 1,
    arbitrary: fc
      .oneof(fc.constantFrom('', '{', '{"op":"query"', "{'op':'query'}", '{"op":"query"}}', 'NaN', 'undefined', '[1,]', '\ufeff{"op":"query"}', '1e400', '-0'), fc.string({ unit: 'grapheme', maxLength: 20 }))
      .map((text) => ({ k: 'text' as const, text })),
  },
);

const seedsWord = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom('reserve bean-scarlet 1', 'reserve basil-genovese 2', 'release bean-scarlet 1', 'release basil-genovese 1', 'reserve marigold-french 3', 'agent on', 'agent off', 'query', 'query bean') },
  { weight: 2, arbitrary: fc.constantFrom('reserve bean-scarlet 1.0', 'reserve bean-scarlet +1', 'reserve bean-scarlet 0x1', 'reserve bean-scarlet 1e0', 'reserve bean-scarlet -0', 'reserve  bean-scarlet\t2', 'reserve Bean-scarlet 1', 'reserve bean-scarlet 99', 'release marigold-french 9007199254740993', 'agent ON', 'agent', 'query a b', 'reserve bean-scarlet', '') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 20 }) },
);
const lineArb = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom('/seeds ', ' /seeds ', '/seeds  '), seedsWord).map(([head, rest]) => `${head}${rest}`) },
  { weight: 2, arbitrary: fc.constantFrom('hello', '/seeds', '/help', '/', '   ', '', '\u202e/seeds agent on', '/seeds\tagent on', 'x'.repeat(10_000)) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 30 }) },
);

const actionArb: fc.Arbitrary<Action> = fc.oneof(
  { weight: 8, arbitrary: fc.record({ t: fc.constant('tool' as const), args: argsArb, skipSchema: fc.boolean() }) },
  { weight: 6, arbitrary: fc.record({ t: fc.constant('line' as const), line: lineArb, headless: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }), confirm: fc.boolean(), meanwhile: fc.oneof({ weight: 5, arbitrary: fc.constant(false) }, { weight: 1, arbitrary: fc.constant(true) }) }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('policy' as const), policy: fc.constantFrom('allow' as const, 'prompt' as const, 'deny' as const), approve: fc.boolean() }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('interactive' as const), value: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }) }) },
  { weight: 1, arbitrary: fc.constant({ t: 'stepBack' as const }) },
  { weight: 1, arbitrary: fc.record({ t: fc.constant('navigate' as const), pick: fc.nat({ max: 1000 }) }) },
  { weight: 1, arbitrary: fc.constant({ t: 'fork' as const }) },
  { weight: 1, arbitrary: fc.constant({ t: 'reopen' as const }) },
);

/** An object whose keys are all own data properties, `__proto__` included (as JSON.parse makes them). */
function ownObject(entries: readonly (readonly [string, unknown])[]): Record<string, unknown> {
  const object: Record<string, unknown> = {};
  for (const [key, value] of entries) Object.defineProperty(object, key, { value, enumerable: true, writable: true, configurable: true });
  return object;
}

function argsText(spec: ArgsSpec, current: string, stale: readonly string[]): string {
  if (spec.k === 'json' || spec.k === 'text') return spec.text;
  if (spec.k === 'read') return JSON.stringify(spec.value);
  const rev: Record<Rev, () => unknown> = {
    current: () => current,
    stale: () => stale[stale.length - 1 - (current.length % stale.length)] ?? `${current.split(':')[0]}:root`,
    other: () => 'host-fuzz-other:root',
    near: () => `${current} `,
    wrapped: () => [current],
    toStringKey: () => ({ toString: current }),
  };
  const entries: [string, unknown][] = [
    ['op', 'act'],
    ['action', spec.action],
    ['id', spec.id],
    ['packets', spec.packets],
    ['expectedRevision', rev[spec.rev]()],
  ];
  return JSON.stringify(ownObject([...entries, ...(spec.extra ?? [])]));
}

/**
 * What the tool's code was given for this text: the JSON as sent with skipSchema, else the
 * arguments after the host's repairs (null when the host's check refuses them).
 */
function argsReachingTool(text: string, skipSchema: boolean): unknown {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return null;
  }
  if (skipSchema) return raw;
  const checked = checkArguments(SEED_DESK_TOOL_NAME, seedDeskJsonSchema, raw);
  return checked.ok ? checked.args : null;
}

const ACT_KEYS: readonly string[] = ['op', 'action', 'id', 'packets', 'expectedRevision'];

/** A fully valid act, judged from the arguments the tool got: only an act's own keys (the tool's own check, issue 35), exact values, the current revision as a string. */
function fullyValidAct(raw: unknown, current: string): boolean {
  if (typeof raw !== 'object' || raw === null || Array.isArray(raw)) return false;
  const own = (key: string): unknown => (Object.hasOwn(raw, key) ? (raw as Record<string, unknown>)[key] : undefined);
  const packets = own('packets');
  return (
    Object.keys(raw).every((key) => ACT_KEYS.includes(key)) &&
    own('op') === 'act' &&
    (own('action') === 'reserve' || own('action') === 'release') &&
    FIXTURE.some((item) => item.id === own('id')) &&
    typeof packets === 'number' &&
    Number.isSafeInteger(packets) &&
    packets > 0 &&
    typeof own('expectedRevision') === 'string' &&
    own('expectedRevision') === current
  );
}

const isCommittedTool = (outcome: ToolCallOutcome): boolean =>
  outcome.kind === 'result' && outcome.stage === 'domain' && !outcome.isError && outcome.details?.ok === true && outcome.details.scope === 'act';

/** How a run starts: a new session, then (usually) the human's grant and a reservation, confirmed. */
interface Setup {
  readonly grant: boolean;
  readonly reserve: number;
}
const setupArb: fc.Arbitrary<Setup> = fc.record({
  grant: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  reserve: fc.integer({ min: 0, max: 3 }),
});

async function confirmed(host: PlaygroundHost, line: string): Promise<void> {
  const prepared = await host.runLine(line);
  if (!isConfirmAsked(prepared)) throw new FuzzFailure(`setup: expected a confirm for ${line}, got ${show(prepared)}`);
  const done = await host.answerUi({ kind: 'confirm', id: prepared.request.id, confirmed: true });
  if (done.kind !== 'committed') throw new FuzzFailure(`setup: expected a commit for ${line}, got ${show(done)}`);
}

async function runActions(host: PlaygroundHost, store: JournalStore, setup: Setup, actions: readonly Action[]): Promise<void> {
  await host.newSession();
  host.setApprovalPolicy('allow');
  host.setInteractive(true);
  let approve = true;
  const stale: string[] = [host.view().revision];
  if (setup.grant) await confirmed(host, '/seeds agent on');
  if (setup.reserve > 0) await confirmed(host, `/seeds reserve basil-genovese ${setup.reserve}`);
  if (host.view().revision !== stale[0]) stale.push(host.view().revision);
  await storedMatchesMemory(host, store, 'after the setup');
  for (const [step, action] of actions.entries()) {
    const before = host.view();
    const where = `step ${step} ${show(action)}`;
    let committed = 0;
    let label: string = action.t;
    try {
      switch (action.t) {
        case 'tool': {
          const text = argsText(action.args, before.revision, stale);
          let outcome = await host.callTool(text, action.skipSchema);
          if (outcome.kind === 'approval') {
            count('tool approval asked');
            outcome = await host.answerApproval(outcome.callId, approve);
          }
          label = `tool ${outcome.kind}${outcome.kind === 'result' ? ` ${outcome.stage}${outcome.details?.code ? ` ${outcome.details.code}` : ''}` : ''}`;
          if (isCommittedTool(outcome)) {
            committed = 1;
            label = 'tool commit';
            const given = argsReachingTool(text, action.skipSchema);
            check(fullyValidAct(given, before.revision), `${where}: the host committed a call that is not a fully valid act: ${show(text)} (the tool got ${show(given)})`);
          }
          if (outcome.kind === 'result' && outcome.details && !outcome.details.ok) {
            check(outcome.details.code !== undefined, `${where}: a refusal without a code`);
          }
          break;
        }
        case 'line': {
          const outcome: LineOutcome = await host.runLine(action.line, action.headless);
          label = `line ${outcome.kind}${outcome.kind === 'refused' ? ` ${outcome.code}` : ''}`;
          check(outcome.kind !== 'usage' || outcome.text.length > 0, `${where}: an empty usage text`);
          check(outcome.kind !== 'error' && outcome.kind !== 'failed', `${where}: the line ended in ${show(outcome)}`);
          if (isConfirmAsked(outcome)) {
            check(host.view().entryCount === before.entryCount, `${where}: asking for a confirmation appended something`);
            check(!action.headless && host.view().interactive, `${where}: a dialog opened without a UI`);
            let raced = false;
            if (action.meanwhile) {
              const other = await host.meanwhileReserve('basil-genovese', 1);
              check(other.kind === 'committed' || other.kind === 'refused', `${where}: the other client's reservation ended in ${show(other)}`);
              raced = other.kind === 'committed';
              committed += raced ? 1 : 0;
            }
            const done = await host.answerUi({ kind: 'confirm', id: outcome.request.id, confirmed: action.confirm });
            label = `${action.confirm ? 'confirm' : 'cancel'}${raced ? ' after a race' : ''} ${done.kind}${done.kind === 'refused' ? ` ${done.code}` : ''}`;
            if (done.kind === 'committed') committed += 1;
            if (!action.confirm) check(done.kind === 'cancelled', `${where}: a cancelled dialog ended in ${show(done)}`);
            else if (raced) check(done.kind === 'refused' && done.code === 'stale-revision', `${where}: a dialog confirmed after another change landed ended in ${show(done)}`);
            else check(done.kind === 'committed', `${where}: a dialog confirmed with nothing in between ended in ${show(done)}`);
          }
          break;
        }
        case 'policy':
          host.setApprovalPolicy(action.policy);
          approve = action.approve;
          break;
        case 'interactive':
          host.setInteractive(action.value);
          break;
        case 'stepBack':
          host.stepBack();
          break;
        case 'navigate': {
          const entries = host.currentJournal().entries();
          if (entries.length > 0) host.navigate(entries[action.pick % entries.length]!.id);
          break;
        }
        case 'fork':
          await host.forkSession();
          break;
        case 'reopen':
          await host.reopen();
          break;
      }
    } catch (error) {
      if (error instanceof FuzzFailure) throw error;
      throw new FuzzFailure(`${where}: a thrown error escaped the host: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)}`);
    }
    count(label);
    const after = host.view();
    await storedMatchesMemory(host, store, where);
    await storedSerialisesLikeMemory(host, store, where);
    if (action.t === 'fork') {
      // A fork copies the path to the leaf into a new session: same desk, new identity, so a new revision.
      check(after.sessionId !== before.sessionId && after.revision !== before.revision, `${where}: a fork kept the session or the revision`);
      check(JSON.stringify(after.rows) === JSON.stringify(before.rows) && after.agentEnabled === before.agentEnabled, `${where}: a fork changed the desk`);
      check(after.seedDeskEntryCount <= before.seedDeskEntryCount, `${where}: a fork holds more desk entries than its source`);
    } else check(after.seedDeskEntryCount === before.seedDeskEntryCount + committed, `${where}: seed desk entries went ${before.seedDeskEntryCount} → ${after.seedDeskEntryCount} on outcome '${label}'`);
    if (action.t === 'tool' || action.t === 'line') {
      if (committed) check(after.revision !== before.revision, `${where}: a commit kept the revision`);
      else check(after.revision === before.revision, `${where}: the revision changed without a commit ('${label}')`);
    }
    if (after.revision !== before.revision) stale.push(before.revision);
    check(after.writeFailure === null, `${where}: a storage failure latched: ${after.writeFailure}`);
    conservation(after, where);
  }
}

// ================================================================ (b) imports

const fixtureText = (name: string): string => readFileSync(new URL(`../../../fixtures/${name}`, import.meta.url), 'utf8');
const SMALL_V3 = fixtureText('pi-v3-seed-desk.jsonl');
const LARGE_V1 = fixtureText('omp-large-session-v1.jsonl');
const FIVE_MB = 'x'.repeat(5 * 1024 * 1024);

type FileMutation =
  | { readonly m: 'truncate' | 'duplicate' | 'delete' | 'selfParent' | 'orphan' | 'flip'; readonly line: number; readonly at: number }
  | { readonly m: 'swap' | 'dupId' | 'cycle'; readonly a: number; readonly b: number }
  | { readonly m: 'header'; readonly how: 'removed' | 'sessions' | 'noId' | 'v99' | 'v1' | 'proto' }
  | { readonly m: 'insert'; readonly line: number; readonly text: string }
  | { readonly m: 'bom' | 'crlf' | 'empty' | 'blank' | 'huge' };

interface ImportCase {
  readonly base: 'small' | 'large';
  readonly freshId: boolean;
  readonly mutations: readonly FileMutation[];
}

const pick = fc.nat({ max: 100_000 });
const fileMutationArb: fc.Arbitrary<FileMutation> = fc.oneof(
  { weight: 9, arbitrary: fc.record({ m: fc.constantFrom('truncate' as const, 'duplicate' as const, 'delete' as const, 'selfParent' as const, 'orphan' as const, 'flip' as const), line: pick, at: pick }) },
  { weight: 5, arbitrary: fc.record({ m: fc.constantFrom('swap' as const, 'dupId' as const, 'cycle' as const), a: pick, b: pick }) },
  { weight: 3, arbitrary: fc.record({ m: fc.constant('header' as const), how: fc.constantFrom('removed' as const, 'sessions' as const, 'noId' as const, 'v99' as const, 'v1' as const, 'proto' as const) }) },
  {
    weight: 2,
    arbitrary: fc.record({
      m: fc.constant('insert' as const),
      line: pick,
      text: fc.constantFrom('{"type":"custom","customType":"seed-desk-state-v1","data":{"version":1,"agentEnabled":true,"quantities":{"basil-genovese":9}},"id":"bad00001","parentId":"f5397ae1","timestamp":"t"}', '{"type":"message","id":"__proto__","parentId":null,"timestamp":"t"}', 'null', '{', '{"type":"session","id":"again","version":3}'),
    }),
  },
  { weight: 1, arbitrary: fc.record({ m: fc.constantFrom('bom' as const, 'crlf' as const, 'blank' as const) }) },
  { weight: 1, arbitrary: fc.record({ m: fc.constantFrom('empty' as const, 'huge' as const) }) },
);
const importCaseArb: fc.Arbitrary<ImportCase> = fc.record({
  base: fc.oneof({ weight: 12, arbitrary: fc.constant('small' as const) }, { weight: 1, arbitrary: fc.constant('large' as const) }),
  freshId: fc.oneof({ weight: 3, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  mutations: fc.array(fileMutationArb, { minLength: 0, maxLength: 3 }),
});

function buildImport(c: ImportCase, freshId: string): string {
  const source = c.base === 'small' ? SMALL_V3 : LARGE_V1;
  const lines = source.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let prefix = '';
  let crlf = false;
  const entry = (n: number): number => entryIndex(lines, n);
  if (c.freshId) editFields(lines, 0, (header) => (header['id'] = freshId));
  for (const mutation of c.mutations) {
    switch (mutation.m) {
      case 'truncate':
        truncateLine(lines, entry(mutation.line), mutation.at);
        break;
      case 'duplicate': {
        const i = entry(mutation.line);
        if (i >= 0) lines.splice(1 + (mutation.at % lines.length), 0, lines[i]!);
        break;
      }
      case 'delete': {
        const i = entry(mutation.line);
        if (i >= 0) lines.splice(i, 1);
        break;
      }
      case 'flip':
        flipBit(lines, entry(mutation.line), mutation.at, mutation.at % 8);
        break;
      case 'selfParent':
        editFields(lines, entry(mutation.line), (value) => (value['parentId'] = value['id']));
        break;
      case 'orphan':
        editFields(lines, entry(mutation.line), (value) => (value['parentId'] = 'missing0'));
        break;
      case 'swap':
        swapLines(lines, entry(mutation.a), entry(mutation.b));
        break;
      case 'dupId':
        copyId(lines, entry(mutation.a), entry(mutation.b));
        break;
      case 'cycle':
        linkCycle(lines, entry(mutation.a), entry(mutation.b));
        break;
      case 'header':
        if (mutation.how === 'removed') lines.shift();
        else if (mutation.how === 'proto') lines[0] = (lines[0] ?? '{}').replace(/}$/, ',"__proto__":{"type":"x"},"toString":"s"}');
        else
          editFields(lines, 0, (header) => {
            if (mutation.how === 'sessions') header['type'] = 'sessions';
            else if (mutation.how === 'noId') delete header['id'];
            else if (mutation.how === 'v99') header['version'] = 99;
            else header['version'] = 1;
          });
        break;
      case 'insert':
        lines.splice(entry(mutation.line) + 1, 0, mutation.text);
        break;
      case 'bom':
        prefix = '\ufeff';
        break;
      case 'crlf':
        crlf = true;
        break;
      case 'blank':
        lines.splice(1, 0, '', '   ', '\t');
        break;
      case 'empty':
        lines.length = 0;
        break;
      case 'huge':
        lines.splice(Math.min(2, lines.length), 0, JSON.stringify({ type: 'message', id: 'huge0001', parentId: null, timestamp: 't', message: { role: 'user', content: FIVE_MB } }));
        break;
    }
  }
  const body = lines.length === 0 ? '' : `${lines.join(crlf ? '\r\n' : '\n')}${crlf ? '\r\n' : '\n'}`;
  return `${prefix}${body}`;
}


// ================================================================ the tests

const callsProperty = (host: PlaygroundHost, store: JournalStore) =>
  fc.asyncProperty(setupArb, fc.array(actionArb, { minLength: 3, maxLength: 8 }), async (setup, actions) => {
    await runActions(host, store, setup, actions);
  });

let importCounter = 0;
const importProperty = (host: PlaygroundHost, store: JournalStore, name: string) =>
  fc.asyncProperty(importCaseArb, async (c) => {
    const freshId = `fuzz-import-${process.pid}-${++importCounter}`;
    const text = buildImport(c, freshId);
    const parsed = parseSessionJsonl(text, seededIdSource(5));
    const sessionsBefore = (await store.listSessions()).map((session) => session.id);
    const totalBefore = await totalStoredEntries(name);
    const currentBefore = host.sessionId;
    let report;
    try {
      report = await host.importSession(new Blob([text]), () => undefined);
    } catch (error) {
      throw new FuzzFailure(`importSession threw: ${error instanceof Error ? `${error.name}: ${error.message}` : String(error)} for ${show(c)}`);
    }
    const sessionsAfter = (await store.listSessions()).map((session) => session.id);
    const totalAfter = await totalStoredEntries(name);
    if (!report.ok) {
      count(parsed.ok ? 'import refused by the host (duplicate session)' : 'import refused by the parser');
      check(report.line >= 1 && report.message.length > 0, `a refused import names line ${report.line}: ${report.message}`);
      check(sessionsAfter.length === sessionsBefore.length && sessionsAfter.every((id, index) => id === sessionsBefore[index]), `a refused import changed the session list: ${show(sessionsBefore)} → ${show(sessionsAfter)}`);
      check(totalAfter === totalBefore, `a refused import changed the stored entries: ${totalBefore} → ${totalAfter}`);
      check(host.sessionId === currentBefore, 'a refused import switched the session');
      if (parsed.ok) check(sessionsBefore.includes(parsed.header.id), `an import the parser accepts was refused for another reason: ${report.message}`);
      return;
    }
    count('import accepted');
    check(parsed.ok, `the host accepted a file the parser refuses: ${show(c)}`);
    check(report.entries === parsed.entries.length, `report says ${report.entries} entries, the parse has ${parsed.entries.length}`);
    check(report.sessionId === parsed.header.id && host.sessionId === parsed.header.id, 'the imported session is the current one');
    check((await store.countEntries(host.sessionId)) === parsed.entries.length, 'the store holds every parsed entry');
    check(totalAfter === totalBefore + parsed.entries.length, `the import stored ${totalAfter - totalBefore} entries for ${parsed.entries.length} parsed`);
    check(sessionsAfter.length === sessionsBefore.length + 1 && sessionsAfter.includes(parsed.header.id), 'exactly one session was added');
    await storedMatchesMemory(host, store, 'after an import');
    await storedSerialisesLikeMemory(host, store, 'after an import');
    const storedHeader = (await store.getSession(host.sessionId))?.header;
    check(JSON.stringify(storedHeader) === JSON.stringify(host.currentJournal().header), `the stored header ${show(storedHeader)} differs from memory ${show(host.currentJournal().header)}`);
    conservation(host.view(), 'after an import');

    // The imported journal, reopened from the store, is the one in memory (orphans, cycles, odd headers included).
    const imported = host.view();
    // An imported file is on disk whatever it holds; closing appends session_exit only once it holds an assistant message.
    check(imported.hostFileWritten, 'an imported session says the host has not written its file');
    const exits = hasAssistantMessage(host.currentJournal()) ? 1 : 0;
    await host.reopen();
    const reopened = host.view();
    check(reopened.revision === imported.revision && reopened.seedDeskEntryCount === imported.seedDeskEntryCount && reopened.entryCount === imported.entryCount + exits, 'a reopen of the imported session reads another journal');
    check(JSON.stringify(reopened.rows) === JSON.stringify(imported.rows) && JSON.stringify(reopened.corrupt) === JSON.stringify(imported.corrupt), 'a reopen of the imported session reads another desk');

    // And it takes new entries like any other: a grant, then an act on the revision it reports.
    const granted = await host.runLine('/seeds agent on');
    if (isConfirmAsked(granted)) {
      const done = await host.answerUi({ kind: 'confirm', id: granted.request.id, confirmed: true });
      check(done.kind === 'committed', `a confirmed grant on the imported session was not committed: ${show(done)}`);
      count('import then grant');
    } else check(granted.kind === 'refused' && granted.code === 'corrupt-state' && reopened.corrupt !== null, `a grant on the imported session was ${show(granted)}`);
    const beforeAct = host.view();
    const outcome = await host.callTool(JSON.stringify({ op: 'act', action: 'reserve', id: 'marigold-french', packets: 1, expectedRevision: beforeAct.revision }), false);
    const after = host.view();
    check(after.seedDeskEntryCount === beforeAct.seedDeskEntryCount + (isCommittedTool(outcome) ? 1 : 0), `an act on the imported session: desk entries ${beforeAct.seedDeskEntryCount} → ${after.seedDeskEntryCount} on ${show(outcome)}`);
    if (isCommittedTool(outcome)) count('import then act committed');
    await storedMatchesMemory(host, store, 'after acting on an import');
    conservation(after, 'after acting on an import');
  });

describe('PlaygroundHost fuzz (fake-indexeddb)', () => {
  it(`(a) ≥ 300 runs of tool calls and command lines: no escaping error, store = memory, desk entries only on commits, conservation (seed ${SEED})`, async ({ task }) => {
    tally.clear();
    const { host, store } = await freshHost(41);
    await fc.assert(callsProperty(host, store), { seed: SEED, path: PATH, numRuns: 300, verbose: 1 });
    task.meta.fuzzInputs = 300;
    if (PATH === undefined) {
      const wanted = ['tool commit', 'tool result schema', 'tool result domain', 'tool failed', 'tool approval asked', 'confirm committed', 'cancel cancelled', 'confirm after a race refused stale-revision', 'line refused ui-required', 'line usage', 'line said'];
      expect(missing(wanted)).toEqual([]);
    }
  }, TIMEOUT);

  it(`(a) pinned regression seed ${PINNED_SEED}`, async () => {
    const { host, store } = await freshHost(43);
    await fc.assert(callsProperty(host, store), { seed: PINNED_SEED, numRuns: 100 });
  }, TIMEOUT);

  it(`(b) ~100 mutated imports: a refused import writes nothing, an accepted one stores every parsed entry (seed ${SEED})`, async ({ task }) => {
    tally.clear();
    const { host, store, name } = await freshHost(47);
    await fc.assert(importProperty(host, store, name), { seed: SEED, path: PATH, numRuns: 110, verbose: 1 });
    task.meta.fuzzInputs = 110;
    if (PATH === undefined) {
      const wanted = ['import accepted', 'import refused by the parser', 'import refused by the host (duplicate session)', 'import then grant', 'import then act committed'];
      expect(missing(wanted)).toEqual([]);
    }
  }, TIMEOUT);

  it(`(b) pinned regression seed ${PINNED_SEED}`, async () => {
    const { host, store, name } = await freshHost(53);
    await fc.assert(importProperty(host, store, name), { seed: PINNED_SEED, numRuns: 40 });
  }, TIMEOUT);
});

describe('pinned counterexamples (found by the fuzz above on 6b68603)', () => {
  // On 6b68603, host.ts executeTool → planSeedDeskCall (seedDeskTool.ts:107) ran String(expectedRevision);
  // an object whose own toString is a string made that throw, and the error escaped callTool after
  // the toolCall message was stored: the journal kept a toolCall with no toolResult.
  it('regression (failed on 6b68603, fixed in 93e6000): callTool with skipSchema and expectedRevision {"toString":"…"} throws out of the host', async () => {
    const { host, store } = await freshHost(61);
    const revision = host.view().revision;
    const text = `{"op":"act","action":"reserve","id":"bean-scarlet","packets":1,"expectedRevision":{"toString":${JSON.stringify(revision)}}}`;
    let thrown: unknown = null;
    let outcome: ToolCallOutcome | null = null;
    try {
      outcome = await host.callTool(text, true);
    } catch (error) {
      thrown = error;
    }
    await storedMatchesMemory(host, store, 'after the call');
    expect(thrown).toBeNull();
    expect(outcome?.kind).toBe('result');
  });

  // Same line: String([revision]) === revision, so with skipSchema an array revision committed.
  it('regression (failed on 6b68603, fixed in 93e6000): callTool with skipSchema and expectedRevision [revision] commits a reservation', async () => {
    const { host } = await freshHost(67);
    const granted = await host.runLine('/seeds agent on');
    if (!isConfirmAsked(granted)) throw new Error(`expected a confirm, got ${granted.kind}`);
    expect((await host.answerUi({ kind: 'confirm', id: granted.request.id, confirmed: true })).kind).toBe('committed');
    const before = host.view();
    const text = JSON.stringify({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: [before.revision] });
    expect(isCommittedTool(await host.callTool(text, true))).toBe(false);
    // With the schema on, the host turns the array into its JSON text: still not the revision.
    const repaired = await host.callTool(text, false);
    expect(isCommittedTool(repaired)).toBe(false);
    expect(repaired.kind === 'result' && repaired.details?.code).toBe('stale-revision');
    expect(host.view().seedDeskEntryCount).toBe(before.seedDeskEntryCount);
  });

  // On 6b68603, parse.ts toCount made "1.0" and "+1" a 1, so the human reservation was prepared and committed.
  it.each(['/seeds reserve bean-scarlet 1.0', '/seeds reserve bean-scarlet +1'])('regression (failed on 6b68603, fixed in 93e6000): %s is prepared for confirmation (not digits only)', async (line) => {
    const { host } = await freshHost(71);
    const outcome = await host.runLine(line);
    expect(outcome.kind).not.toBe('asked');
  });
});
