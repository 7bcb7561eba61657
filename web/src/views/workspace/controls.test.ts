import { describe, expect, it } from 'vitest';
import { LESSONS } from '../../../../scripts/lessons.mjs';
import { regionNames } from '../code/codeView';
import { asksClosingQuestion, CONTROLS, describeSpot, isControl, tabForSpot } from './controls';
import { REGIONS } from './layout';
import { TOOL_TABS } from './tabs';

/**
 * What each lesson step points at lives in its step file (`tab`, `outline`, `code`); the lesson
 * compiler refuses names the page does not know. These check what a name alone cannot: that a
 * step opens the tab its controls live in, and how the page words and opens what a step names.
 */

const steps = LESSONS.flatMap((lesson) => lesson.steps);
const step = (id: string) => {
  const found = steps.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no step ${id}`);
  return found;
};
const tabIds: string[] = TOOL_TABS.map((tab) => tab.id);
const regionIds: string[] = REGIONS.map((region) => region.id);

describe('what each lesson step points at', () => {
  it('outlines something in every step', () => {
    for (const { id, outline } of steps) expect(outline.length, id).toBeGreaterThan(0);
  });

  it('opens the tab a control it outlines lives in', () => {
    for (const { id, tab, outline } of steps) {
      for (const item of outline) {
        if (!isControl(item)) continue;
        const control = CONTROLS[item];
        if ('tab' in control) expect(tab, `${id}: ${item}`).toBe(control.tab);
      }
    }
  });

  it('places every control in a real region, and tab controls in the Tools region', () => {
    for (const [id, control] of Object.entries(CONTROLS)) {
      expect(regionIds, id).toContain(control.region);
      if ('tab' in control) {
        expect(tabIds, id).toContain(control.tab);
        expect(control.region, id).toBe('tools');
      }
    }
  });

  it('asks the closing question at the closing step only', () => {
    expect(steps.filter(asksClosingQuestion).map((item) => item.id)).toEqual(['closing-answer']);
  });

  it('says where, in words, naming the tab first', () => {
    expect(describeSpot(step('journal-filter'))).toBe('the Journal tab (Tools): "Filter journal"');
    expect(describeSpot(step('basil-exercise'))).toBe('the Session graph and the Command line');
    expect(describeSpot(null)).toBeNull();
  });
});

describe("steps that point at the extension's code", () => {
  it('name only regions the Code tab ships', async () => {
    const names = await regionNames();
    const codeSteps = steps.filter((item) => item.code !== undefined);
    expect(codeSteps.length).toBeGreaterThan(0);
    for (const { id, code } of codeSteps) expect(names, id).toContain(code?.region);
  }, 60_000); // the first import highlights the source, as the build does

  it('send the race, the branch, the approval, the refusals and the corrupt entry to their regions', () => {
    const race = steps.find((item) => item.solution.some((action) => action.do === 'meanwhile-step-back'));
    expect(race?.code?.region).toBe('re-read-after-dialog');
    expect(step('rewind-before-reservation').code?.region).toBe('read-desk-branch');
    expect(step('headless-tool-allow').code?.region).toBe('tool-approval');
    expect(step('tool-refusals').code?.region).toBe('refusals-as-values');
    expect(step('corrupt-branch').code?.region).toBe('validate-every-snapshot');
  });

  it('open the Code tab on arrival unless the step needs another tab', () => {
    expect(tabForSpot(step('race-refused'))).toBe('code');
    expect(tabForSpot(step('rewind-before-reservation'))).toBe('code');
    expect(tabForSpot(step('corrupt-branch'))).toBe('refusals');
    expect(tabForSpot(step('tool-discover'))).toBe('tool');
    expect(tabForSpot(step('basil-exercise'))).toBeNull();
    expect(tabForSpot(null)).toBeNull();
  });
});
