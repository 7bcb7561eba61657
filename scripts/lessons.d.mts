import type { CompiledLesson } from '../lessons/format/lessonSchema';

/** Every lesson under `dir` (default: the repository's lessons/), validated; throws a LessonError naming file and line. */
export function loadLessons(dir?: string): CompiledLesson[];
/** The repository's lessons, compiled once when this module loads (wrong attempts included). */
export const LESSONS: readonly CompiledLesson[];
