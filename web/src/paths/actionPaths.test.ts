import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { Playground } from '../app/playground.svelte';
import { inProcessWorker } from './inProcessWorker.testkit';
import { filesRunBy } from './tracePath.testkit';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url)).replace(/\/$/, '');

describe('the two paths web/CONTEXT.md follows', () => {
  it('Enter → answer', async () => {
    const worker = await inProcessWorker();
    const playground = new Playground(() => worker);
    await playground.start();
    await playground.command.runLine('/seeds query');
    const files = await filesRunBy(() => playground.command.runLine('/seeds query'), ROOT);
    console.log(files.join('\n'));
    expect(files.length).toBeGreaterThan(0);
  });
});
