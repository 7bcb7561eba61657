import type { Plugin } from 'vite';
import type { CompiledLesson, Lesson, LessonGoals, LessonIndexEntry } from '../lessons/format/lessonSchema';

export { compileLessons, LESSONS_DIR } from './lesson-compiler.mjs';
export { LessonError } from './lesson-error.mjs';

export const INDEX_ID: 'virtual:lessons-index';
export const LESSON_ID_PREFIX: 'virtual:lesson/';
export const GOALS_ID_PREFIX: 'virtual:lesson-goals/';

/** What the page gets to show a lesson (no goals, no wrong attempts, no file names). */
export function pageLesson(lesson: CompiledLesson): Lesson;
/** A lesson's goals by step id, fetched with the checker. */
export function lessonGoals(lesson: CompiledLesson): LessonGoals;
export function lessonIndex(lessons: readonly CompiledLesson[]): LessonIndexEntry[];
/** `virtual:lessons-index`, `virtual:lesson/<id>` and `virtual:lesson-goals/<id>`, compiled from `dir` at build time. */
export function lessonPlugin(options?: { dir?: string }): Plugin;
