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
  // The Sessions panel sits behind a tab whose chunk loads after the first paint: wait for the tab.
  const tab = page.getByRole('tab', { name: 'Sessions', exact: true });
  await tab.waitFor();
  await tab.click();
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

export interface PageFloor {
  /** `File.arrayBuffer()`: the browser handing the chosen file's bytes to the page. */
  readonly readMs: number;
  /** `TextDecoder.decode` of those bytes. */
  readonly decodeMs: number;
  /** Splitting the text into lines and `JSON.parse` of each, keeping the objects. */
  readonly parseMs: number;
}

/**
 * What Chromium itself costs for a file, before any of the playground's work: its bytes read, decoded
 * and each line parsed, in a file input of the page's own, on the main thread (which does nothing
 * else meanwhile). Nothing is checked, indexed, stored or drawn: no import can be faster than this.
 */
export async function floorInPage(page: Page, appUrl: string, path: string): Promise<PageFloor> {
  await page.goto(appUrl);
  await page.getByRole('table', { name: 'Seed desk' }).waitFor();
  await page.evaluate(`(() => {
    const input = document.createElement('input');
    input.type = 'file';
    input.id = 'bench-floor';
    input.hidden = true;
    document.body.append(input);
    input.addEventListener('change', async () => {
      const file = input.files[0];
      let at = performance.now();
      const lap = () => { const now = performance.now(); const ms = now - at; at = now; return ms; };
      const bytes = await file.arrayBuffer();
      const readMs = lap();
      const text = new TextDecoder().decode(bytes);
      const decodeMs = lap();
      const objects = [];
      for (let start = 0; start < text.length; ) {
        let end = text.indexOf('\\n', start);
        if (end < 0) end = text.length;
        if (end > start) objects.push(JSON.parse(text.slice(start, end)));
        start = end + 1;
      }
      const parseMs = lap();
      window.__floor = { readMs, decodeMs, parseMs, lines: objects.length };
    });
  })()`);
  await page.locator('#bench-floor').setInputFiles(path);
  await page.waitForFunction(() => (window as unknown as { __floor?: unknown }).__floor !== undefined, undefined, { timeout: 300_000, polling: 200 });
  return page.evaluate(() => (window as unknown as { __floor: PageFloor }).__floor);
}
