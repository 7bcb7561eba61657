import { expect, type Locator, type Page } from '@playwright/test';
import { openTool as openAnyTool } from '../support';

/**
 * What the demos read and press in the workspace, by role and accessible name: the lesson panel,
 * the Command line and its output, the Tools tabs, the Active branch and the Session tree.
 */

export const TOOL_TAB_NAMES = ['Tool call', 'Refusals', 'Agents', 'Journal', 'Events', 'Statechart', 'Code', 'Sessions'] as const;
export type ToolTabName = (typeof TOOL_TAB_NAMES)[number];

/** The text a ticked checkpoint shows (TutorialPanel.svelte). */
export const CHECKPOINT_REACHED = '✓ Checkpoint reached.';

export function checkpoint(page: Page): Locator {
  return page.getByRole('status', { name: 'Checkpoint' });
}

/** Opens the page at a lesson step and waits until the desk and the tools are on screen. */
export async function openWorkspace(page: Page, hash = ''): Promise<void> {
  await page.goto(`/${hash}`);
  await expect(page.getByRole('table', { name: 'Seed desk' })).toBeVisible();
  // The tools load right after the first paint: the tab list, or (a page without tabs) the tool panel itself.
  await expect(page.getByRole('tablist', { name: 'Tools' }).or(page.getByRole('heading', { name: 'Tool call: seed_desk' })).first()).toBeVisible();
}

/** Opens a Tools tab before its controls are used: support.ts's `openTool`, for the tab names the demos know. */
export const openTool = (page: Page, name: ToolTabName): Promise<void> => openAnyTool(page, name);

/** Lines in the Command output, without the "Nothing yet" placeholder of an empty output. */
export function outputLines(page: Page): Locator {
  return page
    .getByRole('list', { name: 'Command output' })
    .getByRole('listitem')
    .filter({ hasNotText: /Nothing yet\. Try/ });
}

/** The confirmation dialog (the approval dialog has no Confirm button). */
export function confirmationDialog(page: Page): Locator {
  return page.getByRole('dialog').filter({ has: page.getByRole('button', { name: 'Confirm', exact: true }) });
}

export function approvalDialog(page: Page): Locator {
  return page.getByRole('dialog', { name: 'Host approval: seed_desk' });
}

/** "Session <id>, N entries" in the Session controls. */
function sessionLine(page: Page): Locator {
  return page.getByRole('region', { name: 'Session controls' }).getByText(/^Session \S+, \d+ entr(y|ies)$/);
}

/** The session's entry count as the Session controls show it: every tool call appends to it. */
export async function entryCount(page: Page): Promise<number> {
  const text = (await sessionLine(page).textContent()) ?? '';
  const match = /(\d+) entr(?:y|ies)$/.exec(text.trim());
  if (!match) throw new Error(`No entry count in "${text}"`);
  return Number(match[1]);
}

export async function sessionId(page: Page): Promise<string> {
  const text = (await sessionLine(page).textContent()) ?? '';
  return /^Session (\S+),/.exec(text.trim())?.[1] ?? '';
}

export interface BranchItem {
  readonly id: string;
  readonly seedDesk: boolean;
}

/**
 * The Active branch, root to leaf, as the desk lists it: each item starts with its entry id,
 * then its kind ("seed desk" for a state entry). Consecutive items are parent and child.
 */
export async function activeBranch(page: Page): Promise<BranchItem[]> {
  const texts = await page.getByRole('list', { name: 'Active branch' }).getByRole('listitem').allTextContents();
  return texts
    .map((text) => /^\s*(\S+)\s+(.*)$/s.exec(text))
    .filter((match): match is RegExpExecArray => match !== null && !/^The branch is empty/.test(match[0].trim()))
    .map((match) => ({ id: match[1] ?? '', seedDesk: (match[2] ?? '').startsWith('seed desk') }));
}

/** The leaf: the Active branch's current item, or null when the leaf is at the start of the session. */
export async function activeLeafId(page: Page): Promise<string | null> {
  const current = page.getByRole('list', { name: 'Active branch' }).locator('[aria-current="true"]');
  if ((await current.count()) === 0) return null;
  const text = (await current.textContent()) ?? '';
  return /^\s*(\S+)/.exec(text)?.[1] ?? null;
}

export function sessionTree(page: Page): Locator {
  return page.getByRole('tree', { name: 'Session tree' });
}

export function treeItems(page: Page): Locator {
  return sessionTree(page).getByRole('treeitem');
}

/** A node by its entry id (both the tree and the graph carry it as data-id). */
export function treeItem(page: Page, id: string): Locator {
  return treeItems(page).and(page.locator(`[data-id="${id}"]`));
}

/**
 * Clicks a node to select it. Near its left edge: in the graph the selected node's action bar
 * floats over the right end of the next row, and would take a click at a row's centre.
 */
export async function selectNode(page: Page, id: string): Promise<void> {
  const node = treeItem(page, id);
  await node.click({ position: { x: 4, y: 4 } });
  await expect(node).toHaveAttribute('aria-selected', 'true');
}

/** Whether a node is drawn as the given kind ("seed desk", "user", …): its kind tag says so. */
export async function showsKind(item: Locator, kind: string): Promise<boolean> {
  return (await item.getByText(kind, { exact: true }).count()) > 0;
}

/** The entry id of the node marked "← leaf", or null when none is. */
async function treeLeafId(page: Page): Promise<string | null> {
  const leaf = treeItems(page).filter({ hasText: '← leaf' });
  if ((await leaf.count()) !== 1) return null;
  return leaf.getAttribute('data-id');
}

/**
 * The tree is refreshed after the desk: waits until its leaf mark sits where the Active branch
 * ends, so what the demo reads from the tree belongs to the branch the desk shows.
 */
export async function expectTreeCurrent(page: Page): Promise<void> {
  await expect
    .poll(async () => {
      const leaf = await activeLeafId(page);
      return leaf === null ? (await treeItems(page).filter({ hasText: '← leaf' }).count()) === 0 : (await treeLeafId(page)) === leaf;
    }, { message: 'the Session tree marks the leaf the Active branch ends on' })
    .toBe(true);
}
