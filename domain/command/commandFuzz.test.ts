/**
 * Seeded fuzz of command lines: splitSlashCommand + parseSeedsArgs, then the desk decision the
 * extension makes for a reservation or a grant (decideReservation / decideGrant, interactive both
 * ways) on a journal, appending only what a successful decision produces.
 *
 * Replay: the seed is in the test name; FC_SEED=<seed> npx vitest run domain/command/commandFuzz.test.ts
 * One counterexample: FC_SEED=<seed> FC_PATH=<path> npx vitest run domain/command/commandFuzz.test.ts -t '<name>'
 */
import * as fc from 'fast-check';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { decideGrant, decideReservation, type Decision } from '../desk';
import { FIXTURE, FIXTURE_IDS } from '../fixture';
import { asEntryId, asSessionId } from '../ids';
import { customEntry, sessionHeader, userMessageEntry } from '../journal/entry';
import { SessionJournal } from '../journal/journal';
import { REFUSAL_CODES } from '../refusal';
import { deskRows, SEED_DESK_CUSTOM_TYPE } from '../snapshot';
import { parseSeedsArgs, splitSlashCommand, type SeedsCommand } from './parse';
import { check, checkConservation, createTally, FuzzFailure } from '../fuzz.testkit';

const DEFAULT_SEED = 20260716;
const PINNED_SEED = 777001;
const envSeed = process.env['FC_SEED'];
const SEED = envSeed !== undefined && envSeed !== '' ? Number(envSeed) : DEFAULT_SEED;
const PATH = process.env['FC_PATH'] || undefined;
/** About 1-2 s of CPU; the margin is for a busy machine (other test runs, browsers). */
const TIMEOUT = 60_000;
const TIME = '2026-07-16T09:00:00.000Z';
const SESSION = asSessionId('fuzz-command-session');
const FIXTURE_ID_LIST: readonly string[] = FIXTURE_IDS;

// ---------------------------------------------------------------- generators

/** JavaScript's \s, ASCII and not: the parser splits on these; the slash split only on ' '. */
const SPACES = [' ', '  ', '\t', '\n', '\r\n', '\u00a0', '\u2003', '\u3000', '\u2028', '\ufeff', '\u200b', '\u180e', '\u000b', '\u000c'];
const space = fc.oneof({ weight: 8, arbitrary: fc.constant(' ') }, { weight: 3, arbitrary: fc.constantFrom(...SPACES) }, { weight: 1, arbitrary: fc.array(fc.constantFrom(...SPACES), { minLength: 1, maxLength: 3 }).map((parts) => parts.join('')) });

const NUMBER_WORDS = ['1', '2', '3', '4', '5', '8', '9', '0', '-0', '+0', '-1', '+1', '1.0', '2.00', '1.5', '1e3', '1E0', '0x10', '0b1', '0o7', ' 2 ', '01', '007', '١', '２', '1_000', 'Infinity', 'NaN', '', '.5', '5.', '1,0', '9007199254740991', '9007199254740992', '9007199254740993', '99999999999999999999999999', '1'.repeat(400), '0'.repeat(30) + '1'];
const numberWord = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...NUMBER_WORDS) },
  { weight: 4, arbitrary: fc.integer({ min: 1, max: 9 }).map(String) },
  { weight: 1, arbitrary: fc.bigInt({ min: 0n, max: 10n ** 40n }).map(String) },
  { weight: 1, arbitrary: fc.double({ noNaN: true }).map(String) },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 6 }) },
);
const idWord = fc.oneof(
  { weight: 8, arbitrary: fc.constantFrom(...FIXTURE_ID_LIST) },
  { weight: 2, arbitrary: fc.constantFrom('Bean-scarlet', 'bean_scarlet', 'bean‐scarlet', 'basil', 'tomato', '__proto__', 'constructor', 'toString', 'bean-scarlet\u0000', '\u202ebean-scarlet', 'bean-scarlet\u200b', '🌱', 'زهرة', 'bean-scarlet\u0301') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 10 }) },
);
const subWord = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom('reserve', 'release', 'agent', 'query') },
  { weight: 2, arbitrary: fc.constantFrom('Reserve', 'RELEASE', 'reserve\u200b', 'agents', 'act', 'grant', 'on', 'off', '', 'help', '__proto__', 'constructor', 'toString', 'query?', '-reserve') },
  { weight: 1, arbitrary: fc.string({ unit: 'grapheme', maxLength: 8 }) },
);
const onOff = fc.oneof({ weight: 8, arbitrary: fc.constantFrom('on', 'off') }, { weight: 2, arbitrary: fc.constantFrom('On', 'ON', 'yes', 'true', '1', 'of', 'onn', 'on\u200b', 'ｏｎ', '') });
const anyWord = fc.oneof(idWord, numberWord, subWord, onOff, fc.constantFrom('bean', 'basil', 'marigold', 'Bean'));

