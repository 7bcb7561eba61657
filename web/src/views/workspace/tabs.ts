/**
 * The Tools region's tabs: ids the code uses and the names people (and tests) see. The panels'
 * code is not imported here: `ToolsTabs.svelte` loads each one the first time its tab opens, so
 * the first screen carries none of it.
 */
import { TOOL_TAB_IDS, type ToolTabId } from '../../../../lessons/format/workspaceNames';

export type { ToolTabId };

const TOOL_TAB_NAMES: Readonly<Record<ToolTabId, string>> = {
  tool: 'Tool call',
  refusals: 'Refusals',
  agents: 'Agents',
  journal: 'Journal',
  events: 'Events',
  statechart: 'Statechart',
  code: 'Code',
  sessions: 'Sessions',
};

/** The tabs' ids and visible names, in order. */
export const TOOL_TABS = TOOL_TAB_IDS.map((id) => ({ id, name: TOOL_TAB_NAMES[id] }));

/**
 * Where a key press moves the focus in the tab list (WAI-ARIA tabs pattern: arrows wrap around,
 * Home and End jump to the ends). `null` for any other key.
 */
export function tabAfterKey(current: number, key: string, count: number = TOOL_TABS.length): number | null {
  if (count <= 0) return null;
  switch (key) {
    case 'ArrowRight':
      return (current + 1) % count;
    case 'ArrowLeft':
      return (current - 1 + count) % count;
    case 'Home':
      return 0;
    case 'End':
      return count - 1;
    default:
      return null;
  }
}
