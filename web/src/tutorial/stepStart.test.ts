/**
 * "Reset this step" (issue 27, part 6): what a step began from, the moves that bring it back, the
 * sentence that names the host settings a reset or a lesson's setup changed; then, on the real
 * host through the simulated page, a wrong move undone: session, leaf, settings and the running
 * extension as the step began, nothing taken out of the journal, and the step's own solution
 * ticking from there.
 */
import { hostView } from '../app/fakeConnection.testkit';
import { afterEach, describe, expect, it } from 'vitest';
import { FIXTURE } from '$domain/fixture';
import { LESSONS } from '../../../scripts/lessons.mjs';
import type { HostView } from '../protocol/messages';
import type { CompiledLesson } from '../../../lessons/format/lessonSchema';
import { closePages, openPage, type SimulatedPage } from './simulatedPage.testkit';
import { restorePlan, settingsSentence, type StepStart } from './stepStart';

afterEach(closePages);

function view(over: Partial<HostView> = {}): HostView {
  return hostView({ sessionId: 's1', entryCount: 2, leafId: 'e2', revision: 's1:e2', status: '', seedDeskEntryCount: 1, ...over });
}

const START: StepStart = { sessionId: 's1', leafId: 'e2', leafReeditable: false, approvalMode: 'yolo', approvalPolicy: null, interactive: true, extension: 'edited', editedFiles: { 'domain/desk.ts': 'broken' } };

describe('the moves back to where a step began', () => {
  it('moves nothing when the page is as the step began', () => {
    expect(restorePlan(START, view({ extension: 'edited' }), { 'domain/desk.ts': 'broken' })).toEqual([]);
  });

  it('switches back to the session, puts the leaf back, sets the settings again and runs the version the step began with', () => {
    const now = view({ sessionId: 's2', leafId: null, approvalMode: 'always-ask', approvalPolicy: 'deny', interactive: false });
    expect(restorePlan(START, now, null)).toEqual([
      { do: 'switch-session', sessionId: 's1' },
      { do: 'leaf', to: 'e2', reeditable: false },
      { do: 'approval-mode', value: 'yolo' },
      { do: 'policy', value: null },
      { do: 'interactive', value: true },
      { do: 'run-files', files: { 'domain/desk.ts': 'broken' } },
    ]);
  });

  it('runs the start\'s files again when another edited version runs, and goes back to the shipped one when the step began with it', () => {
    expect(restorePlan(START, view({ extension: 'edited' }), { 'domain/desk.ts': 'mended' })).toEqual([{ do: 'run-files', files: { 'domain/desk.ts': 'broken' } }]);
    expect(restorePlan({ ...START, extension: 'shipped', editedFiles: null }, view({ extension: 'edited' }), { 'domain/desk.ts': 'broken' })).toEqual([{ do: 'shipped-extension' }]);
  });
});

describe('the sentence naming what the runner changed in the host', () => {
  const settings = { approvalMode: 'always-ask', approvalPolicy: 'deny', interactive: false, extension: 'edited' } as const;

  it('names each setting a lesson setup changed, yolo as OMP\'s default', () => {
    expect(settingsSentence(settings, { approvalMode: 'yolo', approvalPolicy: null, interactive: true, extension: 'shipped' }, 'setup')).toBe(
      `This lesson's setup changed the host: "Approval mode" set to yolo, OMP's default; "Host approval for seed_desk" cleared (not set, the host's default); "Interactive UI" switched on; the shipped extension runs again.`,
    );
  });

  it('says nothing when nothing changed', () => {
    expect(settingsSentence(settings, settings, 'setup')).toBeNull();
  });

  it('names what a step reset put back', () => {
    expect(settingsSentence({ ...settings, approvalMode: 'yolo' }, settings, 'reset')).toBe('Reset this step put back: "Approval mode" set to always-ask.');
  });
});

