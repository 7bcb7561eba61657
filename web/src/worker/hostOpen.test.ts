import 'fake-indexeddb/auto';
/**
 * Opening from the stored head (issue 12): the worker answers its first view from the head of the
 * last session and reads the whole journal after. The first view must already be the true one.
 */
import { describe, expect, it } from 'vitest';
import { asRevision, seededIdSource } from '$domain/ids';
import { freshDatabases } from './databases.testkit';
import { PlaygroundHost } from './host';

const databases = freshDatabases('host-open-test');

async function sessionWithHistory() {
  const { host, name } = await databases.freshHost(11);
  await host.runLine('a message before anything');
  const prepared = await host.runLine('/seeds reserve basil-genovese 2');
  if (prepared.kind !== 'confirm') throw new Error('expected a dialog');
  await host.commitHumanChange(prepared.change, asRevision(prepared.revision));
  await host.callTool(JSON.stringify({ op: 'query' }), false);
  return { host, name };
}

describe('opening from the stored head', () => {
  it('the first view equals the view after the whole journal is read; the conversation comes after', async () => {
    const { host, name } = await sessionWithHistory();
    const full = host.view();
    const store = await databases.openStore(name);
    const opening = await PlaygroundHost.start(store, seededIdSource(12), { fromHead: true });
    expect(opening.view()).toEqual({ ...full, notice: null });
    expect(opening.branch()).toEqual([]);
    await opening.finishOpening();
    expect(opening.view()).toEqual({ ...full, notice: null });
    expect(opening.branch().map((item) => item.role)).toEqual(host.branch().map((item) => item.role));
  });

  it('finishing twice reads once, and a browser with no session starts a new one at once', async () => {
    const { name } = await sessionWithHistory();
    const store = await databases.openStore(name);
    const opening = await PlaygroundHost.start(store, seededIdSource(13), { fromHead: true });
    const first = opening.finishOpening();
    expect(opening.finishOpening()).toBe(first);
    await first;
    const empty = await PlaygroundHost.start(await databases.openStore(), seededIdSource(14), { fromHead: true });
    expect(empty.view().entryCount).toBe(0);
    await expect(empty.finishOpening()).resolves.toBeUndefined();
  });
});
