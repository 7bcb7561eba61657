/**
 * Every lesson's solution ("Do it for me") replayed against the real host through the simulated
 * page: each step does not tick before its actions and ticks after them, judged by the one goal
 * checker from the step's own data. The refusal table is met along the way, each code on the path
 * the lessons teach it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { REFUSAL_CODES } from '$domain/refusal';
import { LESSONS } from '../../../scripts/lessons.mjs';
import type { CompiledLesson } from '../../../lessons/format/lessonSchema';
import { closePages, openPage, type SimulatedPage } from './simulatedPage.testkit';

afterEach(closePages);

/** "Reset lesson", then every step: not done before its actions, done after them. */
async function replay(page: SimulatedPage, lesson: CompiledLesson): Promise<void> {
  await page.performAll([{ do: 'new-session', fresh: true }, ...lesson.setup]);
  for (const step of lesson.steps) {
    const start = page.nextSeq;
    const before = await page.check(step, start);
    expect(before.done, `${lesson.id}/${step.id} ticks before anything was done`).toBe(false);
    expect(before.whyNot, `${lesson.id}/${step.id}`).toMatch(/^Not yet: \S/);
    await page.performAll(step.solution);
    const after = await page.check(step, start);
    expect(after, `${lesson.id}/${step.id}: ${after.whyNot ?? ''}`).toEqual({ done: true, whyNot: null });
  }
}

/** The refusal codes each step's solution met, and how: through the tool (the desk's answer to seed_desk) or a refusal the page saw (command line, dialog, compare). */
async function refusalsByStep(page: SimulatedPage): Promise<Map<string, Set<string>>> {
  const met = new Map<string, Set<string>>();
  for (const lesson of LESSONS) {
    await page.performAll([{ do: 'new-session', fresh: true }, ...lesson.setup]);
    for (const step of lesson.steps) {
      const start = page.nextSeq;
      await page.performAll(step.solution);
      const codes = new Set<string>();
      for (const fact of (await page.observed(start)).facts) {
        if (fact.kind === 'refused') codes.add(`${fact.code} via ${fact.via}`);
        if (fact.kind === 'tool' && fact.outcome.kind === 'result' && fact.outcome.stage === 'domain' && fact.outcome.details?.code) codes.add(`${fact.outcome.details.code} via tool`);
      }
      met.set(step.id, codes);
    }
  }
  return met;
}

describe('the refusal table, met in the lessons', () => {
  it('every refusal code of the lesson is met by the learner in some step, each on the path the lesson shows it', async () => {
    const met = await refusalsByStep(await openPage());
    const all = new Set([...met.values()].flatMap((codes) => [...codes].map((code) => code.split(' via ')[0])));
    expect([...all].sort()).toEqual([...REFUSAL_CODES].sort());
    // The paths issue 11 names: agent-disabled through seed_desk before the grant and after the revoke;
    // an excess release through the tool and through /seeds; ui-required for a headless grant and revoke.
    expect(met.get('act-before-grant')).toContain('agent-disabled via tool');
    expect(met.get('act-after-revoke')).toContain('agent-disabled via tool');
    expect(met.get('excess-release')).toEqual(new Set(['insufficient-reservation via tool', 'insufficient-reservation via line']));
    expect(met.get('race-refused')).toEqual(new Set(['stale-revision via dialog']));
    expect(met.get('headless-ui-required')).toContain('ui-required via line');
    expect(met.get('headless-revoke-refused')).toEqual(new Set(['ui-required via line']));
    expect(met.get('corrupt-branch')).toContain('corrupt-state via line');
  }, 120_000);
});

describe('every step\'s solution ticks', () => {
  it('lesson 1 ends where the lesson text ends: a new session on the starting desk, nothing carried over from the old one', async () => {
    const page = await openPage();
    await replay(page, LESSONS[0] as CompiledLesson);
    const { view } = await page.observed(page.nextSeq);
    const held = Object.fromEntries(view.rows.map((row) => [row.id, [row.available, row.reserved]]));
    expect(held).toEqual({ 'basil-genovese': [8, 0], 'bean-scarlet': [5, 0], 'marigold-french': [3, 0] });
    expect(view.seedDeskEntryCount).toBe(0);
  });

  it('replays every lesson in order in one playground', async () => {
    const page = await openPage();
    for (const lesson of LESSONS) await replay(page, lesson);
  }, 120_000);

  it.each(LESSONS.map((lesson) => [lesson.id, lesson] as const))('replays %s after another lesson left the host headless with approval denied', async (_id, lesson) => {
    const page = await openPage();
    await page.perform({ do: 'interactive', value: false });
    await page.perform({ do: 'policy', value: 'deny' });
    await replay(page, lesson);
    // "Break it" and the own extension compile with esbuild-wasm in Node: seconds on a loaded machine.
  }, 60_000);
});
