import 'fake-indexeddb/auto';
/**
 * The worker's OMP extension runtime against what OMP 18.2.3 was measured to do (probed on
 * 2026-12-04; `npm run test:host` checks the same in the real host): action methods during loading, `pi.events`, a command or a tool that throws, a headless
 * `ctx.ui.confirm`, `select` and `input` (and with a UI: answered by id, under the command that
 * asked), the session events, and a dialog answered after the session changed. Tiny
 * inline extensions stand in where the seed desk extension never does the thing measured; the
 * seed desk extension itself is used where it does. Hosts run over fake-indexeddb.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { asEntryId, asSessionId, seededIdSource } from '$domain/ids';
import { sessionHeader } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import type { ExtensionAPI, ExtensionContext } from '../../../../extension/ompApi';
import { isConfirmAsked } from '../../protocol/messages';
import { freshDatabases } from '../databases.testkit';
import { PlaygroundHost } from '../playgroundHost';
import * as toolCalls from '../toolCalls';
import type { EventBus } from './eventBus';
import { ExtensionRuntime, type ExtensionFactory, type HostServices } from './extensionRuntime';
import { PageUi } from './pageUi';
import type { Notice } from './extensionRuntime';
import { AgentFacts } from './agentFacts';

const databases = freshDatabases('extension-runtime-test');
const NOT_INITIALIZED = 'Extension runtime not initialized. Action methods cannot be called during extension loading.';

afterEach(() => {
  vi.restoreAllMocks();
});

/** A host around the runtime that only records what the runtime asks of it. */
function recordingHost(hasUI = true) {
  const journal = SessionJournal.empty(sessionHeader(asSessionId('5e55e55e-0000-4000-8000-000000000001'), '2026-05-01T12:00:00.000Z', '/test'));
  const appended: [string, unknown][] = [];
  const emitted: [string, unknown][] = [];
  const notices: Notice[] = [];
  const statuses = new Map<string, string | undefined>();
  const services: HostServices = {
    currentJournal: () => journal,
    appendCustom: (customType, data) => void appended.push([customType, data]),
    appendCustomMessage: () => undefined,
    pageUi: new PageUi(),
    agent: new AgentFacts(),
    hasUI: () => hasUI,
    setStatus: (key, text) => void statuses.set(key, text),
    notified: (notice) => void notices.push(notice),
    emitted: (channel, data) => void emitted.push([channel, data]),
  };
  return { services, appended, emitted, notices, statuses };
}

/** `pi.events` is the host's bus; the extension's declared API only names `emit`. */
const busOf = (pi: ExtensionAPI): EventBus => pi.events as unknown as EventBus;

/** What every run of an inline extension here reports besides its end: the host's loaded extension ran, and the journal holds no seed desk entry. */
const NO_DESK_ENTRIES = { by: 'shipped', deskEntries: { before: 0, after: 0 } } as const;

async function hostWith(extension: ExtensionFactory, seed = 1) {
  const store = await databases.openStore();
  const host = await PlaygroundHost.start(store, seededIdSource(seed), { extension });
  return { host, store };
}

describe('loading: action methods throw while the factory runs', () => {
  it.each([
    ['a synchronous factory', (pi: ExtensionAPI) => pi.appendEntry('probe', { n: 1 })],
    [
      'an async factory, after an await',
      async (pi: ExtensionAPI) => {
        await Promise.resolve();
        pi.appendEntry('probe', { n: 1 });
      },
    ],
  ] as const)('%s: appendEntry throws the host’s text, the load fails, and nothing is appended', async (_label, factory) => {
    const host = recordingHost();
    await expect(ExtensionRuntime.load(factory, host.services)).rejects.toThrow(NOT_INITIALIZED);
    expect(host.appended).toEqual([]);
  });

  it('an inline factory that throws so makes the host’s start fail, as createAgentSession rejects', async () => {
    const store = await databases.openStore();
    await expect(PlaygroundHost.start(store, seededIdSource(2), { extension: (pi) => pi.appendEntry('probe') })).rejects.toThrow(NOT_INITIALIZED);
  });

  it('registrations are not action methods; after loading, appendEntry reaches the host', async () => {
    const host = recordingHost();
    let api: ExtensionAPI | null = null;
    let caught: unknown = null;
    const runtime = await ExtensionRuntime.load((pi) => {
      api = pi;
      try {
        pi.appendEntry('probe');
      } catch (error) {
        caught = error;
      }
      pi.registerCommand('probe', { handler: async () => undefined });
      pi.on('session_start', () => undefined);
      busOf(pi).on('probe:channel', () => undefined);
      pi.events.emit('probe:loaded', { during: 'load' });
    }, host.services);
    expect(caught).toBeInstanceOf(Error);
    expect((caught as Error).message).toBe(NOT_INITIALIZED);
    expect([...runtime.commands.keys()]).toEqual(['probe']);
    expect(host.emitted).toEqual([['probe:loaded', { during: 'load' }]]);
    api!.appendEntry('probe', { n: 2 });
    expect(host.appended).toEqual([['probe', { n: 2 }]]);
  });
});

