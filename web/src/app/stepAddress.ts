import { LESSON_INDEX } from 'virtual:lessons-index';

/** Where the learner is in the tutorial, and the page address that names it. */

export interface Position {
  readonly lesson: number;
  readonly step: number;
}

/** `#/lesson/<n>/step/<m>`, 1-based; anything else is not a lesson address. */
export function parseStepHash(hash: string): Position | null {
  const match = /^#\/lesson\/(\d+)\/step\/(\d+)$/.exec(hash);
  if (!match) return null;
  const lesson = Number(match[1]) - 1;
  const step = Number(match[2]) - 1;
  const found = LESSON_INDEX[lesson];
  return found && step >= 0 && step < found.steps.length ? { lesson, step } : null;
}

export function stepHash(position: Position): string {
  return `#/lesson/${position.lesson + 1}/step/${position.step + 1}`;
}
