/**
 * The lessons as the build compiles them (scripts/lesson-plugin.mjs): a small index the first
 * screen imports, one module per lesson (its texts, what it points at, its solutions), fetched
 * when that lesson opens, and one per lesson with its goals, fetched with the checker.
 */
declare module 'virtual:lessons-index' {
  export const LESSON_INDEX: readonly import('../../../lessons/format/lessonSchema').LessonIndexEntry[];
  export function loadLesson(id: string): Promise<import('../../../lessons/format/lessonSchema').Lesson>;
  export function loadGoals(id: string): Promise<import('../../../lessons/format/lessonSchema').LessonGoals>;
}

declare module 'virtual:lesson/*' {
  const lesson: import('../../../lessons/format/lessonSchema').Lesson;
  export default lesson;
}

declare module 'virtual:lesson-goals/*' {
  const goals: import('../../../lessons/format/lessonSchema').LessonGoals;
  export default goals;
}