/** `/seeds` arguments: mostly the right shape with one part bent, sometimes the wrong arity. */
const seedsWords: fc.Arbitrary<string[]> = fc.oneof(
  { weight: 6, arbitrary: fc.tuple(fc.constantFrom('reserve', 'release'), idWord, numberWord).map((words) => [...words]) },
  { weight: 3, arbitrary: fc.tuple(subWord, idWord, numberWord).map((words) => [...words]) },
  { weight: 3, arbitrary: fc.tuple(fc.constant('agent'), onOff).map((words) => [...words]) },
  { weight: 1, arbitrary: fc.tuple(fc.constant('query'), fc.option(anyWord)).map(([sub, family]) => (family === null ? [sub] : [sub, family])) },
  { weight: 3, arbitrary: fc.tuple(subWord, fc.array(anyWord, { maxLength: 4 })).map(([sub, rest]) => [sub, ...rest]) },
  { weight: 1, arbitrary: fc.array(anyWord, { maxLength: 5 }) },
);

const seedsLine: fc.Arbitrary<string> = fc
  .record({
    lead: fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 1, arbitrary: space }),
    name: fc.oneof({ weight: 10, arbitrary: fc.constant('/seeds') }, { weight: 1, arbitrary: fc.constantFrom('/Seeds', '/seed', '/seeds\u200b', '//seeds', '/ seeds', 'seeds', '／seeds') }),
    afterName: fc.oneof({ weight: 8, arbitrary: fc.constant(' ') }, { weight: 2, arbitrary: space }),
    words: seedsWords,
    gaps: fc.array(space, { minLength: 6, maxLength: 6 }),
    tail: fc.oneof({ weight: 6, arbitrary: fc.constant('') }, { weight: 1, arbitrary: space }),
  })
  .map(({ lead, name, afterName, words, gaps, tail }) => `${lead}${name}${afterName}${words.map((word, i) => (i === 0 ? word : `${gaps[i % gaps.length]}${word}`)).join('')}${tail}`);

const otherLine: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('/', '/help', '/tree', '/model x', '/seeds', '/seeds ', '/seedsreserve bean-scarlet 1', 'reserve bean-scarlet 1', ' /seeds agent on', '', '   ', '\u202e/seeds agent on', '/seeds\tagent on', '/seeds\u00a0agent on'),
  fc.string({ unit: 'grapheme', maxLength: 40 }),
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ maxLength: 40 }).map((text) => `/${text}`),
  fc.constant('x'.repeat(10_000)),
);

const lineArb = fc.oneof({ weight: 6, arbitrary: seedsLine }, { weight: 1, arbitrary: otherLine });

interface Step {
  readonly line: string;
  readonly interactive: boolean;
  /** Which revision the confirmation was decided on: the current one, or an older one. */
  readonly rev: { readonly kind: 'current' } | { readonly kind: 'stale'; readonly pick: number } | { readonly kind: 'other' };
}

const stepArb: fc.Arbitrary<Step> = fc.record({
  line: lineArb,
  interactive: fc.oneof({ weight: 4, arbitrary: fc.constant(true) }, { weight: 1, arbitrary: fc.constant(false) }),
  rev: fc.oneof(
    { weight: 8, arbitrary: fc.constant({ kind: 'current' as const }) },
    { weight: 1, arbitrary: fc.nat(20).map((pick) => ({ kind: 'stale' as const, pick })) },
    { weight: 1, arbitrary: fc.constant({ kind: 'other' as const }) },
  ),
});

// ---------------------------------------------------------------- the oracle

/**
 * What may commit, judged from the text alone: `/seeds ` then exactly `reserve|release <fixture id>
 * <digits>` (a positive safe integer) or `agent on|off`, words separated by whitespace.
 */
