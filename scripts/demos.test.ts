import { describe, expect, test } from 'vitest';
import { schemaActionKinds, UI_ACTIONS, unmappedKinds } from '../e2e/demos/uiActions';
import { LESSONS } from './lessons.mjs';

// The lesson demos (npm run demos) replay every lesson action through the page. A new action kind
// in the lesson schema needs its UI mapping in e2e/demos/uiActions.ts, or its lesson cannot be replayed.
describe('lesson demos: a UI mapping for every lesson action', () => {
  test('the kinds are read from the lesson schema itself', () => {
    const kinds = schemaActionKinds();
    expect(kinds).toContain('line');
    expect(kinds).toContain('closing-answer');
    expect(new Set(kinds).size).toBe(kinds.length);
  });

  test('every action kind in the schema has a UI mapping', () => {
    expect(unmappedKinds(schemaActionKinds(), UI_ACTIONS)).toEqual([]);
  });

  test('a kind the schema gains without a mapping is named', () => {
    expect(unmappedKinds([...schemaActionKinds(), 'water-the-basil'], UI_ACTIONS)).toEqual(['water-the-basil']);
  });

  test('the mapping holds no kind the schema does not know', () => {
    const known = Object.fromEntries(schemaActionKinds().map((kind) => [kind, true]));
    expect(unmappedKinds(Object.keys(UI_ACTIONS), known)).toEqual([]);
  });

  test('every action the lessons use, setup and wrong attempts included, has a mapping', () => {
    const used = LESSONS.flatMap((lesson) => [...lesson.setup, ...lesson.steps.flatMap((step) => [...step.solution, ...step.wrong.flatMap((wrong) => wrong.try)])]).map((action) => action.do);
    expect(unmappedKinds([...new Set(used)], UI_ACTIONS)).toEqual([]);
  });
});
