/**
 * An import as the user sees it, timed in the page: from the file being chosen (the input's change
 * event) to "Imported N entries" shown in the Import report, with the progress bar sampled every
 * frame meanwhile. Reads only the page's accessible names, so it does not depend on how the page
 * and the worker talk.
 */
import type { Page } from 'playwright';

export interface PageImport {
  readonly ms: number;
  /** Distinct progress readings ("<phase>… value/max") while the import ran, in order. */
  readonly progress: readonly string[];
}

export async function importInPage(page: Page, appUrl: string, path: string, entries: number): Promise<PageImport> {
  await page.goto(appUrl);
  await page.getByRole('table', { name: 'Seed desk' }).waitFor();
  const input = page.getByLabel('Import session');
  // The Sessions panel may sit behind a tab that loads it on first open.
  const tab = page.getByRole('tab', { name: 'Sessions', exact: true });
  if ((await input.count()) === 0 && (await tab.count()) > 0) await tab.click();
  await input.waitFor({ state: 'attached' });
  // A string, not a function: tsx's name-keeping helper does not exist inside the page.
  await page.evaluate(`(() => {
    const state = { start: 0, end: 0, progress: [] };
    window.__import = state;
    document.addEventListener('change', (event) => {
      if (event.target instanceof HTMLInputElement && event.target.type === 'file') state.start = performance.now();
    }, true);
    const wanted = 'Imported ${entries} entries';
    const sample = () => {
      const bar = document.querySelector('progress[aria-label="Import progress"]');
      if (bar) {
        const reading = (bar.parentElement?.textContent ?? '').trim() + ' ' + bar.value + '/' + bar.max;
        if (state.progress.at(-1) !== reading) state.progress.push(reading);
      }
      const report = document.querySelector('[role="region"][aria-label="Import report"]');
      if (state.start > 0 && report && report.textContent.includes(wanted)) {
        state.end = performance.now();
        return;
      }
      requestAnimationFrame(sample);
    };
    requestAnimationFrame(sample);
  })()`);
  await input.setInputFiles(path);
  await page.waitForFunction(() => (window as unknown as { __import: { end: number } }).__import.end > 0, undefined, { timeout: 300_000, polling: 200 });
  const state = await page.evaluate(() => (window as unknown as { __import: { start: number; end: number; progress: string[] } }).__import);
  return { ms: state.end - state.start, progress: state.progress };
}
