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
