import { describe, expect, it } from 'vitest';
import { LESSONS } from '../../lessons/lessons';
import { regionNames } from '../code/codeView';
import { REGIONS } from './layout';
import { asksClosingQuestion, CONTROLS, describeStep, isControl, spotFor, STEP_SPOTS, tabForSpot } from './stepTargets';
import { TOOL_TABS } from './tabs';

const stepIds = LESSONS.flatMap((lesson) => lesson.steps.map((step) => step.id));
const tabIds: string[] = TOOL_TABS.map((tab) => tab.id);
const regionIds: string[] = REGIONS.map((region) => region.id);

describe('what each lesson step points at', () => {
  it('names only steps that exist in the lessons', () => {
    expect(Object.keys(STEP_SPOTS).filter((id) => !stepIds.includes(id))).toEqual([]);
  });

  it('covers every step of every lesson', () => {
    expect(stepIds.filter((id) => !(id in STEP_SPOTS))).toEqual([]);
  });

  it('opens only real tabs and outlines only real controls or regions', () => {
    for (const [id, spot] of Object.entries(STEP_SPOTS)) {
      if (spot.tab !== undefined) expect(tabIds, id).toContain(spot.tab);
      expect(spot.highlight.length, id).toBeGreaterThan(0);
      for (const item of spot.highlight) expect(isControl(item) || regionIds.includes(item), `${id}: ${item}`).toBe(true);
    }
  });

  it('opens the tab a control it outlines lives in', () => {
    for (const [id, spot] of Object.entries(STEP_SPOTS)) {
      for (const item of spot.highlight) {
        if (!isControl(item)) continue;
        const control = CONTROLS[item];
        if ('tab' in control) expect(spot.tab, `${id}: ${item}`).toBe(control.tab);
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

  it('sends the tool steps to "Tool call" and the journal step to "Journal"', () => {
    expect(STEP_SPOTS['tool-discover']?.tab).toBe('tool');
    expect(STEP_SPOTS['journal-filter']?.tab).toBe('journal');
    expect(STEP_SPOTS['corrupt-branch']?.tab).toBe('refusals');
  });

  it('asks the closing question at the closing step only', () => {
    expect(stepIds.filter(asksClosingQuestion)).toEqual(['closing-answer']);
  });

  it('says where, in words, naming the tab first', () => {
    expect(describeStep('journal-filter')).toBe('the Journal tab (Tools): "Filter journal"');
    expect(describeStep('basil-exercise')).toBe('the Session graph and the Command line');
    expect(describeStep('no-such-step')).toBeNull();
  });
});

describe('steps that point at the extension\'s code', () => {
  const codeSteps = Object.entries(STEP_SPOTS).filter(([, spot]) => spot.code !== undefined);

  it('name only regions the Code tab ships', async () => {
    const names = await regionNames();
    expect(codeSteps.length).toBeGreaterThan(0);
    for (const [id, spot] of codeSteps) expect(names, id).toContain(spot.code?.region);
  }, 60_000); // the first import highlights the source, as the build does

  it('are steps of the lessons', () => {
    expect(codeSteps.map(([id]) => id).filter((id) => !stepIds.includes(id))).toEqual([]);
  });

  it('send the race, the branch, the approval, the refusals and the corrupt entry to their regions', () => {
    const race = LESSONS.flatMap((lesson) => lesson.steps).find((step) => step.doItForMe.some((action) => action.do === 'meanwhile-step-back'));
    expect(race).toBeDefined();
    expect(spotFor(race?.id ?? '')?.code?.region).toBe('re-read-after-dialog');
    expect(STEP_SPOTS['rewind-before-reservation']?.code?.region).toBe('read-desk-branch');
    expect(STEP_SPOTS['headless-tool-allow']?.code?.region).toBe('tool-approval');
    expect(STEP_SPOTS['tool-refusals']?.code?.region).toBe('refusals-as-values');
    expect(STEP_SPOTS['corrupt-branch']?.code?.region).toBe('validate-every-snapshot');
  });

  it('open the Code tab on arrival unless the step needs another tab', () => {
    expect(tabForSpot(spotFor('race-refused'))).toBe('code');
    expect(tabForSpot(spotFor('rewind-before-reservation'))).toBe('code');
    expect(tabForSpot(spotFor('corrupt-branch'))).toBe('refusals');
    expect(tabForSpot(spotFor('tool-discover'))).toBe('tool');
    expect(tabForSpot(spotFor('basil-exercise'))).toBeNull();
    expect(tabForSpot(null)).toBeNull();
  });
});