describe('pi.events: the host’s event bus', () => {
  async function bus() {
    const host = recordingHost();
    let events: EventBus | null = null;
    await ExtensionRuntime.load((pi) => {
      events = busOf(pi);
    }, host.services);
    return { events: events!, host };
  }

  it('on returns an unsubscribe function; after it, nothing is delivered', async () => {
    const { events } = await bus();
    const got: unknown[] = [];
    const off = events.on('c', (data) => void got.push(data));
    expect(typeof off).toBe('function');
    events.emit('c', 1);
    off();
    events.emit('c', 2);
    expect(got).toEqual([1]);
  });

  it('emit is synchronous up to each handler’s first await, and returns nothing', async () => {
    const { events } = await bus();
    const order: string[] = [];
    events.on('c', (data) => void order.push(`sync handler got ${JSON.stringify(data)}`));
    events.on('c', async () => {
      order.push('async handler before await');
      await Promise.resolve();
      order.push('async handler after await');
    });
    const returned = events.emit('c', { n: 1 }) as unknown;
    order.push('emit returned');
    expect(returned).toBeUndefined();
    expect(order).toEqual(['sync handler got {"n":1}', 'async handler before await', 'emit returned']);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(order.at(-1)).toBe('async handler after await');
  });

  it('a handler that throws (or rejects) never reaches the emitter; the next handlers still get the data; the error is logged', async () => {
    const { events } = await bus();
    const logged = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const got: unknown[] = [];
    events.on('c', () => {
      throw new Error('sync boom');
    });
    events.on('c', async () => {
      throw new Error('async boom');
    });
    events.on('c', (data) => void got.push(data));
    expect(() => events.emit('c', 'x')).not.toThrow();
    expect(got).toEqual(['x']);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(logged).toHaveBeenCalledTimes(2);
    expect(logged.mock.calls.map((call) => String(call[0]))).toEqual(['Event handler error (c):', 'Event handler error (c):']);
  });

  it('the same function registered twice is delivered twice', async () => {
    const { events } = await bus();
    const got: unknown[] = [];
    const handler = (data: unknown) => void got.push(data);
    events.on('c', handler);
    events.on('c', handler);
    events.emit('c', 1);
    expect(got).toEqual([1, 1]);
  });

  it('the host sees every emit (the Events panel), whether or not anyone listens', async () => {
    const { events, host } = await bus();
    events.emit('nobody:listens', { a: 1 });
    events.on('c', () => {
      throw new Error('ignored');
    });
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    events.emit('c', [2]);
    expect(host.emitted).toEqual([
      ['nobody:listens', { a: 1 }],
      ['c', [2]],
    ]);
  });
});

