/**
 * Issue 37's lesson in both hosts: the solution of every lesson that works in "Your own
 * extension" (`own: true`), written as own scripts (ownSteps.ts runs them), once per version the
 * lesson runs: the start it hands the learner (a note in a variable) and the branch-aware one its
 * solution runs (the template). Both hosts take the same lines, tree moves and reopen, so the
 * comparison shows the real OMP saying what the page says for each: the variable's note following
 * the learner onto a branch that never held it, and the rebuilt note staying with its branch.
 *
 * What the page does that a host does not: choosing the files and "Run my version" (each script
 * runs one version from its start); "Branch from here" on a user message moves the leaf to that
 * message's parent (OMP's /tree re-edit rule), which the script writes as a move to the point
 * remembered just before the message was said.
 */
import { LESSONS } from '../scripts/lessons.mjs';
import type { LessonAction } from '../lessons/format/lessonSchema';
import type { Script, Step } from './script';

/** The file each start the lessons name is (web/src/app/ownStarts.ts). */
const START_FILES: Readonly<Record<string, string>> = {
  template: 'extension/own/template.ts',
  'note-in-a-variable': 'extension/own/note-in-a-variable.ts',
};

const before = (text: string) => `before ${text}`;

/** One lesson's actions as own-script steps; the page's own choices go to `omitted`. */
function stepsOf(actions: readonly LessonAction[], omitted: string[]): Step[] {
  const steps: Step[] = [];
  const said = new Set<string>();
  for (const action of actions) {
    switch (action.do) {
      case 'line':
        if (action.text.startsWith('/')) steps.push({ command: action.text });
        else {
          steps.push({ mark: before(action.text) }, { say: action.text });
          said.add(action.text);
        }
        break;
      case 'branch-from':
        if (!said.has(action.text)) throw new Error(`"branch-from ${action.text}": no message with that text was said before it`);
        steps.push({ leaf: before(action.text) });
        break;
      case 'reopen':
        steps.push({ reopen: true });
        break;
      case 'new-session':
        steps.push({ newSession: true });
        break;
      case 'own-files':
      case 'own-edit':
      case 'run-own':
        omitted.push(`${action.do}${action.do === 'own-files' ? ` ${action.from}` : ''}: the script runs one version from its start`);
        break;
      default:
        throw new Error(`"${action.do}" has no own-script counterpart yet`);
    }
  }
  return steps;
}

export function ownLessonScripts(): Script[] {
  return LESSONS.filter((lesson) => lesson.own === true).flatMap((lesson) => {
    const actions = [...lesson.setup, ...lesson.steps.flatMap((step) => step.solution)];
    const starts = [...new Set(actions.flatMap((action) => (action.do === 'own-files' ? [action.from] : [])))];
    return starts.map((start): Script => {
      const extension = START_FILES[start];
      if (!extension) throw new Error(`${lesson.id}: no file for the start "${start}"`);
      const omitted: string[] = [];
      const steps = stepsOf(actions, omitted);
      return { name: `lesson-${lesson.id}-${start}`, about: `${lesson.title}: the solution's lines, moves and reopen under ${extension}`, extension, steps, omitted };
    });
  });
}
