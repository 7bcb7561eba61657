/**
 * A teacher's lesson, written without TypeScript: a folder with a lesson.md and one markdown file
 * per step, compiled by the build's own compiler. It is listed, its solution ticks against the
 * real host, and its wrong attempt does not tick and shows its hint.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { compileLessons, lessonIndex } from '../../../scripts/lesson-plugin.mjs';
import { closePages, openPage } from './simulatedPage.testkit';

const FILES: Record<string, string> = {
  'lesson.md': `---
id: family-filter
title: Only the beans
summary: Ask the desk about one family, then hold a bean.
setup:
  - { do: interactive, value: true }
---
`,
  '01-bean-family.md': `---
id: bean-family
title: Ask about beans only
outline: [command]
solution:
  - { do: line, text: /seeds query bean }
wrong:
  - name: asked about every family
    try: [{ do: line, text: /seeds query }]
    hint: only the bean family
goal:
  - outcome: { kind: answered, rows: [bean-scarlet] }
    unmet: type \`/seeds query bean\`.
    when:
      - outcome: { kind: answered }
        say: that listed every seed; ask about only the bean family with \`/seeds query bean\`.
---

Type \`/seeds query bean\`.

## Why

A family filter keeps the answer short.

## Expected

Only bean-scarlet is listed.
`,
  '02-hold-a-bean.md': `---
id: hold-a-bean
title: Hold one bean
outline: [command, desk-table]
solution:
  - { do: line, text: /seeds reserve bean-scarlet 1 }
  - { do: confirm }
wrong:
  - name: cancelled
    try:
      - { do: line, text: /seeds reserve bean-scarlet 1 }
      - { do: cancel }
    hint: press Confirm
goal:
  - outcome: { kind: committed, path: dialog, change: { reserve: bean-scarlet } }
    unmet: reserve one bean and press Confirm.
  - desk: { bean-scarlet: { reserved: 1, available: 4 } }
---

Reserve one bean with \`/seeds reserve bean-scarlet 1\` and confirm.

## Why

A confirmed change is written.

## Expected

bean-scarlet: 4 available, 1 reserved.
`,
};

const root = mkdtempSync(join(tmpdir(), 'teacher-'));
const dir = join(root, 'lessons');
mkdirSync(join(dir, '01-family-filter'), { recursive: true });
for (const [name, text] of Object.entries(FILES)) writeFileSync(join(dir, '01-family-filter', name), text);

afterEach(closePages);
afterAll(() => rmSync(root, { recursive: true, force: true }));

describe('a lesson written as markdown only', () => {
  const lessons = compileLessons(dir);
  const lesson = lessons[0]!;

  it('is listed', () => {
    expect(lessonIndex(lessons)).toEqual([{ id: 'family-filter', title: 'Only the beans', steps: ['bean-family', 'hold-a-bean'] }]);
  });

  it('is solvable: each step ticks after its solution, not before', async () => {
    const page = await openPage();
    await page.performAll([{ do: 'new-session', fresh: true }, ...lesson.setup]);
    for (const step of lesson.steps) {
      const start = page.nextSeq;
      expect((await page.check(step, start)).done, step.id).toBe(false);
      await page.performAll(step.solution);
      expect(await page.check(step, start), step.id).toEqual({ done: true, whyNot: null });
    }
  });

  it.each(lesson.steps.map((step, index) => [step.id, index] as const))('is checked: the wrong attempt at %s does not tick and shows its hint', async (_id, index) => {
    const step = lesson.steps[index]!;
    const page = await openPage();
    await page.performAll([{ do: 'new-session', fresh: true }, ...lesson.setup, ...lesson.steps.slice(0, index).flatMap((earlier) => earlier.solution)]);
    const start = page.nextSeq;
    for (const wrong of step.wrong) {
      await page.performAll(wrong.try);
      const result = await page.check(step, start);
      expect(result.done).toBe(false);
      expect(result.whyNot).toContain(wrong.hint);
    }
  });
});
