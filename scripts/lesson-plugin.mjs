// Lessons are content: `lessons/NN-<lesson>/lesson.md` and one `NN-<step>.md` per step, markdown
// with YAML frontmatter. This compiler reads them at build time, validates each against the lesson
// schema (zod) and the workspace's names, and the Vite plugin serves the result as JSON modules:
// `virtual:lessons-index` (ids, titles, step ids: what the first screen lists) and one
// `virtual:lesson/<id>` per lesson, imported only when that lesson is opened. No YAML or markdown
// parser reaches the page. A malformed lesson stops the build with its file, line and reason.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { FIXTURE_IDS } from '../domain/fixture.ts';
import { PLACEHOLDERS } from '../lessons/format/goalSchema.ts';
import { LessonFrontmatterSchema, StepFrontmatterSchema } from '../lessons/format/lessonSchema.ts';
import { CHECK_NAMES as NAMED_CHECK_NAMES, OUTLINE_NAMES, TOOL_TAB_IDS as TAB_IDS } from '../lessons/format/workspaceNames.ts';
import { codeFiles, extractRegions } from './code-view-plugin.mjs';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
export const LESSONS_DIR = join(ROOT, 'lessons');
export const INDEX_ID = 'virtual:lessons-index';
export const LESSON_ID_PREFIX = 'virtual:lesson/';
export const GOALS_ID_PREFIX = 'virtual:lesson-goals/';
const RESOLVED_LESSON = '\0virtual:lesson-';
const RESOLVED_GOALS = '\0virtual:goals-';

/** A lesson that cannot be compiled: where, and why. */
export class LessonError extends Error {
  constructor(file, line, reason) {
    super(`${file}:${line}: ${reason}`);
    this.name = 'LessonError';
    this.file = file;
    this.line = line;
    this.reason = reason;
  }
}

const NUMBERED = /^(\d+)-([a-z0-9][a-z0-9-]*?)(\.md)?$/;

/** Splits `---` frontmatter from the body; the frontmatter's YAML starts on line 2. */
function splitFrontmatter(file, text) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines[0]?.trim() !== '---') throw new LessonError(file, 1, 'a lesson file starts with "---", its YAML frontmatter, and "---" again');
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end < 0) throw new LessonError(file, 1, 'the frontmatter is never closed: add a line "---" after it');
  return { yaml: lines.slice(1, end).join('\n'), body: lines.slice(end + 1), bodyLine: end + 2 };
}

/** Parses the frontmatter, keeping where each value stands so an error can name its line. */
function readFrontmatter(file, yaml) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(yaml, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) throw new LessonError(file, lineCounter.linePos(error.pos[0]).line + 1, `YAML: ${error.message.split('\n')[0]}`);
  /** The 1-based line in the YAML text of the value at `path` (or of the nearest parent that exists). */
  const lineOf = (path, key) => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
      if (!node?.range) continue;
      let offset = node.range[0];
      if (depth === path.length && key !== undefined && isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && item.key.value === key);
        if (pair?.key?.range) offset = pair.key.range[0];
      }
      return lineCounter.linePos(offset).line;
    }
    return 1;
  };
  return { data: doc.toJS() ?? {}, lineOf };
}

/** A value's path as a teacher counts: `goal #4 › outcome › kind` (list positions from 1). */
function pathWords(path) {
  return path.reduce((words, key) => (typeof key === 'number' ? `${words} #${key + 1}` : words ? `${words} › ${String(key)}` : String(key)), '');
}

