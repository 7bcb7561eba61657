/**
 * Every lesson's "Do it for me" solution as a differential script: the lesson's setup, then each
 * step's actions in order, in the step vocabulary of script.ts, so the whole solution runs in the
 * worker host and in the real host and the two are compared step by step. The lessons come from
 * lessons/ (markdown), compiled by scripts/lessons.mjs.
 *
 * Page-only actions (a panel opened, a filter typed, the closing answer) have no host effect and
 * become no step. An action the real host cannot be driven to do is left out, with the reason,
 * in the script's `omitted` list (and in host-test/CONTEXT.md).
 */
import { LESSONS } from '../scripts/lessons.mjs';
import type { LessonAction } from '../web/src/lessons/schema';
import type { Meanwhile, Script, Step } from './script';

/** What the page's buttons send (web/src/app: commandLine MEANWHILE_ITEM, sessionTree.tryOtherRevision, closingQuestion.runTwinTab). */
const MEANWHILE_RESERVE = { id: 'marigold-french', packets: 1 };
const OTHER_REVISION_ACT = { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: '$offBranch' };
const TWIN_COMMAND = '/seeds reserve marigold-french 3';

/** Actions that only drive a page panel: nothing reaches the host. */
const PAGE_ONLY: Partial<Record<LessonAction['do'], string>> = {
  'filter-journal': 'the Journal panel filter (reads the file, changes nothing)',
  'compare-with-other-branch': 'the Compare panel (reads two branches, changes nothing)',
  'closing-answer': "the closing question's answer (page state only)",
  answer: "a step's own Yes/No question (page state only)",
};

/**
 * Actions the real host cannot be driven to do from outside; the whole lesson step is left out,
 * since what follows in it depends on the action.
 */
const NOT_IN_REAL_HOST: Partial<Record<LessonAction['do'], string>> = {
  'fail-next-write':
    "the playground's fault injection fails its next IndexedDB transaction; the real host's session writer (FileSessionStorage, and nothing is written before the first assistant message) has no switch to fail its next append from outside",
  'branch-from': "a tree row found by its display text is the page's tree rendering; the real host's /tree selector has no such lookup",
  'apply-edit':
    'the real host loads an extension from a file when a session starts; the "break it" check loads this very prepared edit, bundled as a file (scripts/break-it-variants.mjs), into the real OMP and compares it with the page',
  'run-edited': 'see apply-edit: an edited extension reaches the real host as a file, checked by the "break it" check',
  'shipped-extension': 'see apply-edit: the real host runs the shipped file unless given another',
};

/** The lessons' revision placeholders in the script's names ("$previous" there is a tool result's). */
function toolArgs(args: Record<string, unknown>): Record<string, unknown> {
  const value = args['expectedRevision'];
  if (value === '$latest') return { ...args, expectedRevision: '$latest' };
  if (value === '$previous') return { ...args, expectedRevision: '$previousResult' };
  return { ...args };
}

interface Translated {
  readonly steps: Step[];
  readonly skipped: string[];
  readonly omitted: string | null;
}

function translate(actions: readonly LessonAction[]): Translated {
  const steps: Step[] = [];
  const skipped: string[] = [];
  for (let index = 0; index < actions.length; index++) {
    const action = actions[index]!;
    const blocked = NOT_IN_REAL_HOST[action.do];
    if (blocked) return { steps: [], skipped, omitted: `"${action.do}": ${blocked}` };
    const pageOnly = PAGE_ONLY[action.do];
    if (pageOnly) {
      skipped.push(`"${action.do}" (${pageOnly})`);
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
      case 'confirm':
      case 'cancel':
      case 'meanwhile-reserve':
      case 'meanwhile-step-back':
      case 'approve':
      case 'deny':
        throw new Error(`a lone "${action.do}" action (it must follow a line or a tool call)`);
      default:
        throw new Error(`no translation for the lesson action "${action.do}"`);
    }
  }
  return { steps, skipped, omitted: null };
}

export interface LessonScript extends Script {
  /** Page-only actions that became no step. */
  readonly pageOnly: readonly string[];
}

export function lessonScripts(): LessonScript[] {
  return LESSONS.map((lesson) => {
    const steps: Step[] = [];
    const labels: string[] = [];
    const omitted: string[] = [];
    const pageOnly: string[] = [];
    const add = (label: string, actions: readonly LessonAction[]) => {
      const translated = translate(actions);
      pageOnly.push(...translated.skipped.map((what) => `${label}: ${what}`));
      if (translated.omitted) {
        omitted.push(`${label} (the whole step): ${translated.omitted}`);
        return;
      }
      for (const step of translated.steps) {
        steps.push(step);
        labels.push(label);
      }
    };
    add('setup', lesson.setup);
    for (const step of lesson.steps) add(step.id, step.solution);
    return { name: `lesson-${lesson.id}`, about: lesson.title, steps, labels, omitted, pageOnly };
  });
}
