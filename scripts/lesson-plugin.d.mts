import type { Plugin } from 'vite';
import type { CompiledLesson, Lesson, LessonGoals, LessonIndexEntry } from '../lessons/format/lessonSchema';

export const LESSONS_DIR: string;
export const INDEX_ID: 'virtual:lessons-index';
export const LESSON_ID_PREFIX: 'virtual:lesson/';
export const GOALS_ID_PREFIX: 'virtual:lesson-goals/';

/** A lesson that cannot be compiled: `file` (relative to the lessons folder's parent), 1-based `line`, and the `reason`. */
export class LessonError extends Error {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
  constructor(file: string, line: number, reason: string);
}

/** Reads and validates every lesson under `dir`, in folder order; throws a LessonError on the first problem. */
export function compileLessons(dir?: string): CompiledLesson[];
/** What the page gets to show a lesson (no goals, no wrong attempts, no file names). */
export function pageLesson(lesson: CompiledLesson): Lesson;
/** A lesson's goals by step id, fetched with the checker. */
export function lessonGoals(lesson: CompiledLesson): LessonGoals;
export function lessonIndex(lessons: readonly CompiledLesson[]): LessonIndexEntry[];
/** `virtual:lessons-index`, `virtual:lesson/<id>` and `virtual:lesson-goals/<id>`, compiled from `dir` at build time. */
export function lessonPlugin(options?: { dir?: string }): Plugin;
