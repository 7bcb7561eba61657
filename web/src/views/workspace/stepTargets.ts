import { REGION_NAMES, type RegionId } from './layout';
import { TOOL_TABS, type ToolTabId } from './tabs';

/**
 * What each lesson step points at in the workspace: the Tools tab it needs open, and the controls
 * or regions to outline while the step is current. Keyed by lesson step id (`lessons/lessons.ts`);
 * a unit test keeps the two in step.
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
} as const satisfies Record<string, Control>;

export type ControlId = keyof typeof CONTROLS;

/** A thing to outline: a control, or a whole region. */
export type Highlight = ControlId | RegionId;

export interface StepSpot {
  /** The Tools tab the step opens when it becomes current. */
  readonly tab?: ToolTabId;
  readonly highlight: readonly Highlight[];
  /**
   * The named region of the extension's source the step is about (`// #region <name>` in
   * extension/ or domain/; a unit test checks the name against the regions the Code tab ships).
   * Arriving at the step puts the Code tab on that region, outlined; a step with no `tab` of its
   * own opens the Code tab too, while a step whose controls live in another tab keeps that tab
   * open and offers the code one click away ("Show the code" beside the step).
   */
  readonly code?: { readonly region: string };
}

export const STEP_SPOTS: Readonly<Record<string, StepSpot>> = {
  // 1. A reservation you confirm
  'query-desk': { highlight: ['command'] },
  'cancel-before-commit': { highlight: ['command'] },
  'confirm-reservation': { highlight: ['command', 'desk-table'] },
  'race-refused': { highlight: ['command'], code: { region: 're-read-after-dialog' } },
  'basil-exercise': { highlight: ['tree', 'command'] },
  // 2. Let the agent act, within limits
  'act-before-grant': { tab: 'tool', highlight: ['tool-args'], code: { region: 'grant-check' } },
  'grant-agent': { highlight: ['command', 'status-line'] },
  'tool-discover': { tab: 'tool', highlight: ['call-tool'] },
  'tool-query-inspect': { tab: 'tool', highlight: ['tool-args'] },
  'careful-act': { tab: 'tool', highlight: ['latest-revision'] },
  'stale-reuse': { tab: 'tool', highlight: ['tool-args'] },
  'tool-refusals': { tab: 'tool', highlight: ['tool-args'], code: { region: 'refusals-as-values' } },
  'excess-release': { tab: 'tool', highlight: ['tool-args', 'command'] },
  // 3. The desk follows your branch
  'journal-filter': { tab: 'journal', highlight: ['journal-filter'] },
  'reopen-survives': { highlight: ['command', 'reopen'] },
  'plain-move-not-kept': { highlight: ['tree', 'reopen'] },
  'rewind-before-reservation': { highlight: ['tree'], code: { region: 'read-desk-branch' } },
  'sibling-reservation': { highlight: ['command'] },
  'written-branch-kept': { highlight: ['reopen'] },
  'sibling-token-refused': { highlight: ['tree'] },
  'corrupt-branch': { tab: 'refusals', highlight: ['corrupt-demo', 'command'], code: { region: 'validate-every-snapshot' } },
  'fresh-session': { tab: 'sessions', highlight: ['new-session', 'command'] },
  // 4. Taking permission back, and running without a screen
  'revoke-agent': { highlight: ['command', 'status-line'] },
  'act-after-revoke': { tab: 'tool', highlight: ['tool-args'] },
  'headless-ui-required': { highlight: ['interactive', 'command'] },
  'headless-reopen-grant': { highlight: ['interactive', 'reopen'] },
  'headless-revoke-refused': { highlight: ['command'] },
  'headless-tool-allow': { tab: 'tool', highlight: ['interactive', 'approval-mode'], code: { region: 'tool-approval' } },
  'headless-prompt-fails-closed': { tab: 'tool', highlight: ['approval-mode'] },
  'mode-vs-grant': { tab: 'tool', highlight: ['interactive', 'approval-mode'] },
  // 5. What a change does and does not promise
  'cancel-changes-nothing': { highlight: ['command'] },
  'query-after-commit': { highlight: ['command'] },
  'persistence-gate': { tab: 'journal', highlight: ['host-file'] },
  'events-start-nothing': { tab: 'events', highlight: ['status-line', 'event-log'] },
  'append-no-receipt': { highlight: ['active-branch'], code: { region: 'single-append' } },
  'render-result-presentation': { tab: 'tool', highlight: ['tool-args', 'tool-result'] },
  'gates-spare-other-code': { tab: 'tool', highlight: ['approval-policy'] },
  'storage-failure-latch': { highlight: ['fault-injection', 'reopen'] },
  // 6. Two tabs, one question
  'reserve-all-marigolds': { highlight: ['command'] },
  'other-tab-reserves': { highlight: ['tree'] },
  'compare-overbooked': { highlight: ['tree'] },
  'closing-answer': { highlight: ['closing-question'] },
};

export function spotFor(stepId: string): StepSpot | null {
  return STEP_SPOTS[stepId] ?? null;
}

/** The Tools tab a step opens on arrival: its own, else the Code tab when it points at code, else none (the open tab stays). */
export function tabForSpot(spot: StepSpot | null): ToolTabId | null {
  return spot?.tab ?? (spot?.code ? 'code' : null);
}

export function isControl(value: string): value is ControlId {
  return Object.hasOwn(CONTROLS, value);
}

/** Whether the lesson region shows the closing question at this step. */
export function asksClosingQuestion(stepId: string): boolean {
  return spotFor(stepId)?.highlight.includes('closing-question') ?? false;
}

/** "Where: …" for the lesson text: the tab, then what to look at, in the step's order; null when the step points nowhere. */
export function describeStep(stepId: string): string | null {
  const spot = spotFor(stepId);
  return spot ? describeSpot(spot) : null;
}

export function describeSpot(spot: StepSpot): string {
  const tab = spot.tab ? TOOL_TABS.find((candidate) => candidate.id === spot.tab) : undefined;
  const things = spot.highlight.map((item) => (isControl(item) ? CONTROLS[item].label : `the ${REGION_NAMES[item]}`));
  const where = things.join(' and ');
  return tab ? `the ${tab.name} tab (Tools): ${where}` : where;
}