describe('a command handler', () => {
  const commands: ExtensionFactory = (pi) => {
    pi.registerCommand('boom', {
      handler: async () => {
        throw new Error('kaboom from command');
      },
    });
    pi.registerCommand('boomstr', {
      handler: async () => {
        throw 'plain string thrown';
      },
    });
    pi.registerCommand('speakthenboom', {
      handler: async (_args, ctx) => {
        ctx.ui.notify('about to fail', 'warning');
        throw new Error('after speaking');
      },
    });
    pi.registerCommand('echo', {
      handler: async (args, ctx) => {
        ctx.ui.notify(`args=${JSON.stringify(args)}`);
        return { handled: false, value: args };
      },
    });
  };

  it('that throws: the host’s extension error text, and nothing is appended', async () => {
    const { host, store } = await hostWith(commands);
    expect(await host.runLine('/boom')).toEqual({ kind: 'error', text: 'Extension "command:boom" error: kaboom from command', ...NO_DESK_ENTRIES });
    expect(await host.runLine('/boom with args')).toEqual({ kind: 'error', text: 'Extension "command:boom" error: kaboom from command', ...NO_DESK_ENTRIES });
    expect(host.view().entryCount).toBe(0);
    expect(await store.countEntries(host.sessionId)).toBe(0);
  });

  it('that throws a string: the string is the message', async () => {
    const { host } = await hostWith(commands);
    expect(await host.runLine('/boomstr')).toEqual({ kind: 'error', text: 'Extension "command:boomstr" error: plain string thrown', ...NO_DESK_ENTRIES });
    expect(host.view().entryCount).toBe(0);
  });

  it('that notified before throwing: what it said, then the error', async () => {
    const { host } = await hostWith(commands);
    expect(await host.runLine('/speakthenboom')).toEqual({ kind: 'error', text: 'about to fail\nExtension "command:speakthenboom" error: after speaking', ...NO_DESK_ENTRIES });
    expect(host.events()).toEqual([expect.objectContaining({ kind: 'notification', level: 'warning', text: 'about to fail' })]);
  });

  it('gets the raw text after the first space, not trimmed at its start; what it returns that the page does not know is a notice', async () => {
    const { host } = await hostWith(commands);
    expect(await host.runLine('/echo  a b')).toEqual({ kind: 'notice', text: 'args=" a b"', ...NO_DESK_ENTRIES });
    expect(await host.runLine('/echo')).toEqual({ kind: 'notice', text: 'args=""', ...NO_DESK_ENTRIES });
    expect(host.view().entryCount).toBe(0);
  });

  it('a command no extension registered is a user message, and the answer names what is registered', async () => {
    const { host } = await hostWith(commands);
    const said = await host.runLine('/nothere x');
    expect(said.kind === 'said' && said.text).toMatch(/^No extension registered \/nothere \(the loaded ones registered \/boom, \/boomstr, \/speakthenboom, \/echo\)/);
    expect(host.branch()).toEqual([expect.objectContaining({ role: 'user', text: '/nothere x' })]);
  });
});

describe('a tool whose execute throws', () => {
  const thrower: ExtensionFactory = (pi) => {
    pi.registerTool({
      name: 'thrower',
      label: 'Thrower',
      description: 'Always fails.',
      parameters: pi.typebox.Type.Unsafe({ type: 'object', properties: {}, additionalProperties: false }),
      approval: 'read',
      async execute() {
        throw new Error('tool exploded');
      },
    });
    pi.registerTool({
      name: 'thrower_str',
      label: 'Thrower',
      description: 'Always fails with a string.',
      parameters: pi.typebox.Type.Unsafe({ type: 'object' }),
      approval: 'read',
      async execute() {
        throw 'string exploded';
      },
    });
  };

  it.each([
    ['thrower', 'tool exploded'],
    ['thrower_str', 'string exploded'],
  ])('%s: an error result whose text is the bare message, recorded with empty details', async (name, message) => {
    const { host } = await hostWith(thrower);
    const outcome = await toolCalls.callTool(host.core, '{}', false, name);
    expect(outcome).toMatchObject({ kind: 'result', stage: 'domain', isError: true, text: message, details: null });
    const [call, result] = host.currentJournal().entries();
    expect(call).toMatchObject({ type: 'message', message: { role: 'assistant', content: [{ type: 'toolCall', name, arguments: {} }] } });
    expect(result).toMatchObject({ type: 'message', parentId: call!.id, message: { role: 'toolResult', toolName: name, isError: true, content: [{ type: 'text', text: message }], details: {} } });
  });

  it('a tool no extension registered: the host’s not-found error result', async () => {
    const { host } = await hostWith(thrower);
    expect(await toolCalls.callTool(host.core, '{}', false, 'missing_tool')).toMatchObject({ kind: 'result', stage: 'schema', isError: true, text: 'Tool missing_tool not found' });
  });
});

