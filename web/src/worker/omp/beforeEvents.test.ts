import 'fake-indexeddb/auto';
/**
 * The session events that may stop a change, as OMP 18.2.3 fires them (agent-session.ts: New and
 * /fork and a switch fire `session_before_switch` with reason "new", "fork", "resume"; /branch
 * from an entry fires `session_before_branch`; /tree fires `session_before_tree`): the event's
 * fields, `{ cancel: true }` leaving the session as it was with one sentence from the page, and
 * the change going on when no handler cancels.
 */
import { describe, expect, it } from 'vitest';
import { seededIdSource } from '$domain/ids';
import type { ExtensionAPI } from '../../../../extension/ompApi';
import { freshDatabases } from '../databases.testkit';
import { PlaygroundHost } from '../playgroundHost';
import type { ExtensionFactory } from './extensionRuntime';

const databases = freshDatabases('before-events-test');

type AnyOn = (event: string, handler: (event: Record<string, unknown>) => unknown) => void;
const onOf = (pi: ExtensionAPI): AnyOn => pi.on as unknown as AnyOn;

/** Records every before-event and the after-events; cancels the ones `cancel` names. */
function guard(cancel: readonly string[]) {
  const seen: Record<string, unknown>[] = [];
  const extension: ExtensionFactory = (pi) => {
    pi.registerCommand('note', { handler: async (args) => pi.appendEntry('note', { text: args }) });
    for (const name of ['session_before_switch', 'session_before_branch', 'session_before_tree', 'session_switch', 'session_tree']) {
      onOf(pi)(name, (event) => {
        seen.push({ ...event, ...(event.signal ? { signal: 'signal' } : {}) });
        return name.includes('before') && cancel.some((what) => what === name || what === `${name}:${String(event.reason)}`) ? { cancel: true } : undefined;
      });
    }
  };
  return { seen, extension };
}

async function hostWith(extension: ExtensionFactory, seed: number) {
  const store = await databases.openStore();
  const host = await PlaygroundHost.start(store, seededIdSource(seed), { extension });
  await host.runLine('/note one');
  await host.runLine('/note two');
  return host;
}

describe('session_before_switch', () => {
  it.each([
    ['New', 'new', (host: PlaygroundHost) => host.newSession(), 'the new session'],
    ['Fork at the leaf', 'fork', (host: PlaygroundHost) => host.forkSession(), 'the fork'],
  ] as const)('%s: fired with reason "%s"; `{ cancel: true }` keeps the session and says so', async (_label, reason, act, action) => {
    const { seen, extension } = guard([`session_before_switch:${reason}`]);
    const host = await hostWith(extension, 20 + reason.length);
    const before = host.sessionId;
    const leaf = host.core.journal.leafId;
    await act(host);
    expect(seen).toEqual([{ type: 'session_before_switch', reason }]);
    expect(host.sessionId).toBe(before);
    expect(host.core.journal.leafId).toBe(leaf);
    const sentence = `The extension cancelled ${action}: its session_before_switch handler returned { cancel: true }, so nothing changed.`;
    expect(host.view().notice).toBe(sentence);
    expect(host.events().some((item) => item.kind === 'notification' && item.text === sentence)).toBe(true);
  });

  it('Switch: reason "resume"; without a cancel the switch happens and session_switch follows', async () => {
    const { seen, extension } = guard([]);
    const host = await hostWith(extension, 30);
    const first = host.sessionId;
    await host.newSession();
    await host.switchSession(first);
    expect(host.sessionId).toBe(first);
    expect(seen.map((event) => `${String(event.type)}:${String(event.reason)}`)).toEqual(['session_before_switch:new', 'session_switch:new', 'session_before_switch:resume', 'session_switch:resume']);
  });

  it('a cancelled switch stays in the session it was in', async () => {
    const { extension } = guard(['session_before_switch:resume']);
    const host = await hostWith(extension, 31);
    const first = host.sessionId;
    await host.forkSession();
    const fork = host.sessionId;
    await host.switchSession(first);
    expect(host.sessionId).toBe(fork);
  });
});

describe('session_before_branch and session_before_tree', () => {
  it('a fork from an entry that is not the leaf is OMP’s /branch: session_before_branch with its entryId, and a cancel stops it', async () => {
    const { seen, extension } = guard(['session_before_branch']);
    const host = await hostWith(extension, 40);
    const first = host.core.journal.branch(host.core.journal.leafId)[0]!.id;
    const before = host.sessionId;
    await host.forkSession(first);
    expect(seen).toEqual([{ type: 'session_before_branch', entryId: first }]);
    expect(host.sessionId).toBe(before);
  });

  it('a move in the tree: session_before_tree with the preparation; a cancel leaves the leaf, and no session_tree follows', async () => {
    const { seen, extension } = guard(['session_before_tree']);
    const host = await hostWith(extension, 41);
    const [first, second] = host.core.journal.branch(host.core.journal.leafId);
    await host.navigate(first!.id);
    expect(host.core.journal.leafId).toBe(second!.id);
    expect(seen).toEqual([
      { type: 'session_before_tree', preparation: { targetId: first!.id, oldLeafId: second!.id, commonAncestorId: first!.id, entriesToSummarize: [second], userWantsSummary: false }, signal: 'signal' },
    ]);
  });

  it('a move nobody cancels is made, then session_tree', async () => {
    const { seen, extension } = guard([]);
    const host = await hostWith(extension, 42);
    const [first, second] = host.core.journal.branch(host.core.journal.leafId);
    await host.navigate(first!.id);
    expect(host.core.journal.leafId).toBe(first!.id);
    expect(seen.map((event) => event.type)).toEqual(['session_before_tree', 'session_tree']);
    expect(seen[1]).toEqual({ type: 'session_tree', newLeafId: first!.id, oldLeafId: second!.id });
  });
});