/** Validates with a zod schema; the first issue becomes a LessonError at its line. */
function validate(schema, file, front) {
  const parsed = schema.safeParse(front.data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path ?? [];
  const unknown = issue?.code === 'unrecognized_keys' ? issue.keys?.[0] : undefined;
  const where = path.length > 0 ? `${pathWords(path)}: ` : '';
  throw new LessonError(file, front.lineOf(path, unknown), `${where}${issue?.message ?? 'does not match the lesson schema'}`);
}

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

/** The goal's names: labels used only after a part defined them, known checks and placeholders. */
function checkGoal(file, front, goal) {
  const labels = new Set();
  const placeholder = new Set([...PLACEHOLDERS, ...FIXTURE_IDS.flatMap((id) => ['reserved', 'available', 'packets'].map((field) => `${id}.${field}`))]);
  const words = (text, path) => {
    for (const [, name] of text.matchAll(/\{([a-zA-Z][\w.-]*)\}/g)) {
      if (!placeholder.has(name)) throw new LessonError(file, front.lineOf(path), `unknown placeholder {${name}}: known are ${[...PLACEHOLDERS].join(', ')} and {<item>.reserved|available|packets}`);
    }
  };
  const walk = (condition, path) => {
    for (const kind of ['outcome', 'tool', 'dialog']) {
      const fact = condition[kind];
      if (!fact) continue;
      for (const key of ['after', 'before']) {
        if (fact[key] !== undefined && !labels.has(fact[key])) throw new LessonError(file, front.lineOf([...path, kind, key]), `"${fact[key]}" names no earlier part: give an earlier part "as: ${fact[key]}"`);
      }
      const named = fact.revision?.sameAs ?? fact.revision?.differentFrom;
      if (named !== undefined && !labels.has(named)) throw new LessonError(file, front.lineOf([...path, kind, 'revision']), `"${named}" names no earlier part`);
    }
    if (condition.check && !NAMED_CHECK_NAMES.includes(condition.check.name)) {
      throw new LessonError(file, front.lineOf([...path, 'check', 'name']), `no named check "${condition.check.name}": known are ${NAMED_CHECK_NAMES.join(', ')}`);
    }
    if (condition.not) walk(condition.not, [...path, 'not']);
    for (const key of ['all', 'any']) (condition[key] ?? []).forEach((inner, index) => walk(inner, [...path, key, index]));
  };
  goal.forEach((part, index) => {
    walk(part, ['goal', index]);
    (part.when ?? []).forEach((when, whenIndex) => {
      walk(when, ['goal', index, 'when', whenIndex]);
      words(when.say, ['goal', index, 'when', whenIndex, 'say']);
    });
    if (part.unmet) words(part.unmet, ['goal', index, 'unmet']);
    if (part.as !== undefined) labels.add(part.as);
  });
}

function checkStepNames(file, front, step, slug, regions) {
  if (step.id !== slug) throw new LessonError(file, front.lineOf(['id']), `the file is named for "${slug}" but the step's id is "${step.id}": rename one (progress is stored by id)`);
  if (step.tab !== undefined && !TAB_IDS.includes(step.tab)) throw new LessonError(file, front.lineOf(['tab']), `no Tools tab "${step.tab}": known are ${TAB_IDS.join(', ')}`);
  step.outline.forEach((name, index) => {
    if (!OUTLINE_NAMES.includes(name)) throw new LessonError(file, front.lineOf(['outline', index]), `nothing to outline called "${name}": known are ${OUTLINE_NAMES.join(', ')}`);
  });
  if (step.code && !regions.has(step.code.region)) throw new LessonError(file, front.lineOf(['code', 'region']), `no code region "${step.code.region}" (a "// #region <name>" marker in extension/ or the domain files the Code tab shows)`);
  const answers = [...step.solution, ...step.wrong.flatMap((wrong) => wrong.try)].some((action) => action.do === 'answer');
  if (answers && !step.question) throw new LessonError(file, front.lineOf(['solution']), 'an "answer" action answers the step\'s own question: give the step a "question:" (ask, answer, explain)');
}

/** The Code tab's region names, read from the marker comments (no highlighting needed). */
function codeRegionNames() {
  return new Set(codeFiles().flatMap((path) => extractRegions(path, readFileSync(join(ROOT, path), 'utf8')).map((region) => region.name)));
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
  const regions = codeRegionNames();
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

/** Frontmatter lines are counted from the file's second line (after the opening "---"). */
function shift(front, by) {
  return { data: front.data, lineOf: (path, key) => front.lineOf(path, key) + by };
}

/** What the page gets to show a lesson: no goals (they come with the checker), no wrong attempts (the tests' business), no file names. */
export function pageLesson(lesson) {
  return {
    id: lesson.id,
    title: lesson.title,
    summary: lesson.summary,
    setup: lesson.setup,
    steps: lesson.steps.map(({ wrong: _wrong, file: _file, goal: _goal, ...step }) => step),
  };
}

/** A lesson's goals by step id: fetched with the checker, at the learner's first action. */
export function lessonGoals(lesson) {
  return Object.fromEntries(lesson.steps.map((step) => [step.id, step.goal]));
}

export function lessonIndex(lessons) {
  return lessons.map((lesson) => ({ id: lesson.id, title: lesson.title, steps: lesson.steps.map((step) => step.id) }));
}

function indexModule(lessons) {
  const loaders = (prefix) => lessons.map((lesson) => `  ${JSON.stringify(lesson.id)}: () => import(${JSON.stringify(`${prefix}${lesson.id}`)}),`).join('\n');
  return [
    `export const LESSON_INDEX = ${JSON.stringify(lessonIndex(lessons))};`,
    `const LESSONS = {\n${loaders(LESSON_ID_PREFIX)}\n};`,
    `const GOALS = {\n${loaders(GOALS_ID_PREFIX)}\n};`,
    'const load = (table, id) => (Object.hasOwn(table, id) ? table[id]().then((module) => module.default) : Promise.reject(new Error(`There is no lesson "${id}".`)));',
    'export const loadLesson = (id) => load(LESSONS, id);',
    'export const loadGoals = (id) => load(GOALS, id);',
  ].join('\n');
}

/** Vite plugin: `virtual:lessons-index` and `virtual:lesson/<id>`, compiled from `dir` (a build stops on a broken lesson). */
export function lessonPlugin({ dir = LESSONS_DIR } = {}) {
  let compiled;
  let building = false;
  const lessons = () => (compiled ??= compileLessons(dir));
  const watched = () => (existsSync(dir) ? readdirSync(dir, { recursive: true }).map((name) => join(dir, String(name))) : []);
  return {
    name: 'seed-desk-lessons',
    configResolved(config) {
      building = config.command === 'build';
    },
    buildStart() {
      compiled = undefined;
      // The build fails here, naming the file and line; the dev server shows it on first import instead.
      if (building) lessons();
      for (const file of watched()) this.addWatchFile(file);
    },
    // `virtual:lesson/<id>` resolves without its slash, so its chunk is named `_virtual_lesson-<id>-<hash>.js`
    // (and `virtual:lesson-goals/<id>`, `_virtual_goals-<id>-<hash>.js`).
    resolveId(id) {
      if (id === INDEX_ID) return `\0${id}`;
      if (id.startsWith(GOALS_ID_PREFIX)) return `${RESOLVED_GOALS}${id.slice(GOALS_ID_PREFIX.length)}`;
      return id.startsWith(LESSON_ID_PREFIX) ? `${RESOLVED_LESSON}${id.slice(LESSON_ID_PREFIX.length)}` : null;
    },
    load(id) {
      if (id === `\0${INDEX_ID}`) return indexModule(lessons());
      const goals = id.startsWith(RESOLVED_GOALS);
      if (!goals && !id.startsWith(RESOLVED_LESSON)) return null;
      const wanted = id.slice((goals ? RESOLVED_GOALS : RESOLVED_LESSON).length);
      const lesson = lessons().find((candidate) => candidate.id === wanted);
      if (!lesson) throw new Error(`There is no lesson "${wanted}" in ${basename(dir)}/.`);
      return `export default ${JSON.stringify(goals ? lessonGoals(lesson) : pageLesson(lesson))};`;
    },
    // A lesson file changed: compile again and reload the page (the dev server only).
    configureServer(server) {
      server.watcher.add(dir);
      const changed = (file) => {
        if (!file.startsWith(dir)) return;
        compiled = undefined;
        for (const module of server.moduleGraph.idToModuleMap.values()) {
          if (module.id?.startsWith(RESOLVED_LESSON) || module.id?.startsWith(RESOLVED_GOALS) || module.id === `\0${INDEX_ID}`) server.moduleGraph.invalidateModule(module);
        }
        server.ws.send({ type: 'full-reload' });
      };
      server.watcher.on('change', changed).on('add', changed).on('unlink', changed);
    },
  };
}
