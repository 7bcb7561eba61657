/**
 * The machinery of declared steps (declared.ts): the evidence an assertion gets, its small
 * asserting helpers, and the rule that makes a declaration without an assertion about the real OMP
 * fail the run. "About the real OMP" is checked, not trusted: the real side of the evidence is
 * watched, and an assertion that returns without reading a field of a real trace step (or that
 * names no fact) fails like one that throws.
 */
import { isDeepStrictEqual } from 'node:util';
import type { NotedStep, NotedTrace } from './hostNotes';

/** One side's trace around a lesson step. */
export interface StepsOf {
  /** The trace steps of the lesson step, in order. */
  readonly at: readonly NotedStep[];
  /** The trace step just before them (a baseline). */
  readonly before: NotedStep | undefined;
  /** The trace steps of another lesson step of the same script. */
  of(label: string): readonly NotedStep[];
}

export interface DeclaredEvidence {
  /** The page (worker host). */
  readonly page: StepsOf;
  /** The real OMP's replay, each of its processes started as a new OMP process starts a session. */
  readonly real: StepsOf;
  /**
   * The same script replayed in the real OMP with its session on one file from the start, as
   * `omp --session <file>` opens a path that does not exist yet (written at once); null when the
   * declaration does not ask for it.
   */
  readonly oneFile: StepsOf | null;
}

/** What a declaration needs from declared.ts (kept structural so the guard can use made-up ones). */
export interface Assertable {
  readonly script: string;
  readonly step: string;
  readonly oneFile?: boolean;
  readonly assertReal?: unknown;
}

export function stepsOf(trace: NotedTrace, labels: readonly string[] | undefined, label: string): StepsOf {
  const indices = (wanted: string) => trace.steps.flatMap((_, index) => (labels?.[index] === wanted ? [index] : []));
  const at = indices(label);
  return { at: at.map((index) => trace.steps[index]!), before: at.length > 0 ? trace.steps[at[0]! - 1] : undefined, of: (other) => indices(other).map((index) => trace.steps[index]!) };
}

/** Throws unless `actual` deep-equals `expected`. */
export function expect(actual: unknown, expected: unknown, fact: string): void {
  if (!isDeepStrictEqual(actual, expected)) throw new Error(`${fact}: expected ${JSON.stringify(expected)}, the real OMP gave ${JSON.stringify(actual)}`);
}

/** Throws unless the page's value deep-equals the real host's (and the real one exists). */
export function same(page: unknown, real: unknown, fact: string): void {
  if (real === undefined || !isDeepStrictEqual(page, real)) throw new Error(`${fact}: the page shows ${JSON.stringify(page)}, the real OMP ${JSON.stringify(real)}`);
}

/** Packets reserved of one seed in a snapshot's `quantities` (0 when absent). */
export function reserved(quantities: unknown, id: string): number {
  const value = typeof quantities === 'object' && quantities !== null ? (quantities as Record<string, unknown>)[id] : undefined;
  return typeof value === 'number' ? value : 0;
}

/** A deep view of `value` that records whether any named field of it was read. */
function watched<T>(value: T, seen: { read: boolean }): T {
  if (typeof value !== 'object' || value === null) return value;
  return new Proxy(value, {
    get(target, key, receiver) {
      const field = typeof key === 'string' && key !== 'length' && !/^\d+$/.test(key);
      const got: unknown = Reflect.get(target, key, receiver);
      if (field && typeof got !== 'function') seen.read = true;
      return watched(got, seen);
    },
  });
}

function watchedSteps(steps: StepsOf, seen: { read: boolean }): StepsOf {
  return { at: watched(steps.at, seen), before: watched(steps.before, seen), of: (label) => watched(steps.of(label), seen) };
}

/**
 * Runs one declaration's assertion on its evidence: the facts it checked, or a throw naming why it
 * fails — no assertion, one that read nothing of the real OMP, one that named no fact, a real
 * side with no step at the lesson step, or an assertion that found OMP doing otherwise.
 */
export function assertDeclared(declared: Assertable, evidence: DeclaredEvidence): readonly string[] {
  const name = `${declared.script}/${declared.step}`;
  if (typeof declared.assertReal !== 'function') throw new Error(`${name}: declared without an assertion about the real OMP`);
  if (evidence.real.at.length === 0) throw new Error(`${name}: the real replay has no step at this lesson step`);
  if (declared.oneFile && (!evidence.oneFile || evidence.oneFile.at.length === 0)) throw new Error(`${name}: the one-file replay has no step at this lesson step`);
  const seen = { read: false };
  const facts = (declared.assertReal as (evidence: DeclaredEvidence) => unknown)({
    page: evidence.page,
    real: watchedSteps(evidence.real, seen),
    oneFile: evidence.oneFile ? watchedSteps(evidence.oneFile, seen) : null,
  });
  if (!seen.read) throw new Error(`${name}: its assertion read nothing of the real OMP's traces`);
  if (!Array.isArray(facts) || facts.length === 0 || !facts.every((fact) => typeof fact === 'string' && fact.length > 0)) throw new Error(`${name}: its assertion named no fact it checked`);
  return facts as string[];
}
