/**
 * Where the page's host differs from the real OMP on purpose, step by step. Each difference is
 * declared once here, and only for a lesson step whose own text says so ("in this page" and what
 * the real OMP did): the comparison still runs and prints these steps, accepts a difference only
 * at a declared step, and fails when a declared step no longer differs (so this list stays true).
 */
import { LESSONS } from '../scripts/lessons.mjs';

export interface Declared {
  /** The differential script (`lesson-<id>`) and the lesson step the difference belongs to. */
  readonly script: string;
  readonly step: string;
  /** What the real OMP does there, as `npm run test:host` measured it. */
  readonly real: string;
}

export const DECLARED: readonly Declared[] = [
  {
    script: 'lesson-persistence-limits',
    step: 'storage-failure-latch',
    real: 'a failed write of the session file does not stop the extension: its change stays in memory, the host latches the failure for its file, the next full write clears the latch and keeps both changes; the page refuses writes until a reopen',
  },
  {
    script: 'lesson-closing-question',
    step: 'other-tab-reserves',
    real: 'a second OMP process finds no session file before the first assistant message and reserves in a session of its own; two tabs of the page share one journal',
  },
  {
    script: 'lesson-closing-question',
    step: 'compare-overbooked',
    real: "the first OMP process holds no entry of the second, so there is no other branch to compare; the page's tabs share theirs",
  },
];

/** The declared steps of one script. */
export function declaredSteps(script: string): ReadonlySet<string> {
  return new Set(DECLARED.filter((declared) => declared.script === script).map((declared) => declared.step));
}

/** Each declared step exists and its text says "in this page" and names the real OMP: the lesson says the difference. */
export function undeclaredInLessons(): string[] {
  const problems: string[] = [];
  for (const { script, step } of DECLARED) {
    const lesson = LESSONS.find((candidate) => `lesson-${candidate.id}` === script);
    const found = lesson?.steps.find((candidate) => candidate.id === step);
    if (!found) {
      problems.push(`${script}/${step}: no such lesson step`);
      continue;
    }
    const text = [found.title, found.instruction, found.why, found.expected].join('\n');
    if (!/in this page/i.test(text) || !/real OMP/.test(text)) problems.push(`${script}/${step}: its text does not say "in this page" and what the real OMP does`);
  }
  return problems;
}