describe('ctx.ui.confirm', () => {
  const asking: ExtensionFactory = (pi) => {
    pi.registerCommand('ask', {
      handler: async (_args, ctx) => {
        const confirmed = await ctx.ui.confirm('Proceed?', 'It will do nothing.');
        ctx.ui.notify(`confirmed=${confirmed} hasUI=${ctx.hasUI}`);
        return confirmed;
      },
    });
  };

  it('headless (interactive=false): resolves false at once, without a dialog', async () => {
    const { host } = await hostWith(asking);
    host.setInteractive(false);
    const outcome = await host.runLine('/ask');
    expect(outcome.kind).toBe('notice');
    expect(outcome.kind === 'notice' && outcome.text).toContain('confirmed=false hasUI=false');
    expect(host.core.waiting.size).toBe(0);
  });

  it('one headless line does the same, and the host keeps its UI', async () => {
    const { host } = await hostWith(asking);
    const outcome = await host.runLine('/ask', true);
    expect(outcome.kind === 'notice' && outcome.text).toContain('confirmed=false hasUI=false');
    expect(host.core.waiting.size).toBe(0);
    expect(host.view().interactive).toBe(true);
  });

  it('with a UI: the run stops at a dialog the page answers by id, and goes on from its await', async () => {
    const { host } = await hostWith(asking);
    const dialog = await host.runLine('/ask');
    expect(dialog).toEqual({
      kind: 'asked',
      request: { kind: 'confirm', id: expect.any(String), title: 'Proceed?', message: 'It will do nothing.' },
      text: '',
      revision: `${host.sessionId}:root`,
      ...NO_DESK_ENTRIES,
    });
    expect(host.core.waiting.size).toBe(1);
    if (!isConfirmAsked(dialog)) throw new Error(`expected a confirm, got ${JSON.stringify(dialog)}`);
    expect(host.core.waiting.has(dialog.request.id)).toBe(true);
    expect(await host.answerUi({ kind: 'confirm', id: dialog.request.id, confirmed: true })).toEqual({ kind: 'notice', text: 'confirmed=true hasUI=true', ...NO_DESK_ENTRIES });
    expect(host.core.waiting.size).toBe(0);
  });

  it('two dialogs open at once are answered independently, by id', async () => {
    const { host } = await hostWith(asking);
    const first = await host.runLine('/ask');
    const second = await host.runLine('/ask');
    if (!isConfirmAsked(first) || !isConfirmAsked(second)) throw new Error('expected two dialogs');
    expect(first.request.id).not.toBe(second.request.id);
    expect(await host.answerUi({ kind: 'confirm', id: second.request.id, confirmed: false })).toEqual({ kind: 'notice', text: 'confirmed=false hasUI=true', ...NO_DESK_ENTRIES });
    expect(await host.answerUi({ kind: 'confirm', id: first.request.id, confirmed: true })).toEqual({ kind: 'notice', text: 'confirmed=true hasUI=true', ...NO_DESK_ENTRIES });
  });
});

