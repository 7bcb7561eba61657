/**
 * The names a lesson may use for places on the page: regions, Tools tabs, controls to outline,
 * and named checks. Declared once here, where both the page (which gives each name its meaning
 * and is typed to cover every one) and the lesson compiler (which refuses a name not listed) read
 * them: the compiler imports no page code.
 */

/** The workspace's four regions, in the order the narrow layout's switcher offers them. */
export const REGION_IDS = ['lesson', 'desk', 'tree', 'tools'] as const;
export type RegionId = (typeof REGION_IDS)[number];

/** The Tools tabs, in the order the tab list shows them. */
export const TOOL_TAB_IDS = ['tool', 'refusals', 'agents', 'journal', 'events', 'statechart', 'code', 'sessions'] as const;
export type ToolTabId = (typeof TOOL_TAB_IDS)[number];

/** The controls a step may outline (the page says where each is: `web/src/views/workspace/controls.ts`). */
export const CONTROL_IDS = [
  'command',
  'desk-table',
  'status-line',
  'active-branch',
  'interactive',
  'reopen',
  'fault-injection',
  'tool-args',
  'call-tool',
  'latest-revision',
  'approval-policy',
  'approval-mode',
  'tool-result',
  'journal-filter',
  'host-file',
  'event-log',
  'corrupt-demo',
  'new-session',
  'closing-question',
  'step-question',
  'agent-run',
  'corrupt-then-valid',
] as const;
export type ControlId = (typeof CONTROL_IDS)[number];

/** Every name a step may outline: a control, or a whole region. */
export const OUTLINE_NAMES: readonly string[] = [...CONTROL_IDS, ...REGION_IDS];

/** The named checks a goal may call (the checker implements each: `web/src/tutorial/namedChecks.ts`). */
export const CHECK_NAMES = ['combined-exceeds-stock'] as const;
export type CheckName = (typeof CHECK_NAMES)[number];
