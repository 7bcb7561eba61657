import 'fake-indexeddb/auto';
/**
 * Whether the real host would have written the session's file yet (`hostFileWritten`), measured
 * against OMP 18.2.3 in host-test: the first session a host process makes stays in memory until
 * its first assistant message; `newSession()` and a fork write the new file at once, and a session
 * opened from a file is on disk already. The fact survives a reopen and a reload.
 */
import { describe, expect, it } from 'vitest';
import { seededIdSource } from '$domain/ids';
import { freshDatabases } from './databases.testkit';
import { PlaygroundHost } from './playgroundHost';

const databases = freshDatabases('host-file-test');
const QUERY = JSON.stringify({ op: 'query' });

/** A reload of the page: a new host on the same database, first from the stored head, then the whole journal. */
async function reloaded(name: string, seed: number): Promise<{ opening: boolean; opened: boolean; host: PlaygroundHost }> {
  const host = await PlaygroundHost.start(await databases.openStore(name), seededIdSource(seed), { fromHead: true });
  const opening = host.view().hostFileWritten;
  await host.finishOpening();
  return { opening, opened: host.view().hostFileWritten, host };
}

describe('hostFileWritten: would the real host have written the session file yet', () => {
  it('the first session is not written until its first assistant message, across a reopen and a reload', async () => {
    const { host, name } = await databases.freshHost(61);
    await host.runLine('a user message');
    expect(host.view().hostFileWritten).toBe(false);
    await host.reopen();
    expect(host.view().hostFileWritten).toBe(false);
    expect(await reloaded(name, 62)).toMatchObject({ opening: false, opened: false });
    await host.callTool(QUERY, false);
    expect(host.view().hostFileWritten).toBe(true);
    expect(await reloaded(name, 63)).toMatchObject({ opening: true, opened: true });
  });

  it('a new session is written at once, and stays so across a reopen, a reload and a switch away and back', async () => {
    const { host, name } = await databases.freshHost(64);
    const first = host.sessionId;
    await host.newSession();
    const second = host.sessionId;
    expect(host.view()).toMatchObject({ entryCount: 0, hostFileWritten: true });
    await host.reopen();
    expect(host.view().hostFileWritten).toBe(true);
    expect(await reloaded(name, 65)).toMatchObject({ opening: true, opened: true });
    await host.switchSession(first);
    expect(host.view().hostFileWritten).toBe(false);
    await host.switchSession(second);
    expect(host.view().hostFileWritten).toBe(true);
  });

  it('a fork of an unwritten session is written at once, and so is an imported one', async () => {
    const { host, name } = await databases.freshHost(66);
    await host.runLine('a user message');
    const exported = host.exportSession();
    await host.forkSession();
    expect(host.view().hostFileWritten).toBe(true);
    expect(await reloaded(name, 67)).toMatchObject({ opening: true, opened: true });

    const other = await databases.freshHost(68);
    expect(other.host.view().hostFileWritten).toBe(false);
    const report = await other.host.importSession(new Blob([exported.jsonl]), () => undefined);
    expect(report).toMatchObject({ ok: true, entries: 1 });
    expect(other.host.view().hostFileWritten).toBe(true);
    expect(await reloaded(other.name, 69)).toMatchObject({ opening: true, opened: true });
  });

  it('a failed write in a new session takes its entry back, not the written file', async () => {
    const { host } = await databases.freshHost(70);
    await host.newSession();
    host.injectFault('abort');
    await host.runLine('a message the store refuses');
    expect(host.view()).toMatchObject({ entryCount: 0, hostFileWritten: true });
    expect(host.view().writeFailure).not.toBeNull();
  });
});