describe('ctx.ui.select and ctx.ui.input', () => {
  /** How the extension's await resolved: undefined stays distinguishable from the text "undefined". */
  const shown = (value: string | undefined) => (value === undefined ? 'undefined' : JSON.stringify(value));
  const choosing: ExtensionFactory = (pi) => {
    pi.registerCommand('pick', {
      handler: async (_args, ctx) => {
        const choice = await ctx.ui.select('Which seed?', ['basil', 'bean', 'marigold']);
        ctx.ui.notify(`choice=${shown(choice)}`);
      },
    });
    pi.registerCommand('name', {
      handler: async (_args, ctx) => {
        const typed = await ctx.ui.input('Name the bed', 'e.g. south bed');
        ctx.ui.notify(`typed=${shown(typed)}`);
      },
    });
    pi.registerCommand('bare', {
      handler: async (_args, ctx) => {
        ctx.ui.notify(`typed=${shown(await ctx.ui.input('Anything?'))}`);
      },
    });
  };

  it('select: the run stops at a select request the page answers by id; the await resolves to the chosen option', async () => {
    const { host } = await hostWith(choosing);
    const asked = await host.runLine('/pick');
    expect(asked).toEqual({
      kind: 'asked',
      request: { kind: 'select', id: expect.any(String), title: 'Which seed?', options: ['basil', 'bean', 'marigold'] },
      text: '',
      revision: `${host.sessionId}:root`,
      ...NO_DESK_ENTRIES,
    });
    if (asked.kind !== 'asked') throw new Error('expected a request');
    expect([...host.core.waiting.keys()]).toEqual([asked.request.id]);
    expect(host.core.waiting.has(asked.request.id)).toBe(true);
    expect(await host.answerUi({ kind: 'select', id: asked.request.id, choice: 'bean' })).toEqual({ kind: 'notice', text: 'choice="bean"', ...NO_DESK_ENTRIES });
    expect(host.core.waiting.size).toBe(0);
  });

  it('select cancelled (choice null): the await resolves to undefined', async () => {
    const { host } = await hostWith(choosing);
    const asked = await host.runLine('/pick');
    if (asked.kind !== 'asked') throw new Error('expected a request');
    expect(await host.answerUi({ kind: 'select', id: asked.request.id, choice: null })).toEqual({ kind: 'notice', text: 'choice=undefined', ...NO_DESK_ENTRIES });
    expect(host.core.waiting.size).toBe(0);
  });

  it('input: the run stops at an input request with its placeholder; the await resolves to the typed text, an empty text included', async () => {
    const { host } = await hostWith(choosing);
    const asked = await host.runLine('/name');
    expect(asked).toEqual({
      kind: 'asked',
      request: { kind: 'input', id: expect.any(String), title: 'Name the bed', placeholder: 'e.g. south bed' },
      text: '',
      revision: `${host.sessionId}:root`,
      ...NO_DESK_ENTRIES,
    });
    if (asked.kind !== 'asked') throw new Error('expected a request');
    expect(host.core.waiting.has(asked.request.id)).toBe(true);
    expect(await host.answerUi({ kind: 'input', id: asked.request.id, text: 'north bed' })).toEqual({ kind: 'notice', text: 'typed="north bed"', ...NO_DESK_ENTRIES });
    expect(host.core.waiting.size).toBe(0);
    // An empty text is what was typed, not a cancel.
    const again = await host.runLine('/name');
    if (again.kind !== 'asked') throw new Error('expected a request');
    expect(await host.answerUi({ kind: 'input', id: again.request.id, text: '' })).toEqual({ kind: 'notice', text: 'typed=""', ...NO_DESK_ENTRIES });
  });

  it('input cancelled (text null): the await resolves to undefined; without a placeholder the request carries null', async () => {
    const { host } = await hostWith(choosing);
    const asked = await host.runLine('/bare');
    expect(asked).toMatchObject({ kind: 'asked', request: { kind: 'input', title: 'Anything?', placeholder: null } });
    if (asked.kind !== 'asked') throw new Error('expected a request');
    expect(await host.answerUi({ kind: 'input', id: asked.request.id, text: null })).toEqual({ kind: 'notice', text: 'typed=undefined', ...NO_DESK_ENTRIES });
    expect(host.core.waiting.size).toBe(0);
  });

  it('headless (interactive=false): select and input resolve undefined at once, and nothing waits', async () => {
    const { host } = await hostWith(choosing);
    host.setInteractive(false);
    const notShown = '(not shown: a host without UI drops notifications) ';
    expect(await host.runLine('/pick')).toEqual({ kind: 'notice', text: `${notShown}choice=undefined`, ...NO_DESK_ENTRIES });
    expect(await host.runLine('/name')).toEqual({ kind: 'notice', text: `${notShown}typed=undefined`, ...NO_DESK_ENTRIES });
    expect(host.core.waiting.size).toBe(0);
  });

  it('one headless line does the same, and the next line with a UI asks again', async () => {
    const { host } = await hostWith(choosing);
    expect(await host.runLine('/pick', true)).toMatchObject({ kind: 'notice', text: expect.stringContaining('choice=undefined') });
    expect(host.core.waiting.size).toBe(0);
    expect(await host.runLine('/pick')).toMatchObject({ kind: 'asked', request: { kind: 'select' } });
    expect(host.core.waiting.size).toBe(1);
  });

  it('an answer of another kind than the open request is refused (usage, not a failed write), and the run keeps waiting for the right one', async () => {
    const { host } = await hostWith(choosing);
    const pick = await host.runLine('/pick');
    const name = await host.runLine('/name');
    if (pick.kind !== 'asked' || name.kind !== 'asked') throw new Error('expected two requests');
    expect(await host.answerUi({ kind: 'confirm', id: pick.request.id, confirmed: true })).toEqual({
      kind: 'usage',
      text: 'That answer is for a confirmation, but the extension asked for a choice: nothing was changed.',
      ...NO_DESK_ENTRIES,
    });
    expect(await host.answerUi({ kind: 'select', id: name.request.id, choice: 'basil' })).toMatchObject({ kind: 'usage', text: expect.stringContaining('nothing was changed') });
    expect(await host.answerUi({ kind: 'input', id: pick.request.id, text: 'basil' })).toMatchObject({ kind: 'usage' });
    // Both runs still wait, each on its own request; nothing they would say was said.
    expect([...host.core.waiting.keys()].sort()).toEqual([pick.request.id, name.request.id].sort());
    expect(host.events()).toEqual([]);
    expect(await host.answerUi({ kind: 'select', id: pick.request.id, choice: 'marigold' })).toEqual({ kind: 'notice', text: 'choice="marigold"', ...NO_DESK_ENTRIES });
    expect(await host.answerUi({ kind: 'input', id: name.request.id, text: 'west bed' })).toEqual({ kind: 'notice', text: 'typed="west bed"', ...NO_DESK_ENTRIES });
    expect(host.core.waiting.size).toBe(0);
  });
});

