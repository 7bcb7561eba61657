/**
 * The Tools region's tabs: ids the code uses and the names people (and tests) see. The panels'
 * code is not imported here: `ToolsTabs.svelte` loads each one the first time its tab opens, so
 * the first screen carries none of it.
 */
export const TOOL_TABS = [
  { id: 'tool', name: 'Tool call' },
  { id: 'refusals', name: 'Refusals' },
  { id: 'agents', name: 'Agents' },
  { id: 'journal', name: 'Journal' },
  { id: 'events', name: 'Events' },
  { id: 'statechart', name: 'Statechart' },
  { id: 'code', name: 'Code' },
  { id: 'sessions', name: 'Sessions' },
] as const;

export type ToolTabId = (typeof TOOL_TABS)[number]['id'];

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
