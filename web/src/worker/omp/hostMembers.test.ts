import 'fake-indexeddb/auto';
/**
 * The members issue 37 asks to work as in OMP 18.2.3, each through the worker's whole host
 * (PlaygroundHost on fake-indexeddb): `pi.sendMessage` (the entry OMP's session manager appends,
 * `src/session/agent-session.ts` `#dispatchCustomMessage` and `session-manager.ts`
 * `appendCustomMessageEntry`).
 */
import { describe, expect, it } from 'vitest';
import { seededIdSource } from '$domain/ids';
import type { ExtensionAPI } from '../../../../extension/ompApi';
import { freshDatabases } from '../databases.testkit';
import { PlaygroundHost } from '../playgroundHost';
import type { ExtensionFactory } from './extensionRuntime';

const databases = freshDatabases('host-members-test');

type Loose = Record<string, (...args: unknown[]) => unknown>;
const loose = (pi: ExtensionAPI): Loose => pi as unknown as Loose;

async function hostWith(factory: ExtensionFactory, seed = 1) {
  const store = await databases.openStore();
  return { host: await PlaygroundHost.start(store, seededIdSource(seed), { extension: factory }), store };
}

const notices = (host: PlaygroundHost) => host.events().flatMap((item) => (item.kind === 'notification' ? [item.text] : []));

describe('pi.sendMessage', () => {
  const sender: ExtensionFactory = (pi) => {
    pi.registerCommand('say', {
      handler: async (args) => {
        if (args === 'text') loose(pi)['sendMessage']!('plain words');
        else if (args === 'turn') loose(pi)['sendMessage']!('go on', { triggerTurn: true });
        else loose(pi)['sendMessage']!({ customType: 'my-note', content: [{ type: 'text', text: 'a block' }], details: { n: 1 }, attribution: 'user', display: 'yes' });
      },
    });
  };

  it('appends a custom_message under the leaf, normalized as OMP normalizes it, in IndexedDB before the answer', async () => {
    const { host, store } = await hostWith(sender);
    await host.runLine('/say text');
    const first = host.core.journal.get(host.core.journal.leafId!);
    expect(first).toMatchObject({ type: 'custom_message', customType: 'custom-message', content: 'plain words', display: true, attribution: 'agent', parentId: null });
    expect(first).not.toHaveProperty('details');
    await host.runLine('/say object');
    const second = host.core.journal.get(host.core.journal.leafId!);
    // `display` that is not a boolean is false; details kept; attribution "user" only when it says so.
    expect(second).toMatchObject({ type: 'custom_message', customType: 'my-note', content: [{ type: 'text', text: 'a block' }], display: false, details: { n: 1 }, attribution: 'user', parentId: first?.id });
    const stored = await store.loadJournalEntries(host.sessionId);
    expect(stored.find((entry) => entry.id === second?.id)).toEqual(second);
  });

  it('starts no turn where OMP would, and says so in the events panel', async () => {
    const { host } = await hostWith(sender, 2);
    await host.runLine('/say turn');
    expect(host.core.journal.get(host.core.journal.leafId!)).toMatchObject({ type: 'custom_message', content: 'go on' });
    expect(host.core.agentRun).toBeNull();
    expect(notices(host).some((text) => text.includes('OMP would start a model turn'))).toBe(true);
  });

  it('throws while the factory runs, as OMP’s action methods do', async () => {
    await expect(hostWith((pi) => void loose(pi)['sendMessage']!('too early'), 3)).rejects.toThrow('Action methods cannot be called during extension loading');
  });
});