describe('an answer reports under the command that asked', () => {
  const guarded: ExtensionFactory = (pi) => {
    for (const name of ['prune', 'water']) {
      pi.registerCommand(name, {
        handler: async (_args, ctx) => {
          const confirmed = await ctx.ui.confirm(`${name}?`, `It will ${name} the bed.`);
          throw new Error(`${name} ${confirmed ? 'confirmed' : 'cancelled'}, then failed`);
        },
      });
    }
  };

  it('an extension error after the answer names that command, not /seeds, for each of two runs answered out of order', async () => {
    const { host } = await hostWith(guarded);
    const prune = await host.runLine('/prune');
    const water = await host.runLine('/water now');
    if (!isConfirmAsked(prune) || !isConfirmAsked(water)) throw new Error('expected two confirmations');
    expect(host.core.waiting.has(prune.request.id)).toBe(true);
    expect(host.core.waiting.has(water.request.id)).toBe(true);
    expect(await host.answerUi({ kind: 'confirm', id: water.request.id, confirmed: false })).toEqual({
      kind: 'error',
      text: 'Extension "command:water" error: water cancelled, then failed',
      ...NO_DESK_ENTRIES,
    });
    expect(await host.answerUi({ kind: 'confirm', id: prune.request.id, confirmed: true })).toEqual({
      kind: 'error',
      text: 'Extension "command:prune" error: prune confirmed, then failed',
      ...NO_DESK_ENTRIES,
    });
    expect(host.core.waiting.size).toBe(0);
  });
});

describe('a dialog answered after the session changed (the seed desk extension)', () => {
  it('is judged on the session in front now: a stale-revision refusal, and neither session gets an entry', async () => {
    const store = await databases.openStore();
    const host = await PlaygroundHost.start(store, seededIdSource(31));
    const first = host.sessionId;
    const dialog = await host.runLine('/seeds reserve basil-genovese 2');
    if (!isConfirmAsked(dialog)) throw new Error(`expected a dialog, got ${JSON.stringify(dialog)}`);
    expect(dialog.request.message).toContain(`Decided on revision ${first}:root.`);
    await host.newSession();
    expect(host.sessionId).not.toBe(first);
    const outcome = await host.answerUi({ kind: 'confirm', id: dialog.request.id, confirmed: true });
    expect(outcome).toMatchObject({ kind: 'refused', code: 'stale-revision', change: { kind: 'reservation', action: 'reserve', id: 'basil-genovese', packets: 2 } });
    expect(outcome.kind === 'refused' && outcome.text).toContain(`${host.sessionId}:root`);
    expect(host.view().entryCount).toBe(0);
    expect(await store.countEntries(host.sessionId)).toBe(0);
    expect(await store.countEntries(first)).toBe(0);
  });

  it('the same after a fork: a new identity, so a new revision, so stale', async () => {
    const store = await databases.openStore();
    const host = await PlaygroundHost.start(store, seededIdSource(32));
    await host.runLine('something to fork');
    const dialog = await host.runLine('/seeds agent on');
    if (!isConfirmAsked(dialog)) throw new Error(`expected a dialog, got ${JSON.stringify(dialog)}`);
    await host.forkSession();
    const outcome = await host.answerUi({ kind: 'confirm', id: dialog.request.id, confirmed: true });
    expect(outcome).toMatchObject({ kind: 'refused', code: 'stale-revision', change: { kind: 'grant', enabled: true } });
    expect(host.view().agentEnabled).toBe(false);
    expect(host.view().entryCount).toBe(1);
  });
});

