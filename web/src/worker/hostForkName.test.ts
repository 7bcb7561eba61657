import 'fake-indexeddb/auto';
/**
 * A fork records its parent the host's way: the parent's session file name, which is exactly the
 * name the parent's export gets (one helper, `sessionFileName`, names both).
 */
import { describe, expect, it } from 'vitest';
import { freshDatabases } from './databases.testkit';

const databases = freshDatabases('host-fork-name');

describe('PlaygroundHost.forkSession', () => {
  it("records the parent's export file name as parentSession, and the export reads it back", async () => {
    const { host } = await databases.freshHost(21);
    await host.runLine('hello');
    const parentId = host.sessionId;
    const { fileName } = host.exportSession();
    expect(fileName).toMatch(new RegExp(`^\\d{4}-\\d{2}-\\d{2}T\\d{2}-\\d{2}-\\d{2}-\\d{3}Z_${parentId}\\.jsonl$`));

    await host.forkSession();
    expect(host.sessionId).not.toBe(parentId);
    const forked = (await host.listSessions()).find((session) => session.current);
    expect(forked?.parentSession).toBe(fileName);
    const header = JSON.parse(host.exportSession().jsonl.split('\n')[0] ?? '{}') as Record<string, unknown>;
    expect(Object.keys(header)).toEqual(['type', 'version', 'id', 'timestamp', 'cwd', 'parentSession']);
    expect(header['parentSession']).toBe(fileName);
  });
});
