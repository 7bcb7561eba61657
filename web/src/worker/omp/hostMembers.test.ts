import 'fake-indexeddb/auto';
/**
 * The members issue 37 asks to work as in OMP 18.2.3, each through the worker's whole host
 * (PlaygroundHost on fake-indexeddb): `pi.sendMessage` (the entry OMP's session manager appends,
 * `src/session/agent-session.ts` `#dispatchCustomMessage` and `session-manager.ts`
 * `appendCustomMessageEntry`); active tools (`session-tools.ts` `getAllToolInfos`,
 * `setActiveToolsByName`; a call of a tool outside the active set is `Tool <name> not found`,
 * pi-agent-core `agent-loop.ts` `formatToolNotFoundMessage`).
 */
import { describe, expect, it } from 'vitest';
import { seededIdSource } from '$domain/ids';
import type { ExtensionAPI } from '../../../../extension/ompApi';
import { freshDatabases } from '../databases.testkit';
import { PlaygroundHost } from '../playgroundHost';
import * as toolCalls from '../toolCalls';
import { endAgent, startAgent } from './agentRun';
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
    expect(host.core.agent.run).toBeNull();
    expect(notices(host).some((text) => text.includes('OMP would start a model turn'))).toBe(true);
  });

  it('throws while the factory runs, as OMP’s action methods do', async () => {
    await expect(hostWith((pi) => void loose(pi)['sendMessage']!('too early'), 3)).rejects.toThrow('Action methods cannot be called during extension loading');
  });
});

describe('active tools', () => {
  const executed: string[] = [];
  const twoTools: ExtensionFactory = (pi) => {
    for (const name of ['sow', 'water']) {
      pi.registerTool({ name, label: name, description: `${name} a bed`, parameters: { type: 'object', properties: {} }, approval: 'read', execute: async () => (executed.push(name), { content: [{ type: 'text', text: `${name} done` }], details: null }) });
    }
    pi.registerCommand('only', {
      handler: async (args, ctx) => {
        await loose(pi)['setActiveTools']!(args.split(' '));
        ctx.ui.notify(`active: ${(loose(pi)['getActiveTools']!() as string[]).join(', ')}`);
      },
    });
    pi.registerCommand('all', { handler: async (_args, ctx) => ctx.ui.notify(JSON.stringify(loose(pi)['getAllTools']!())) });
  };

  it('every registered tool is active at first; getAllTools lists each with its schema and source', async () => {
    const { host } = await hostWith(twoTools, 4);
    expect((await host.modelTools()).map((tool) => tool.name)).toEqual(['sow', 'water']);
    const all = JSON.parse((await host.runLine('/all')).text) as unknown[];
    expect(all).toEqual([
      { name: 'sow', description: 'sow a bed', parameters: { type: 'object', properties: {} }, sourceInfo: { path: '<extension:sow>', source: 'extension', scope: 'temporary', origin: 'top-level' } },
      { name: 'water', description: 'water a bed', parameters: { type: 'object', properties: {} }, sourceInfo: { path: '<extension:water>', source: 'extension', scope: 'temporary', origin: 'top-level' } },
    ]);
  });

  it('a tool made inactive is not offered to a model, and a call of it is "not found" without running it; getAllTools still lists it', async () => {
    executed.length = 0;
    const { host } = await hostWith(twoTools, 5);
    // An unknown name is ignored, as OMP ignores names absent from the registry.
    expect((await host.runLine('/only water nope'))).toMatchObject({ text: 'active: water' });
    expect((await host.modelTools()).map((tool) => tool.name)).toEqual(['water']);
    expect(await toolCalls.callTool(host.core, '{}', false, 'sow')).toMatchObject({ kind: 'result', isError: true, text: 'Tool sow not found', stage: 'schema' });
    expect(await toolCalls.callTool(host.core, '{}', false, 'water')).toMatchObject({ kind: 'result', isError: false, text: 'water done' });
    expect(executed).toEqual(['water']);
    expect((JSON.parse((await host.runLine('/all')).text) as { name: string }[]).map((tool) => tool.name)).toEqual(['sow', 'water']);
    await host.runLine('/only sow water');
    expect((await host.modelTools()).map((tool) => tool.name)).toEqual(['sow', 'water']);
  });
});