describe('session events to the extension', () => {
  function recorder() {
    const seen: { event: string; payload: Record<string, unknown>; sessionId: string; leafIds: string[] }[] = [];
    const factory: ExtensionFactory = (pi) => {
      for (const event of ['session_start', 'session_switch', 'session_branch', 'session_tree'] as const) {
        pi.on(event, (payload: unknown, ctx: ExtensionContext) => {
          seen.push({ event, payload: payload as Record<string, unknown>, sessionId: ctx.sessionManager.getSessionId(), leafIds: ctx.sessionManager.getBranch().map((entry) => entry.id) });
        });
      }
    };
    return { seen, factory };
  }

  it('session_start on start; session_switch with reason new, resume, fork; session_start again on reopen', async () => {
    const { seen, factory } = recorder();
    const { host } = await hostWith(factory, 41);
    const first = host.sessionId;
    expect(seen).toEqual([{ event: 'session_start', payload: expect.objectContaining({ type: 'session_start' }), sessionId: first, leafIds: [] }]);
    await host.runLine('hello');
    await host.newSession();
    const second = host.sessionId;
    await host.switchSession(first);
    await host.forkSession();
    const fork = host.sessionId;
    await host.reopen();
    expect(seen.slice(1).map(({ event, payload, sessionId }) => [event, payload['type'], payload['reason'], sessionId])).toEqual([
      ['session_switch', 'session_switch', 'new', second],
      ['session_switch', 'session_switch', 'resume', first],
      ['session_switch', 'session_switch', 'fork', fork],
      ['session_start', 'session_start', undefined, fork],
    ]);
    // The handler reads the session it was told about: the fork holds the path to 'hello'.
    expect(seen.at(-2)?.leafIds).toHaveLength(1);
  });

  it('an import is a switch with reason resume', async () => {
    const { seen, factory } = recorder();
    const { host } = await hostWith(factory, 42);
    await host.runLine('exported');
    const { jsonl } = host.exportSession();
    const other = (await hostWith(factory, 43)).host;
    seen.length = 0;
    const report = await other.importSession(new Blob([jsonl.replace(host.sessionId, '5e55e55e-0000-4000-8000-00000000abcd')]), () => undefined);
    expect(report.ok).toBe(true);
    expect(seen.map(({ event, payload }) => [event, payload['reason']])).toEqual([['session_switch', 'resume']]);
  });

  it('session_tree with newLeafId and oldLeafId on every move of the leaf, and none when the leaf stays', async () => {
    const { seen, factory } = recorder();
    const { host } = await hostWith(factory, 44);
    await host.runLine('one');
    const one = host.view().leafId!;
    await host.runLine('two');
    const two = host.view().leafId!;
    seen.length = 0;
    host.stepBack();
    host.moveLeaf(null);
    host.moveLeaf(null);
    host.navigate(asEntryId(two));
    host.navigate(asEntryId(two));
    expect(seen.map(({ event, payload }) => [event, payload['type'], payload['newLeafId'], payload['oldLeafId']])).toEqual([
      ['session_tree', 'session_tree', one, two],
      ['session_tree', 'session_tree', null, one],
      // /tree on a user message puts the leaf on its parent: `one`.
      ['session_tree', 'session_tree', one, null],
    ]);
    // Appends are not session events.
    await host.runLine('three');
    expect(seen).toHaveLength(3);
  });

  it('a session handler that throws is reported as an extension error in the event log', async () => {
    const { host } = await hostWith((pi) => {
      pi.on('session_start', () => {
        throw new Error('start failed');
      });
    }, 45);
    expect(host.events()).toEqual([expect.objectContaining({ kind: 'notification', level: 'error', text: expect.stringContaining('start failed') })]);
  });
});

describe('ctx.sessionManager', () => {
  it('getBranch: root to leaf, from an entry when given one, [] for an id the session does not hold', async () => {
    let ctx: ExtensionContext | null = null;
    const { host } = await hostWith((pi) => {
      pi.registerCommand('grab', {
        handler: async (_args, context) => {
          ctx = context;
        },
      });
    }, 51);
    await host.runLine('one');
    const one = host.view().leafId!;
    await host.runLine('two');
    const two = host.view().leafId!;
    await host.runLine('/grab');
    const manager = ctx!.sessionManager;
    expect(manager.getSessionId()).toBe(host.sessionId);
    expect(manager.getBranch().map((entry) => entry.id)).toEqual([one, two]);
    expect(manager.getBranch(one).map((entry) => entry.id)).toEqual([one]);
    expect(manager.getBranch('nope0000')).toEqual([]);
    // It reads the journal as it is now, not as it was when the run started.
    await host.runLine('three');
    expect(manager.getBranch()).toHaveLength(3);
  });
});
