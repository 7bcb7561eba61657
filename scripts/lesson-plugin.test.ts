import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { compileLessons, lessonGoals, lessonIndex, LessonError, lessonPlugin, pageLesson } from './lesson-plugin.mjs';
import { LESSONS } from './lessons.mjs';

/**
 * The lesson compiler: a lesson folder of markdown becomes validated JSON, and a malformed one
 * stops the build naming its file, its line and the reason.
 */

const LESSON = `---
id: tiny
title: A tiny lesson
summary: Look at the desk once.
---
`;

/** A valid step file; `patch` rewrites it into a broken one. */
const STEP = `---
id: look
title: Look
outline: [command]
solution:
  - { do: line, text: /seeds query }
wrong:
  - name: said it instead
    try: [{ do: line, text: seeds query }]
    hint: a slash
goal:
  - outcome: { kind: answered, rows: some }
    unmet: type \`/seeds query\`.
    when:
      - outcome: { kind: said }
        say: commands start with a slash.
---

Type \`/seeds query\`.

## Why

To see the desk.

## Expected

The desk.
`;

const folders: string[] = [];
afterEach(() => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true });
});

function lessonsWith(step: string, lesson = LESSON, name = '01-look.md'): string {
  const root = mkdtempSync(join(tmpdir(), 'lessons-'));
  folders.push(root);
  const dir = join(root, 'lessons', '01-tiny');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'lesson.md'), lesson);
  writeFileSync(join(dir, name), step);
  return join(root, 'lessons');
}

/** The LessonError a broken lesson folder stops with. */
function failure(dir: string): LessonError {
  try {
    compileLessons(dir);
  } catch (error) {
    if (error instanceof LessonError) return error;
    throw error;
  }
  throw new Error('the broken lesson compiled');
}

const lineOf = (text: string, needle: string): number => text.split('\n').findIndex((line) => line.includes(needle)) + 1;

describe('the lesson compiler', () => {
  it('compiles a folder of markdown: frontmatter, and the body as instruction, why and expected', () => {
    const [lesson] = compileLessons(lessonsWith(STEP));
    expect(lesson?.steps[0]).toMatchObject({ id: 'look', instruction: 'Type `/seeds query`.', why: 'To see the desk.', expected: 'The desk.', outline: ['command'], file: 'lessons/01-tiny/01-look.md' });
  });

  const broken: { name: string; step: string; at: string; reason: RegExp }[] = [
    { name: 'an unknown outcome kind', step: STEP.replace('kind: answered', 'kind: answerd'), at: 'kind: answerd', reason: /goal #1 › outcome › kind: Invalid option/ },
    { name: 'a misspelt key', step: STEP.replace('    unmet: type', '    unmeet: type'), at: 'unmeet', reason: /Unrecognized key: "unmeet"/ },
    { name: 'an action the schema does not know', step: STEP.replace('{ do: line, text: /seeds query }', '{ do: dance }'), at: 'do: dance', reason: /solution #1/ },
    { name: 'a step without wrong attempts', step: STEP.replace(/wrong:\n(.*\n){3}/, 'wrong: []\n'), at: 'wrong: []', reason: /at least one wrong attempt/ },
    { name: 'an outline name the page does not know', step: STEP.replace('outline: [command]', 'outline: [comand]'), at: 'outline', reason: /nothing to outline called "comand"/ },
    { name: 'a label used before any part named it', step: STEP.replace('kind: said }', 'kind: said, after: start }'), at: 'after: start', reason: /"start" names no earlier part/ },
    { name: 'an unknown placeholder', step: STEP.replace('commands start with a slash.', 'commands start with {slash}.'), at: '{slash}', reason: /unknown placeholder \{slash\}/ },
    { name: 'a YAML error (a key given twice)', step: STEP.replace('title: Look', 'title: Look\ntitle: Peek'), at: 'title: Peek', reason: /YAML: Map keys must be unique/ },
    { name: 'an unknown section', step: STEP.replace('## Why', '## Because'), at: '## Because', reason: /unknown heading "## Because"/ },
    { name: 'a missing "## Expected"', step: STEP.replace('## Expected\n\nThe desk.\n', ''), at: 'To see the desk.', reason: /"## Expected" section/ },
    { name: 'an id that is not its file name', step: STEP.replace('id: look', 'id: peek'), at: 'id: peek', reason: /named for "look" but the step's id is "peek"/ },
    { name: 'an odd backtick', step: STEP.replace('To see the desk.', 'To see `the desk.'), at: '## Why', reason: /odd number of backticks/ },
  ];

  it.each(broken.map((example) => [example.name, example] as const))('stops on %s, naming the file, the line and the reason', (_name, { step, at, reason }) => {
    const error = failure(lessonsWith(step));
    expect(error.file).toBe('lessons/01-tiny/01-look.md');
    expect(error.line).toBe(lineOf(step, at));
    expect(error.reason).toMatch(reason);
    expect(error.message).toBe(`${error.file}:${error.line}: ${error.reason}`);
  });

  it('stops on a lesson.md without a summary', () => {
    const error = failure(lessonsWith(STEP, LESSON.replace('summary: Look at the desk once.\n', '')));
    expect([error.file, error.reason]).toEqual(['lessons/01-tiny/lesson.md', 'summary: Invalid input: expected string, received undefined']);
  });

  it('stops on a step id used twice', () => {
    const dir = lessonsWith(STEP);
    writeFileSync(join(dir, '01-tiny', '02-look.md'), STEP);
    expect(failure(dir).reason).toMatch(/the step id "look" is also used in lessons\/01-tiny\/01-look.md/);
  });
});

describe('what the build serves', () => {
  it('an index of ids, titles and step ids; per lesson, its texts without goals or wrong attempts, and its goals apart', () => {
    expect(lessonIndex(LESSONS).map((entry) => entry.steps.length)).toEqual([6, 10, 4, 3, 12, 7, 6, 5, 8, 2]);
    const page = pageLesson(LESSONS[0]!);
    expect(Object.keys(page.steps[0]!).sort()).toEqual(['code', 'expected', 'id', 'instruction', 'outline', 'solution', 'tab', 'title', 'why'].filter((key) => key in page.steps[0]!).sort());
    expect(JSON.stringify(page)).not.toMatch(/"wrong"|"goal"|"hint"/);
    expect(Object.keys(lessonGoals(LESSONS[0]!))).toEqual(LESSONS[0]!.steps.map((step) => step.id));
  });

  it('serves the virtual modules, and the index loads each lesson with import()', async () => {
    const plugin = lessonPlugin() as unknown as { resolveId(id: string): string | null; load(id: string): string | null };
    const index = plugin.load(plugin.resolveId('virtual:lessons-index') ?? '') ?? '';
    expect(index).toContain('export const LESSON_INDEX');
    expect(index).toContain('import("virtual:lesson/human-reservation")');
    expect(index).toContain('import("virtual:lesson-goals/closing-question")');
    const lesson = plugin.load(plugin.resolveId('virtual:lesson/agent-grant') ?? '') ?? '';
    expect(lesson.startsWith('export default {"id":"agent-grant"')).toBe(true);
    expect(() => plugin.load(plugin.resolveId('virtual:lesson/no-such-lesson') ?? '')).toThrow(/no lesson "no-such-lesson"/);
  });
});
