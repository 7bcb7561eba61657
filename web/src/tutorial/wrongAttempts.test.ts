/**
 * Every step's known-wrong attempts, replayed against the real host through the simulated page:
 * from the state the step starts in (a new session, the lesson's setup, the earlier steps'
 * solutions), the attempt must NOT tick, and the "not yet" reason must contain its hint. A check
 * too lax would tick them; one that names the wrong mistake would miss the hint.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LESSONS } from '../../../scripts/lessons.mjs';
import { closePages, openPage } from './simulatedPage.testkit';

afterEach(closePages);

const attempts = LESSONS.flatMap((lesson) =>
  lesson.steps.flatMap((step, index) =>
    step.wrong.map((wrong) => ({ label: `${lesson.id}/${step.id}: ${wrong.name}`, before: [{ do: 'new-session', fresh: true } as const, ...lesson.setup, ...lesson.steps.slice(0, index).flatMap((earlier) => earlier.solution)], step, wrong })),
  ),
);

describe('wrong attempts do not tick, and say why', () => {
  it('every step has at least one', () => {
    expect(attempts.length).toBeGreaterThanOrEqual(LESSONS.reduce((sum, lesson) => sum + lesson.steps.length, 0));
  });

  it.each(attempts.map((attempt) => [attempt.label, attempt] as const))('%s', async (_label, { before, step, wrong }) => {
    const page = await openPage();
    await page.performAll(before);
    const start = page.nextSeq;
    await page.performAll(wrong.try);
    const result = await page.check(step, start);
    expect(result.done, 'a wrong attempt ticked').toBe(false);
    expect(result.whyNot).toMatch(/^Not yet: \S/);
    expect(result.whyNot).toContain(wrong.hint);
    // "Break it" compiles the learner's version (esbuild) in the replay of the earlier steps.
  }, 60_000);
});
