import type { CompiledLesson } from '../lessons/format/lessonSchema';

export const LESSONS_DIR: string;

/** Reads and validates every lesson under `dir`, in folder order; throws a LessonError on the first problem. */
export function compileLessons(dir?: string): CompiledLesson[];