describe('ctx.ui.editor, setWidget and the Command box’s text', () => {
  const ui: ExtensionFactory = (pi) => {
    pi.registerCommand('edit', {
      handler: async (_args, ctx) => {
        const text = await (ctx.ui as unknown as Loose)['editor']!('Edit the note', 'line one') as string | undefined;
        ctx.ui.notify(text === undefined ? 'cancelled' : `edited: ${JSON.stringify(text)}`);
      },
    });
    pi.registerCommand('widget', {
      handler: async (args, ctx) => {
        const set = (ctx.ui as unknown as Loose)['setWidget']!;
        if (args === 'clear') set('beds', undefined);
        else if (args === 'factory') set('beds', () => ({ render: () => [] }));
        else set('beds', ['Bed 1: beans', 'Bed 2: peas']);
      },
    });
    pi.registerCommand('draft', {
      handler: async (args, ctx) => {
        const box = ctx.ui as unknown as Loose;
        if (args === 'read') ctx.ui.notify(`box: ${JSON.stringify(box['getEditorText']!())}`);
        else if (args === 'paste') box['pasteToEditor']!(' and more');
        else box['setEditorText']!('/note sow the beans');
        if (args !== 'read') ctx.ui.notify(`box: ${JSON.stringify(box['getEditorText']!())}`);
      },
    });
  };

  it('editor asks the page with its title and prefill; the run gets the text as answered, undefined on cancel', async () => {
    const { host } = await hostWith(ui, 6);
    const asked = await host.runLine('/edit');
    expect(asked).toMatchObject({ kind: 'asked', request: { kind: 'editor', title: 'Edit the note', prefill: 'line one' } });
    if (asked.kind !== 'asked') throw new Error('not asked');
    expect(await host.answerUi({ kind: 'editor', id: asked.request.id, text: 'line one\nline two' })).toMatchObject({ text: 'edited: "line one\\nline two"' });
    const again = await host.runLine('/edit');
    if (again.kind !== 'asked') throw new Error('not asked');
    expect(await host.answerUi({ kind: 'editor', id: again.request.id, text: null })).toMatchObject({ text: 'cancelled' });
  });

  it('editor without UI answers undefined at once, as OMP’s no-op UI does', async () => {
    const { host } = await hostWith(ui, 7);
    expect(await host.runLine('/edit', true)).toMatchObject({ text: expect.stringContaining('cancelled') });
  });

  it('setWidget shows lines by key in the view, undefined removes them, a component factory is refused with a sentence', async () => {
    const { host } = await hostWith(ui, 8);
    expect(host.view().widgets).toBeUndefined();
    await host.runLine('/widget');
    expect(host.view().widgets).toEqual([{ key: 'beds', lines: ['Bed 1: beans', 'Bed 2: peas'] }]);
    expect(await host.runLine('/widget factory')).toMatchObject({ kind: 'error', text: expect.stringContaining('the page draws no terminal components, so a component factory cannot be shown') });
    await host.runLine('/widget clear');
    expect(host.view().widgets).toBeUndefined();
  });

  it('setEditorText and pasteToEditor reach the view once each; getEditorText reads what the extension put there, empty again after a line runs', async () => {
    const { host } = await hostWith(ui, 9);
    expect(await host.runLine('/draft')).toMatchObject({ text: 'box: "/note sow the beans"' });
    const set = host.view().editorText;
    expect(set).toEqual({ seq: expect.any(Number), text: '/note sow the beans', paste: false });
    // The line that reads it was typed into the box, which is empty once it is sent.
    expect(await host.runLine('/draft read')).toMatchObject({ text: 'box: ""' });
    expect(await host.runLine('/draft paste')).toMatchObject({ text: 'box: " and more"' });
    // A later number, so the page applies it too.
    expect(host.view().editorText).toEqual({ seq: expect.any(Number), text: ' and more', paste: true });
    expect(host.view().editorText!.seq).toBeGreaterThan(set!.seq);
  });
});

describe('session_branch', () => {
  const watcher = (seen: { type: unknown; keys: string[] }[]): ExtensionFactory => (pi) => {
    for (const name of ['session_switch', 'session_branch'] as const) pi.on(name, (event) => void seen.push({ type: (event as { type: unknown }).type, keys: Object.keys(event as object) }));
  };

  it('a Fork from an entry that is not the leaf (OMP’s /branch) fires session_branch with previousSessionFile, and no session_switch', async () => {
    const seen: { type: unknown; keys: string[] }[] = [];
    const { host } = await hostWith(watcher(seen), 10);
    await host.runLine('first');
    const first = host.core.journal.leafId!;
    await host.runLine('second');
    const before = host.sessionId;
    await host.forkSession(first);
    expect(host.sessionId).not.toBe(before);
    expect(seen).toEqual([{ type: 'session_branch', keys: ['type', 'previousSessionFile'] }]);
  });

  it('a Fork at the leaf (OMP’s /fork) still fires session_switch "fork", and no session_branch', async () => {
    const seen: { type: unknown; keys: string[] }[] = [];
    const { host } = await hostWith(watcher(seen), 11);
    await host.runLine('only');
    await host.forkSession(host.core.journal.leafId);
    expect(seen).toEqual([{ type: 'session_switch', keys: ['type', 'reason'] }]);
  });
});

describe('ctx.model', () => {
  it('undefined until the page asks a real model; then the model it asked, seen from before_agent_start on; a scripted agent’s run leaves it', async () => {
    const seen: unknown[] = [];
    const { host } = await hostWith((pi) => {
      pi.registerCommand('model', { handler: async (_args, ctx) => ctx.ui.notify(JSON.stringify((ctx as unknown as { model: unknown }).model) ?? 'none') });
      (pi.on as (event: string, handler: (event: unknown, ctx: unknown) => void) => void)('before_agent_start', (_event, ctx) => void seen.push((ctx as { model: unknown }).model));
    }, 12);
    expect(await host.runLine('/model')).toMatchObject({ text: 'none' });
    await startAgent(host.core, 'Hello', 'You are helpful.', { provider: 'ollama', id: 'qwen3', api: 'openai-completions' });
    await endAgent(host.core, 'Hi.');
    const qwen = { id: 'qwen3', name: 'qwen3', api: 'openai-completions', provider: 'ollama' };
    expect(seen).toEqual([qwen]);
    expect(JSON.parse((await host.runLine('/model')).text)).toEqual(qwen);
    await startAgent(host.core, 'Reserve basil.', '');
    await endAgent(host.core, 'Done.');
    expect(JSON.parse((await host.runLine('/model')).text)).toEqual(qwen);
  });
});
