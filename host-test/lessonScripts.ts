/**
 * Every lesson's "Do it for me" solution as a differential script: the lesson's setup, then each
 * step's actions in order, in the step vocabulary of script.ts, so the whole solution runs in the
 * worker host and in the real host and the two are compared step by step. The lessons come from
 * lessons/ (markdown), compiled by scripts/lessons.mjs.
 *
 * Every action becomes a step: page-only ones (a panel opened, a filter typed, an answer, the
 * editor's draft) a `pageOnly` step that both hosts trace, with what the panel reads that a host
 * holds too; "Run my version" the lesson step's prepared edits (scripts/break-it-variants.mjs).
 */
import { preparedEdits } from '../scripts/break-it-variants.mjs';
import { LESSONS } from '../scripts/lessons.mjs';
import type { LessonAction } from '../lessons/format/lessonSchema';
import type { Meanwhile, Script, Step } from './script';

/** What the page's buttons send (web/src/app: commandLine MEANWHILE_ITEM, sessionTree.tryOtherRevision, closingQuestion.runTwinTab). */
const MEANWHILE_RESERVE = { id: 'marigold-french', packets: 1 };
const OTHER_REVISION_ACT = { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: '$offBranch' };
const TWIN_COMMAND = '/seeds reserve marigold-french 3';

/**
 * Actions that reach no host: each is still a step (`pageOnly`), traced and compared in both hosts,
 * with what the panel reads that a host holds too.
 */
const PAGE_ONLY: Partial<Record<LessonAction['do'], Pick<Extract<Step, { pageOnly: unknown }>, 'read'>>> = {
  'filter-journal': { read: 'journal' },
  'compare-with-other-branch': { read: 'other-branch' },
  'closing-answer': {},
  answer: {},
  // The editor's draft: nothing runs until "Run my version".
  'apply-edit': {},
};

/** The lessons' revision placeholders in the script's names ("$previous" there is a tool result's). */
function toolArgs(args: Record<string, unknown>): Record<string, unknown> {
  const value = args['expectedRevision'];
  if (value === '$latest') return { ...args, expectedRevision: '$latest' };
  if (value === '$previous') return { ...args, expectedRevision: '$previousResult' };
  return { ...args };
}

let prepared: Map<string, Record<string, string>> | undefined;
const editsOf = () => (prepared ??= preparedEdits());

/** What a page-only action is called in the trace. */
function pageOnlyName(action: LessonAction): string {
  if (action.do === 'apply-edit') return `apply-edit ${action.file}`;
  if ('value' in action) return `${action.do} ${String(action.value)}`;
  if ('text' in action) return `${action.do} ${action.text}`;
  return action.do;
}

/** `stepId`: the lesson step the actions are the solution of (its prepared edits are bundled under that name). */
function translate(actions: readonly LessonAction[], stepId: string): Step[] {
  const steps: Step[] = [];
  for (let index = 0; index < actions.length; index++) {
    const action = actions[index]!;
    const pageOnly = PAGE_ONLY[action.do];
    if (pageOnly) {
      steps.push({ pageOnly: pageOnlyName(action), ...pageOnly });
      continue;
    }
    switch (action.do) {
      case 'line': {
        if (!action.text.startsWith('/')) {
          steps.push({ say: action.text });
          break;
        }
        let meanwhile: Meanwhile | undefined;
        let confirm: boolean | undefined;
        for (let next = actions[index + 1]; next; next = actions[index + 1]) {
          if (next.do === 'meanwhile-reserve') meanwhile = { reserve: MEANWHILE_RESERVE };
          else if (next.do === 'meanwhile-step-back') meanwhile = { move: 'back' };
          else if (next.do === 'confirm' || next.do === 'cancel') confirm = next.do === 'confirm';
          else break;
          index++;
          if (confirm !== undefined) break;
        }
        steps.push({ command: action.text, ...(confirm !== undefined ? { confirm } : {}), ...(meanwhile ? { meanwhile } : {}) });
        break;
      }
      case 'tool': {
        const next = actions[index + 1];
        const approve = next?.do === 'approve' ? true : next?.do === 'deny' ? false : undefined;
        if (approve !== undefined) index++;
        steps.push({ tool: toolArgs(action.args), ...(approve !== undefined ? { approve } : {}) });
        break;
      }
      case 'try-other-revision':
        steps.push({ tool: { ...OTHER_REVISION_ACT } });
        break;
      case 'step-back':
        steps.push({ move: 'back' });
        break;
      case 'branch-before-last-reservation':
        steps.push({ move: 'before-last-reservation' });
        break;
      case 'corrupt-demo':
        steps.push({ corrupt: true });
        break;
      case 'corrupt-then-valid':
        steps.push({ corrupt: 'then-valid' });
        break;
      case 'run-agent':
        steps.push({ agent: action.agent, ...(action.calls !== undefined ? { calls: action.calls } : {}) });
        break;
      case 'continue-agent':
        steps.push({ agentContinue: true });
        break;
      case 'policy':
        steps.push({ policy: action.value });
        break;
      case 'approval-mode':
        steps.push({ approvalMode: action.value });
        break;
      case 'interactive':
        steps.push({ headless: !action.value });
        break;
      case 'reopen':
        steps.push({ reopen: true });
        break;
      case 'new-session':
        steps.push({ newSession: true });
        break;
      case 'twin-tab':
        steps.push({ twinTab: { command: TWIN_COMMAND } });
        break;
      case 'run-edited': {
        const files = editsOf().get(stepId);
        if (!files) throw new Error(`${stepId}: "run-edited" without a prepared edit in the same step`);
        steps.push({ extension: 'edited', variant: stepId, files });
        break;
      }
      case 'shipped-extension':
        steps.push({ extension: 'shipped' });
        break;
      case 'fail-next-write':
        steps.push({ failNextWrite: true });
        break;
      case 'confirm':
      case 'cancel':
      case 'meanwhile-reserve':
      case 'meanwhile-step-back':
      case 'approve':
      case 'deny':
        throw new Error(`a lone "${action.do}" action (it must follow a line or a tool call)`);
      case 'branch-from':
        // A tree row found by its display text is the page's rendering; no lesson uses it.
        throw new Error(`${stepId}: "branch-from" has no real-host counterpart in test:host (a tree row found by its text); give the step another action`);
      default:
        throw new Error(`no translation for the lesson action "${action.do}"`);
    }
  }
  return steps;
}

export interface LessonScript extends Script {
  /** The lesson's step ids (setup first), each of which must come out of the comparison with at least one step. */
  readonly lessonSteps: readonly string[];
}

export function lessonScripts(): LessonScript[] {
  return LESSONS.map((lesson) => {
    const steps: Step[] = [];
    const labels: string[] = [];
    const add = (label: string, actions: readonly LessonAction[]) => {
      for (const step of translate(actions, label)) {
        steps.push(step);
        labels.push(label);
      }
    };
    add('setup', lesson.setup);
    for (const step of lesson.steps) add(step.id, step.solution);
    return { name: `lesson-${lesson.id}`, about: lesson.title, steps, labels, lessonSteps: ['setup', ...lesson.steps.map((step) => step.id)] };
  });
}
