import type { LessonStep } from '../../../../lessons/format/lessonSchema';
import type { ControlId, RegionId, ToolTabId } from '../../../../lessons/format/workspaceNames';
import { REGION_NAMES } from './layout';
import { TOOL_TABS } from './tabs';

/**
 * The names a lesson step may outline (its `outline:` in `lessons/…/NN-step.md`), and how the
 * page finds each one. What a step points at is the step's own data; this is what those names
 * mean on the page. The lesson compiler checks every step's `outline`, `tab` and `code` against
 * these lists and the Code tab's regions, so a typo fails the build.
 */

export interface Control {
  /** What the lesson calls it: shown beside the step ("Where: …"). */
  readonly label: string;
  readonly region: RegionId;
  /** The Tools tab it lives in, when it lives in one. */
  readonly tab?: ToolTabId;
  /**
   * How to find it inside its region (or tab panel): the first element matching `selector` whose
   * accessible label or collapsed text equals `text` (any match when `text` is absent). These
   * follow the views' own markup, so the e2e suite checks a few of them on the real page.
   */
  readonly selector: string;
  readonly text?: string;
}

export const CONTROLS = {
  command: { label: 'the Command line', region: 'desk', selector: 'label', text: 'Command' },
  'desk-table': { label: 'the desk table', region: 'desk', selector: 'table' },
  'status-line': { label: 'the status line', region: 'desk', selector: '[aria-label="Status line"]' },
  'active-branch': { label: 'Active branch', region: 'desk', selector: '[aria-label="Active branch"]' },
  interactive: { label: '"Interactive UI"', region: 'desk', selector: 'label', text: 'Interactive UI' },
  reopen: { label: '"Reopen session"', region: 'desk', selector: 'button', text: 'Reopen session' },
  'fault-injection': { label: '"Fault injection"', region: 'desk', selector: 'summary', text: 'Fault injection' },
  'tool-args': { label: 'Tool arguments', region: 'tools', tab: 'tool', selector: 'label', text: 'Tool arguments' },
  'call-tool': { label: '"Call seed_desk"', region: 'tools', tab: 'tool', selector: 'button', text: 'Call seed_desk' },
  'latest-revision': { label: '"Use latest revision"', region: 'tools', tab: 'tool', selector: 'button', text: 'Use latest revision' },
  'approval-policy': { label: '"Host approval for seed_desk"', region: 'tools', tab: 'tool', selector: 'select' },
  'approval-mode': { label: '"Approval mode"', region: 'tools', tab: 'tool', selector: '[aria-labelledby="approval-mode-legend"]' },
  'tool-result': { label: 'the tool result', region: 'tools', tab: 'tool', selector: '.tool-result' },
  'journal-filter': { label: '"Filter journal"', region: 'tools', tab: 'journal', selector: 'label', text: 'Filter journal' },
  'host-file': { label: 'the "Host file" note', region: 'tools', tab: 'journal', selector: '[aria-label="Host file"]' },
  'event-log': { label: 'the Event log', region: 'tools', tab: 'events', selector: '[aria-label="Event log"]' },
  'corrupt-demo': { label: '"Try it: corrupt-state"', region: 'tools', tab: 'refusals', selector: 'button', text: 'Try it: corrupt-state' },
  'new-session': { label: '"New session"', region: 'tools', tab: 'sessions', selector: 'button', text: 'New session' },
  'closing-question': { label: 'the closing question', region: 'lesson', selector: '[aria-labelledby="closing-heading"]' },
  'step-question': { label: 'the question below the step', region: 'lesson', selector: '[aria-labelledby="step-question-heading"]' },
  'agent-run': { label: 'the scripted agent\'s Step and "Run to end"', region: 'tools', tab: 'agents', selector: '[aria-labelledby="agents-heading"]' },
  'corrupt-then-valid': { label: '"Try it: a valid snapshot after a broken one"', region: 'tools', tab: 'refusals', selector: 'button', text: 'Try it: a valid snapshot after a broken one' },
} as const satisfies Record<ControlId, Control>;

export type { ControlId };

/** What a step points at in the workspace: its part of the step's data. */
export type StepSpot = Pick<LessonStep, 'tab' | 'outline' | 'code'>;

export function isControl(value: string): value is ControlId {
  return Object.hasOwn(CONTROLS, value);
}

/** The Tools tab a step opens on arrival: its own, else the Code tab when it points at code, else none (the open tab stays). */
export function tabForSpot(spot: StepSpot | null): ToolTabId | null {
  const own = TOOL_TABS.find((tab) => tab.id === spot?.tab)?.id;
  return own ?? (spot?.code ? 'code' : null);
}

/** Whether the lesson region shows the closing question at this step. */
export function asksClosingQuestion(spot: StepSpot | null): boolean {
  return spot?.outline.includes('closing-question') ?? false;
}

/** "Where: …" for the lesson text: the tab, then what to look at, in the step's order; null when the step points nowhere. */
export function describeSpot(spot: StepSpot | null): string | null {
  if (!spot || spot.outline.length === 0) return null;
  const tab = TOOL_TABS.find((candidate) => candidate.id === spot.tab);
  const things = spot.outline.map((item) => (isControl(item) ? CONTROLS[item].label : `the ${REGION_NAMES[item as RegionId] ?? item}`));
  const where = things.join(' and ');
  return tab ? `the ${tab.name} tab (Tools): ${where}` : where;
}
