// Lessons are content: `lessons/NN-<lesson>/lesson.md` and one `NN-<step>.md` per step, markdown
// with YAML frontmatter. This compiler reads them, validates each against the lesson schema (zod,
// lesson-frontmatter.mjs) and the workspace's names (lesson-names.mjs), and reads each step's body
// into its texts. A malformed lesson stops it with its file, line and reason.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { LessonFrontmatterSchema, StepFrontmatterSchema } from '../lessons/format/lessonSchema.ts';
import { LessonError } from './lesson-error.mjs';
import { readFrontmatter, shift, splitFrontmatter, validate } from './lesson-frontmatter.mjs';
import { checkGoal, checkStepNames, codeRegionNames } from './lesson-names.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const LESSONS_DIR = join(ROOT, 'lessons');

const NUMBERED = /^(\d+)-([a-z0-9][a-z0-9-]*?)(\.md)?$/;

/** A paragraph's lines joined by spaces, paragraphs by a blank line: the text the page renders (`code` in backticks). */
function prose(lines) {
  return lines
    .join('\n')
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.split('\n').map((line) => line.trim()).filter(Boolean).join(' '))
    .filter(Boolean)
    .join('\n\n');
}

const SECTIONS = { why: 'why', expected: 'expected' };

/** A step's body: its instruction, then `## Why` and `## Expected`. */
function readBody(file, body, bodyLine) {
  const found = { instruction: { lines: [], line: bodyLine } };
  let current = 'instruction';
  body.forEach((line, index) => {
    const number = bodyLine + index;
    const heading = /^(#{1,6})\s+(.*?)\s*$/.exec(line);
    if (!heading) {
      found[current].lines.push(line);
      return;
    }
    const section = SECTIONS[heading[2].toLowerCase()];
    if (heading[1] !== '##' || !section) throw new LessonError(file, number, `unknown heading "${line.trim()}": a step's body is its instruction, then "## Why" and "## Expected" (the title is in the frontmatter)`);
    if (found[section]) throw new LessonError(file, number, `a second "## ${heading[2]}" section`);
    found[section] = { lines: [], line: number };
    current = section;
  });
  const texts = {};
  for (const name of ['instruction', 'why', 'expected']) {
    const section = found[name];
    const text = section ? prose(section.lines) : '';
    // A missing section is reported at the body's last line of text.
    const line = section?.line ?? bodyLine + body.findLastIndex((text) => text.trim() !== '');
    if (!text) throw new LessonError(file, line, name === 'instruction' ? 'the instruction (the body before "## Why") is empty' : `the body needs a "## ${name === 'why' ? 'Why' : 'Expected'}" section with text`);
    if (text.split('`').length % 2 === 0) throw new LessonError(file, line, `an odd number of backticks in the ${name}: the rest would show as code`);
    texts[name] = text;
  }
  return texts;
}

/** Numbered entries of a folder, in number order; `NN-` prefixes must not repeat. */
function numbered(dir, entries, display) {
  const seen = new Map();
  return entries
    .map((name) => ({ name, match: NUMBERED.exec(name) }))
    .filter((entry) => entry.match)
    .map((entry) => {
      const number = Number(entry.match[1]);
      if (seen.has(number)) throw new LessonError(display(join(dir, entry.name)), 1, `the number ${entry.match[1]} is also used by ${seen.get(number)}`);
      seen.set(number, entry.name);
      return { name: entry.name, number, slug: entry.match[2] };
    })
    .sort((a, b) => a.number - b.number);
}

/** Reads and validates every lesson under `dir`, in folder order. Throws a LessonError on the first problem. */
export function compileLessons(dir = LESSONS_DIR) {
  const display = (path) => relative(dirname(dir), path).split('\\').join('/');
  if (!existsSync(dir)) throw new LessonError(display(dir), 1, 'there is no lessons folder');
  const regions = codeRegionNames(ROOT);
  const stepIds = new Map();
  const lessonIds = new Set();
  const folders = numbered(dir, readdirSync(dir, { withFileTypes: true }).filter((entry) => entry.isDirectory()).map((entry) => entry.name), display);
  if (folders.length === 0) throw new LessonError(display(dir), 1, 'no lesson folders (NN-<lesson-id>/lesson.md)');
  return folders.map((folder) => {
    const folderPath = join(dir, folder.name);
    const lessonPath = join(folderPath, 'lesson.md');
    const lessonFile = display(lessonPath);
    if (!existsSync(lessonPath)) throw new LessonError(lessonFile, 1, 'every lesson folder has a lesson.md (id, title, summary, setup)');
    const split = splitFrontmatter(lessonFile, readFileSync(lessonPath, 'utf8'));
    const front = readFrontmatter(lessonFile, split.yaml);
    const lesson = validate(LessonFrontmatterSchema, lessonFile, shift(front, 1));
    if (lesson.id !== folder.slug) throw new LessonError(lessonFile, shift(front, 1).lineOf(['id']), `the folder is named for "${folder.slug}" but the lesson's id is "${lesson.id}"`);
    if (lessonIds.has(lesson.id)) throw new LessonError(lessonFile, shift(front, 1).lineOf(['id']), `a second lesson with the id "${lesson.id}"`);
    lessonIds.add(lesson.id);
    const files = numbered(folderPath, readdirSync(folderPath).filter((name) => name.endsWith('.md') && name !== 'lesson.md'), display);
    if (files.length === 0) throw new LessonError(lessonFile, 1, 'the lesson has no step files (NN-<step-id>.md beside lesson.md)');
    const steps = files.map((entry) => {
      const path = join(folderPath, entry.name);
      const file = display(path);
      const parts = splitFrontmatter(file, readFileSync(path, 'utf8'));
      const stepFront = shift(readFrontmatter(file, parts.yaml), 1);
      const step = validate(StepFrontmatterSchema, file, stepFront);
      checkStepNames(file, stepFront, step, entry.slug, regions);
      checkGoal(file, stepFront, step.goal);
      if (stepIds.has(step.id)) throw new LessonError(file, stepFront.lineOf(['id']), `the step id "${step.id}" is also used in ${stepIds.get(step.id)} (progress is stored by step id)`);
      stepIds.set(step.id, file);
      return { ...step, ...readBody(file, parts.body, parts.bodyLine), file };
    });
    return { ...lesson, folder: display(folderPath), steps };
  });
}
