/**
 * "Break it"'s mends against the real worker host (issue 36): a learner who types the missing
 * guard back exactly as it shipped has mended their version, and the step ticks; "Discard my
 * edits" and "Run my version" runs the shipped text, mends nothing and does not tick, until
 * "Reset this step" brings the broken version back into the editor and the learner changes it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { LESSONS } from '../../../scripts/lessons.mjs';
import type { CompiledLesson, LessonAction } from '../../../lessons/format/lessonSchema';
import { closePages, openPage, type SimulatedPage } from './simulatedPage.testkit';

afterEach(closePages);

const BREAK_IT = LESSONS.find((lesson) => lesson.id === 'break-it') as CompiledLesson;
type Step = CompiledLesson['steps'][number];
type Edit = Extract<LessonAction, { do: 'apply-edit' }>;

/** Each mend step with the break before it: the break's edit, undone exactly, is the shipped line typed back. */
const MENDS = BREAK_IT.steps.flatMap((step, index) => {
  const broke = BREAK_IT.steps[index - 1]?.solution.find((action): action is Edit => action.do === 'apply-edit');
  return step.id.startsWith('mend-') && broke ? [{ index, step, typedBack: { do: 'apply-edit', file: broke.file, find: broke.replace, replace: broke.find } as const }] : [];
});

/** The step's solution with its own edit replaced by `edit` (the actions after it stay). */
const withEdit = (step: Step, edit: LessonAction): LessonAction[] => step.solution.map((action) => (action.do === 'apply-edit' ? edit : action));

async function openAt(index: number): Promise<SimulatedPage> {
  const page = await openPage();
  await page.performAll([{ do: 'new-session', fresh: true }, ...BREAK_IT.setup, ...BREAK_IT.steps.slice(0, index).flatMap((step) => step.solution)]);
  return page;
}

describe('a mend typed back exactly as it shipped', () => {
  it('there is one for every mend step', () => {
    expect(MENDS.map(({ step }) => step.id)).toEqual(['mend-reread', 'mend-grant', 'mend-branch', 'mend-validation']);
  });

  it.each(MENDS.map((mend) => [mend.step.id, mend] as const))('%s ticks', async (_id, { index, step, typedBack }) => {
    const page = await openAt(index);
    const from = page.nextSeq;
    await page.performAll(withEdit(step, typedBack));
    expect(await page.check(step, from)).toEqual({ done: true, whyNot: null });
  }, 60_000);
});

describe('"Discard my edits", "Run my version", then the step\'s actions', () => {
  it.each(MENDS.map((mend) => [mend.step.id, mend] as const))('%s: no tick, one sentence why; after "Reset this step" the editor holds the broken version to mend', async (_id, { index, step, typedBack }) => {
    const page = await openAt(index);
    const start = await page.stepStart();
    let from = page.nextSeq;
    await page.performAll(withEdit(step, { do: 'discard-edits' }));
    const result = await page.check(step, from);
    expect(result.done).toBe(false);
    expect(result.whyNot).toContain('"Discard my edits" put it back), which mends nothing');
    await page.resetStep(start);
    from = page.nextSeq;
    await page.performAll(withEdit(step, typedBack));
    expect(await page.check(step, from)).toEqual({ done: true, whyNot: null });
  }, 60_000);
});