function mayCommit(line: string): boolean {
  if (!line.startsWith('/seeds ')) return false;
  const words = line.slice('/seeds '.length).split(/\s+/).filter((word) => word.length > 0);
  if (words.length === 2) return words[0] === 'agent' && (words[1] === 'on' || words[1] === 'off');
  if (words.length !== 3) return false;
  const [action, id, count] = words as [string, string, string];
  if (action !== 'reserve' && action !== 'release') return false;
  if (!FIXTURE_ID_LIST.includes(id)) return false;
  return /^\d+$/.test(count) && Number.isSafeInteger(Number(count)) && Number(count) > 0;
}

const show = (line: string): string => inspect(line.length > 300 ? `${line.slice(0, 300)}…` : line);

const { tally, count, missing } = createTally();
let linesSeen = 0;

// ---------------------------------------------------------------- the run

function startJournal(): { journal: SessionJournal; revisions: string[]; next: () => string } {
  const journal = SessionJournal.empty(sessionHeader(SESSION, TIME, '/fuzz'));
  let n = 0;
  const next = () => `c${String(n++).padStart(7, '0')}`;
  const place = () => ({ id: asEntryId(next()), parentId: journal.leafId, timestamp: TIME });
  const revisions = [journal.revision()];
  journal.append(userMessageEntry('hello', place()));
  journal.append(customEntry(SEED_DESK_CUSTOM_TYPE, { version: 1, agentEnabled: true, quantities: { 'basil-genovese': 2, 'bean-scarlet': 1 } }, place()));
  revisions.push(journal.revision());
  return { journal, revisions, next };
}

function runSteps(steps: readonly Step[]): void {
  const { journal, revisions, next } = startJournal();
  for (const step of steps) {
    linesSeen++;
    const before = { size: journal.size, revision: journal.revision(), leaf: journal.leafId };
    const state = journal.state();
    check(state.ok, 'the fuzz journal never becomes corrupt');
    // As the host does: the line is trimmed first.
    const text = step.line.trim();
    let slash: ReturnType<typeof splitSlashCommand>;
    let command: SeedsCommand | null = null;
    try {
      slash = splitSlashCommand(text);
      if (slash && slash.name === 'seeds') command = parseSeedsArgs(slash.args);
    } catch (error) {
      throw new FuzzFailure(`parsing threw ${String(error)} for ${show(step.line)}`);
    }
    if (slash) {
      check(text.startsWith('/') && text.slice(1).startsWith(slash.name), `splitSlashCommand lost the name: ${show(step.line)}`);
      check(!slash.name.includes(' '), `a command name holds a space: ${show(step.line)}`);
    } else check(!text.startsWith('/'), `a slash line was not split: ${show(step.line)}`);

    const expectedRevision = step.rev.kind === 'current' ? state.revision : step.rev.kind === 'stale' ? revisions[step.rev.pick % revisions.length]! : 'fuzz-other-session:root';
    let decision: Decision | null = null;
    if (command) {
      count(`parsed ${command.kind}`);
      switch (command.kind) {
        case 'usage':
          check(command.message.includes('Usage'), `a usage result without 'Usage': ${show(step.line)}`);
          break;
        case 'query':
          check(command.family === undefined || (command.family.length > 0 && !/\s/.test(command.family)), `a query family holds whitespace: ${show(step.line)}`);
          break;
        case 'reservation':
          check(command.id.length > 0 && command.packetsText.length > 0, `an empty word in a reservation: ${show(step.line)}`);
          decision = decideReservation(state, { action: command.action, id: command.id, packets: command.packets, expectedRevision, actor: 'human' }, { interactive: step.interactive });
          break;
        case 'grant':
          decision = decideGrant(state, { enabled: command.enabled, expectedRevision }, { interactive: step.interactive });
          break;
      }
    }

    if (decision && !decision.ok) {
      check((REFUSAL_CODES as readonly string[]).includes(decision.refusal.code), `refusal code ${decision.refusal.code} is not one of REFUSAL_CODES`);
      check(decision.refusal.message.length > 0 && decision.refusal.nextStep.length > 0, 'a refusal without message or next step');
      count(`refusal ${decision.refusal.code}`);
      if (!step.interactive) check(decision.refusal.code === 'ui-required', `a headless human change must be refused with ui-required, got ${decision.refusal.code}`);
    }
    if (decision?.ok) {
      count(`commit ${command?.kind}`);
      check(mayCommit(text), `only exact 'reserve|release <id> <digits>' or 'agent on|off' may commit; this one did: ${show(step.line)} parsed as ${inspect(command)}`);
      check(step.interactive, 'a headless human change committed');
      check(expectedRevision === state.revision, 'a stale revision committed');
      journal.append(customEntry(SEED_DESK_CUSTOM_TYPE, decision.snapshot, { id: asEntryId(next()), parentId: journal.leafId, timestamp: TIME }));
      revisions.push(journal.revision());
      check(journal.size === before.size + 1, 'a commit appends exactly one entry');
      check(journal.revision() !== before.revision, 'a commit moves the revision');
    } else {
      check(journal.size === before.size && journal.revision() === before.revision && journal.leafId === before.leaf, `nothing may be appended without a commit: ${show(step.line)}`);
    }
    const now = journal.state();
    check(now.ok, 'a committed snapshot is valid');
    checkConservation(deskRows(now.snapshot));
  }
}

