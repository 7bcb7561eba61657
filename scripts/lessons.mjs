// The lessons for Node (Vitest, tsx, Playwright): compiled from `lessons/` by the same compiler
// the build uses, with every step's wrong attempts, which the page never receives. Tests, the
// lesson demos (e2e/demos) and host-test's lesson scripts read them from here.
import { compileLessons, LESSONS_DIR } from './lesson-plugin.mjs';

/** Every lesson under `dir` (default: the repository's lessons/), validated; throws a LessonError naming file and line. */
export function loadLessons(dir = LESSONS_DIR) {
  return compileLessons(dir);
}

/** The repository's lessons, compiled once when this module loads. */
export const LESSONS = Object.freeze(loadLessons());
