import { expect, test } from '@playwright/test';

// A first visit as it is, the service worker's registration and precache included (playwright.config.ts blocks it elsewhere).
test.use({ serviceWorkers: 'allow' });

/**
 * Issue 38: a step address loads what its step needs to be read and used first (its text, the
 * Command box, the desk); a Code tab the step opens fills in after. The desk's chunk is held back
 * by the test, so the order is the page's, not the network's: while the desk cannot be drawn,
 * nothing of the Code tab may be fetched, though the step has already chosen that tab.
 */
test('a step address that opens the Code tab fetches its code only after the desk is drawn', async ({ page }) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  let deskReleased = false;
  let release: () => void = () => undefined;
  const held = new Promise<void>((resolve) => (release = resolve));
  // Route handlers run in the order the page's requests arrive: each notes whether the desk was let through yet.
  await page.route(/\/assets\/DeskRegion-[\w-]+\.js$/, async (route) => {
    await held;
    deskReleased = true;
    await route.continue();
  });
  const codeRequests: boolean[] = [];
  await page.route(/\/assets\/(CodeTab|_virtual_extension-source)-[\w-]+\.js$/, async (route) => {
    codeRequests.push(deskReleased);
    await route.continue();
  });

  await page.goto('/#/lesson/5/step/3');
  // The step is there and has chosen the Code tab; the desk is not drawn yet.
  await expect(page.getByRole('heading', { name: /^Step 3: Step back before the reservation/ })).toBeVisible();
  await expect(page.getByRole('tab', { name: 'Code', exact: true })).toHaveAttribute('aria-selected', 'true');
  await expect(page.getByRole('tabpanel', { name: 'Code', exact: true }).getByRole('status').filter({ hasText: 'Loading Code…' })).toBeVisible();
  await expect(page.getByRole('table', { name: 'Seed desk' })).toHaveCount(0);
  expect(codeRequests, 'the Code tab fetched its chunks before the desk could be drawn').toEqual([]);

  release();
  await expect(page.getByRole('table', { name: 'Seed desk' })).toBeVisible();
  await expect(page.getByRole('textbox', { name: 'Command' })).toBeEditable();
  // Then the Code tab fills in, at the step's region.
  await expect(page.getByRole('tabpanel', { name: 'Code', exact: true }).getByRole('group', { name: /^Region read-desk-branch/ })).toBeVisible();
  expect(codeRequests.length).toBeGreaterThan(0);
  expect(codeRequests.every((afterDesk) => afterDesk)).toBe(true);
});
