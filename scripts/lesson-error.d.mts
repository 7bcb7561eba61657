/** A lesson that cannot be compiled: `file` (relative to the lessons folder's parent), 1-based `line`, and the `reason`. */
export class LessonError extends Error {
  readonly file: string;
  readonly line: number;
  readonly reason: string;
  constructor(file: string, line: number, reason: string);
}