const property = () =>
  fc.property(fc.array(stepArb, { minLength: 10, maxLength: 14 }), (steps) => {
    runSteps(steps);
  });

describe('command line fuzz: /seeds parse and desk decision', () => {
  it(`≥ 10,000 command lines: never throws, usage says Usage, refusals append nothing, only exact commands commit (seed ${SEED})`, ({ task }) => {
    linesSeen = 0;
    tally.clear();
    fc.assert(property(), { seed: SEED, path: PATH, numRuns: 1000, verbose: 1 });
    task.meta.fuzzInputs = linesSeen;
    if (PATH === undefined) {
      expect(linesSeen).toBeGreaterThanOrEqual(10_000);
      const wanted = ['parsed usage', 'parsed query', 'parsed reservation', 'parsed grant', 'commit reservation', 'commit grant', 'refusal ui-required', 'refusal stale-revision', 'refusal invalid-target', 'refusal invalid-quantity', 'refusal insufficient-availability', 'refusal insufficient-reservation'];
      expect(missing(wanted)).toEqual([]);
    }
  }, TIMEOUT);

  it(`pinned regression seed ${PINNED_SEED}`, () => {
    fc.assert(property(), { seed: PINNED_SEED, numRuns: 300 });
  }, TIMEOUT);
});

describe('pinned counterexamples (found by the fuzz above on 6b68603)', () => {
  const decide = (line: string) => {
    const { journal } = startJournal();
    const state = journal.state();
    const slash = splitSlashCommand(line);
    const command = slash ? parseSeedsArgs(slash.args) : null;
    if (command?.kind !== 'reservation') return { command, ok: false };
    const decision = decideReservation(state, { action: command.action, id: command.id, packets: command.packets, expectedRevision: state.revision, actor: 'human' }, { interactive: true });
    return { command, ok: decision.ok };
  };

  // On 6b68603, parse.ts toCount accepted /^[+-]?\d+(\.\d+)?$/ and handed Number(text) to the
  // domain, so a count written "1.0", "2.00" or "+1" became a valid 1 or 2 and was committed.
  it.each(['/seeds reserve bean-scarlet 1.0', '/seeds reserve bean-scarlet +1', '/seeds release basil-genovese 2.00', '/seeds reserve marigold-french 1.000000000000000001'])(
    'regression (failed on 6b68603, fixed in 93e6000): a count that is not digits only must not lead to a commit: %s',
    (line) => {
      const { command, ok } = decide(line);
      expect(command?.kind).toBe('reservation');
      expect(ok).toBe(false);
    },
  );

  it('digits only still commit, leading zeros included', () => {
    expect(decide('/seeds reserve bean-scarlet 1').ok).toBe(true);
    expect(decide('/seeds reserve bean-scarlet 0001').ok).toBe(true);
    expect(decide('/seeds reserve bean-scarlet 0x1').ok).toBe(false);
    expect(decide('/seeds reserve bean-scarlet 1e0').ok).toBe(false);
    expect(decide('/seeds reserve bean-scarlet -0').ok).toBe(false);
  });

  it('FIXTURE ids are the only targets', () => {
    expect(FIXTURE.map((item) => decide(`/seeds reserve ${item.id} 1`).ok)).toEqual([true, true, true]);
    expect(decide('/seeds reserve __proto__ 1').ok).toBe(false);
  });
});
