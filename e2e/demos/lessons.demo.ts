import { expect, test } from '@playwright/test';
import { LESSONS } from '../../scripts/lessons.mjs';
import { performAction } from '../../web/src/tutorial/lessonActions';
import { describeAction, newDemo, uiDriver } from './uiActions';
import { checkpoint, CHECKPOINT_REACHED, openWorkspace } from './workspace';

/**
 * One demo per lesson, read from the lessons' own content (lessons/, compiled as the build does):
 * the lesson is prepared as "Reset lesson" prepares it (a new session, then its setup), and each
 * step's solution (what "Do it for me" does) is done through the page as a person does it (the
 * shared table of lesson actions, web/src/tutorial/lessonActions.ts, with the UI's driver). One
 * test.step per lesson step, asserting its checkpoint and leaving a screenshot; the trace of the
 * whole lesson is kept (playwright.demos.config.ts).
 */

const pad = (value: number) => String(value).padStart(2, '0');

for (const [lessonIndex, lesson] of LESSONS.entries()) {
  test(`Lesson ${lessonIndex + 1}: ${lesson.title}`, async ({ page }, testInfo) => {
    const ui = uiDriver(newDemo(page));
    const steps = page.getByRole('list', { name: 'Steps' });

    await test.step('Prepare the lesson: "Reset lesson" starts a new session and runs its setup', async () => {
      await openWorkspace(page, `#/lesson/${lessonIndex + 1}/step/1`);
      await performAction(ui, { do: 'new-session', fresh: true });
      // The setup runs behind the button, which is enabled again once it is done.
      await expect(page.getByRole('button', { name: 'Reset lesson', exact: true })).toBeEnabled({ timeout: 30_000 });
      // Choosing the first step again starts its checkpoint after the setup, as "Reset lesson" does.
      await steps.getByRole('link').first().click();
    });

    for (const [stepIndex, step] of lesson.steps.entries()) {
      const title = `Step ${stepIndex + 1}: ${step.title}`;
      await test.step(title, async () => {
        if (stepIndex > 0) await page.getByRole('button', { name: 'Next step' }).click();
        await expect(page.getByRole('heading', { name: title, exact: true })).toBeVisible();
        await expect(checkpoint(page), 'not ticked before the step is done').toContainText('Not yet');
        for (const action of step.solution) {
          await test.step(describeAction(action), () => performAction(ui, action));
        }
        await expect(checkpoint(page), `checkpoint of "${step.id}" (${step.file})`).toHaveText(CHECKPOINT_REACHED, { timeout: 15_000 });
        const file = testInfo.outputPath(`step-${pad(stepIndex + 1)}-${step.id}.png`);
        await page.screenshot({ path: file });
        await testInfo.attach(title, { path: file, contentType: 'image/png' });
      });
    }

    await expect(page.getByRole('navigation', { name: 'Lessons' }).getByRole('listitem').nth(lessonIndex)).toContainText(
      `(${lesson.steps.length}/${lesson.steps.length})`,
    );
  });
}
