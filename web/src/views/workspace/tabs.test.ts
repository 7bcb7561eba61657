import { describe, expect, it } from 'vitest';
import { tabAfterKey, TOOL_TABS } from './tabs';

describe('the Tools tab list', () => {
  it('offers exactly these tabs, in this order', () => {
    expect(TOOL_TABS.map((tab) => tab.name)).toEqual(['Tool call', 'Refusals', 'Agents', 'Journal', 'Events', 'Statechart', 'Code', 'Sessions']);
  });

  it('moves with the arrows, wrapping at both ends, and jumps with Home and End', () => {
    const last = TOOL_TABS.length - 1;
    expect(tabAfterKey(0, 'ArrowRight')).toBe(1);
    expect(tabAfterKey(last, 'ArrowRight')).toBe(0);
    expect(tabAfterKey(0, 'ArrowLeft')).toBe(last);
    expect(tabAfterKey(3, 'Home')).toBe(0);
    expect(tabAfterKey(3, 'End')).toBe(last);
    expect(tabAfterKey(3, 'Enter')).toBeNull();
  });
});
