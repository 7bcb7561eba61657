import { expect, test } from '@playwright/test';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { openPlayground, openTool } from './support';

/**
 * The take-home extension: downloaded from the Sessions panel of the built page, it must be one
 * self-contained ES module whose default export is the OMP extension factory. The factory is run
 * against a recording stand-in for the host API, so the file is known to register what the
 * lessons teach, not merely to parse.
 */
test('the Sessions panel offers seed-desk.js, an ES module whose default export registers /seeds and seed_desk', async ({ page }) => {
  await openPlayground(page);
  await openTool(page, 'Sessions');
  const sessions = page.getByRole('region', { name: 'Sessions', exact: true });
  const takeHome = sessions.getByRole('region', { name: 'Take it home: the Seed Desk extension for OMP' });
  await expect(takeHome.getByRole('figure', { name: /^Install it in OMP/ })).toContainText('cp ~/Downloads/seed-desk.js ~/.omp/agent/extensions/');

  const downloading = page.waitForEvent('download');
  await takeHome.getByRole('link', { name: 'Download seed-desk.js' }).click();
  const download = await downloading;
  expect(download.suggestedFilename()).toBe('seed-desk.js');

  // .mjs: Node then reads it as an ES module whatever package.json says around it.
  const file = join(mkdtempSync(join(tmpdir(), 'seed-desk-')), 'seed-desk.mjs');
  await download.saveAs(file);
  const source = readFileSync(file, 'utf8');
  expect(source).not.toMatch(/\bimport\s*(\(|[\w{*])/); // self-contained: nothing left to import
  const module = (await import(pathToFileURL(file).href)) as { default?: unknown };
  expect(typeof module.default).toBe('function');

  const registered: { commands: string[]; tools: { name: string; approval: unknown }[]; events: string[] } = { commands: [], tools: [], events: [] };
  const pi = {
    typebox: { Type: { Unsafe: (schema: Record<string, unknown>) => schema } },
    events: { emit: () => {} },
    on: (event: string) => registered.events.push(event),
    registerCommand: (name: string) => registered.commands.push(name),
    registerTool: (tool: { name: string; approval?: unknown }) => registered.tools.push({ name: tool.name, approval: tool.approval }),
    appendEntry: () => {
      throw new Error('no append while loading');
    },
  };
  (module.default as (api: typeof pi) => void)(pi);
  expect(registered.commands).toEqual(['seeds']);
  expect(registered.tools).toEqual([{ name: 'seed_desk', approval: 'write' }]);
  expect(registered.events).toEqual(expect.arrayContaining(['session_start', 'session_tree']));
});