const BREAK_IT = LESSONS.find((lesson) => lesson.id === 'break-it') as CompiledLesson;

async function startOf(page: SimulatedPage, stepId: string) {
  const index = BREAK_IT.steps.findIndex((step) => step.id === stepId);
  await page.performAll([{ do: 'new-session', fresh: true }, ...BREAK_IT.setup, ...BREAK_IT.steps.slice(0, index).flatMap((step) => step.solution)]);
  return { step: BREAK_IT.steps[index] as CompiledLesson['steps'][number], start: await page.stepStart() };
}

const snapshot = async (page: SimulatedPage) => {
  const { view: now } = await page.observed(page.nextSeq);
  return { sessionId: now.sessionId, leafId: now.leafId, revision: now.revision, rows: now.rows, approvalMode: now.approvalMode, approvalPolicy: now.approvalPolicy, interactive: now.interactive, extension: now.extension ?? 'shipped', entryCount: now.entryCount };
};

describe('Reset this step on the real host', () => {
  it('after "Back to the shipped extension", a race, a new session and loosened settings, the broken version runs again where the step began; the mend then ticks', async () => {
    const page = await openPage();
    const { step, start } = await startOf(page, 'mend-reread');
    const before = await snapshot(page);
    expect(before.extension).toBe('edited');
    await page.performAll([
      { do: 'shipped-extension' },
      { do: 'line', text: '/seeds reserve marigold-french 1' },
      { do: 'confirm' },
      { do: 'new-session' },
      { do: 'approval-mode', value: 'always-ask' },
      { do: 'policy', value: 'deny' },
      { do: 'interactive', value: false },
    ]);
    const sentence = await page.resetStep(start);
    expect(sentence).toContain('"Approval mode" set to yolo');
    expect(sentence).toContain('your edited version runs again');
    // Everything as it began, except the journal: the marigold stays appended, on its own branch.
    const after = await snapshot(page);
    expect({ ...after, entryCount: before.entryCount }).toEqual(before);
    expect(after.entryCount).toBeGreaterThan(before.entryCount);
    expect((await page.stepStart()).editedFiles).toEqual(start.editedFiles);
    // The broken version again: the same race still goes through, and the step does not tick...
    const from = page.nextSeq;
    await page.performAll([{ do: 'line', text: '/seeds reserve marigold-french 1' }, { do: 'meanwhile-step-back' }, { do: 'confirm' }]);
    expect((await page.check(step, from)).done).toBe(false);
    // ...until a reset and the step's own mend.
    await page.resetStep(start);
    const again = page.nextSeq;
    await page.performAll(step.solution);
    expect(await page.check(step, again)).toEqual({ done: true, whyNot: null });
  }, 60_000);

  it('puts the leaf back on a message the host re-edits, and on the session\'s start, by moves that delete nothing', async () => {
    const page = await openPage();
    await page.performAll([{ do: 'new-session' }]);
    const atRoot = await page.stepStart();
    expect(atRoot.leafId).toBeNull();
    await page.performAll([{ do: 'line', text: '/seeds reserve basil-genovese 2' }, { do: 'confirm' }, { do: 'line', text: 'Basil by the window.' }]);
    const onMessage = await page.stepStart();
    expect(onMessage.leafReeditable).toBe(true);
    const desk = (await snapshot(page)).rows;
    await page.performAll([{ do: 'line', text: '/seeds reserve bean-scarlet 1' }, { do: 'confirm' }, { do: 'line', text: 'And a bean.' }]);
    await page.resetStep(onMessage);
    expect((await snapshot(page)).leafId).toBe(onMessage.leafId);
    expect((await snapshot(page)).rows).toEqual(desk);
    await page.resetStep(atRoot);
    const root = await snapshot(page);
    expect(root.leafId).toBeNull();
    expect(root.rows.every((row) => row.reserved === 0)).toBe(true);
    expect(root.entryCount).toBe(4);
  }, 30_000);
});
