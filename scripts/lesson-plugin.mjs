// Lessons are content: `lessons/NN-<lesson>/lesson.md` and one `NN-<step>.md` per step, markdown
// with YAML frontmatter. The compiler (lesson-compiler.mjs) reads them at build time and validates
// each against the lesson schema (zod) and the workspace's names; this Vite plugin serves the
// result as JSON modules: `virtual:lessons-index` (ids, titles, step ids: what the first screen
// lists) and one `virtual:lesson/<id>` per lesson, imported only when that lesson is opened. No
// YAML or markdown parser reaches the page. A malformed lesson stops the build with its file, line
// and reason.
import { existsSync, readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import { compileLessons, LESSONS_DIR } from './lesson-compiler.mjs';

export { compileLessons, LESSONS_DIR } from './lesson-compiler.mjs';
export { LessonError } from './lesson-error.mjs';

export const INDEX_ID = 'virtual:lessons-index';
export const LESSON_ID_PREFIX = 'virtual:lesson/';
export const GOALS_ID_PREFIX = 'virtual:lesson-goals/';
const RESOLVED_LESSON = '\0virtual:lesson-';
const RESOLVED_GOALS = '\0virtual:goals-';

/** What the page gets to show a lesson: no goals (they come with the checker), no wrong attempts (the tests' business), no file names. */
export function pageLesson(lesson) {
  return {
    id: lesson.id,
    title: lesson.title,
    summary: lesson.summary,
    setup: lesson.setup,
    ...(lesson.own ? { own: true } : {}),
    steps: lesson.steps.map(({ wrong: _wrong, file: _file, goal: _goal, ...step }) => step),
  };
}

/** A lesson's goals by step id: fetched with the checker, at the learner's first action. */
export function lessonGoals(lesson) {
  return Object.fromEntries(lesson.steps.map((step) => [step.id, step.goal]));
}

export function lessonIndex(lessons) {
  return lessons.map((lesson) => ({ id: lesson.id, title: lesson.title, steps: lesson.steps.map((step) => step.id), ...(lesson.own ? { own: true } : {}) }));
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
