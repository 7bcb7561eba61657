import 'fake-indexeddb/auto';
/**
 * The reads issue 37 asks to work as in OMP 18.2.3, through the worker's whole host
 * (PlaygroundHost on fake-indexeddb): `ctx.sessionManager.getUsageStatistics()` (session-manager.ts
 * `SessionEntryIndex`: every assistant message's usage, every branch), `getSessionName()`,
 * `pi.getCommands()` (get-commands-handler.ts), `ctx.isIdle()`, `ctx.hasPendingMessages()`,
 * `ctx.getSystemPrompt()` (agent-session.ts context actions), the logger's timing helpers with
 * timings off (pi-utils logger.ts), and `ctx.shutdown()` refused.
 */
import { describe, expect, it, vi } from 'vitest';
import { seededIdSource } from '$domain/ids';
import type { ExtensionAPI, ExtensionContext } from '../../../../extension/ompApi';
import { freshDatabases } from '../databases.testkit';
import { PlaygroundHost } from '../playgroundHost';
import { refusalOf } from './apiSupport';
import { endAgent, startAgent } from './agentRun';
import type { ExtensionFactory } from './extensionRuntime';

const databases = freshDatabases('agent-reads-test');

type Loose = Record<string, (...args: unknown[]) => unknown>;
const loose = (value: unknown): Loose => value as Loose;

/** An extension whose `/read` command hands its `pi` and `ctx` to the test. */
function reader() {
  const seen: { pi?: ExtensionAPI; ctx?: ExtensionContext } = {};
  const extension: ExtensionFactory = (pi) => {
    seen.pi = pi;
    pi.registerCommand('read', { description: 'Reads the host.', handler: async (_args, ctx) => void (seen.ctx = ctx) });
    pi.registerCommand('quiet', { handler: async () => undefined });
  };
  return { seen, extension };
}

async function hostWith(extension: ExtensionFactory, seed: number) {
  return PlaygroundHost.start(await databases.openStore(), seededIdSource(seed), { extension });
}

async function contextOf(host: PlaygroundHost, seen: { ctx?: ExtensionContext }): Promise<Loose & { sessionManager: Loose }> {
  await host.runLine('/read');
  return seen.ctx as unknown as Loose & { sessionManager: Loose };
}

const usage = (input: number, output: number) => ({ api: 'mock', provider: 'mock', model: 'm', usage: { input, output } });

describe('ctx.sessionManager.getUsageStatistics()', () => {
  it('sums every assistant message’s usage over the whole session, other branches included', async () => {
    const { seen, extension } = reader();
    const host = await hostWith(extension, 1);
    await host.recordModelMessage({ role: 'assistant', content: [{ type: 'text', text: 'a' }], stopReason: 'stop', ...usage(10, 4) });
    const fork = host.core.journal.leafId;
    await host.recordModelMessage({ role: 'assistant', content: [{ type: 'text', text: 'b' }], stopReason: 'stop', ...usage(7, 1) });
    await host.moveLeaf(fork!);
    await host.recordModelMessage({ role: 'user', text: 'on the other branch' });
    const ctx = await contextOf(host, seen);
    expect(host.core.journal.branch().length).toBe(2);
    expect(ctx.sessionManager['getUsageStatistics']!()).toEqual({ input: 17, output: 5, cacheRead: 0, cacheWrite: 0, totalTokens: 22, orchestrationInput: 0, orchestrationOutput: 0, orchestrationCacheRead: 0, premiumRequests: 0, cost: 0 });
  });

  it('all zero in a session with no assistant message', async () => {
    const { seen, extension } = reader();
    const host = await hostWith(extension, 2);
    const ctx = await contextOf(host, seen);
    expect(Object.values(ctx.sessionManager['getUsageStatistics']!() as Record<string, number>).every((value) => value === 0)).toBe(true);
  });
});

describe('session names, commands, idle, pending messages, the system prompt', () => {
  it('getSessionName: undefined on both, as OMP answers for a session nobody named', async () => {
    const { seen, extension } = reader();
    const host = await hostWith(extension, 3);
    const ctx = await contextOf(host, seen);
    expect(ctx.sessionManager['getSessionName']!()).toBeUndefined();
    expect(loose(seen.pi)['getSessionName']!()).toBeUndefined();
    expect(() => loose(seen.pi)['setSessionName']!('Beds')).toThrow(refusalOf('pi.setSessionName()')!);
  });

  it('pi.getCommands(): the extension’s commands, as OMP lists an extension’s', async () => {
    const { seen, extension } = reader();
    await hostWith(extension, 4);
    expect(loose(seen.pi)['getCommands']!()).toEqual([
      { name: 'read', description: 'Reads the host.', source: 'extension' },
      { name: 'quiet', description: undefined, source: 'extension' },
    ]);
  });

  it('pi.getCommands() throws while the factory runs, as OMP’s action methods do', async () => {
    await expect(hostWith((pi) => void loose(pi)['getCommands']!(), 5)).rejects.toThrow('Action methods cannot be called during extension loading');
  });

  it('isIdle: false from a run’s start to its end; hasPendingMessages: false', async () => {
    const idle: boolean[] = [];
    const extension: ExtensionFactory = (pi) => {
      (pi.on as (event: string, handler: (event: unknown, ctx: ExtensionContext) => void) => void)('turn_start', (_event, ctx) => void idle.push(loose(ctx)['isIdle']!() as boolean));
      pi.registerCommand('idle', { handler: async (_args, ctx) => void idle.push(loose(ctx)['isIdle']!() as boolean, loose(ctx)['hasPendingMessages']!() as boolean) });
    };
    const host = await hostWith(extension, 6);
    await startAgent(host.core, 'Go.', '');
    await host.runLine('/idle');
    await endAgent(host.core, 'Went.');
    await host.runLine('/idle');
    expect(idle).toEqual([false, false, false, true, false]);
  });

  it('getSystemPrompt: [] before a real model’s request; then what it was sent, as before_agent_start left it; a scripted run leaves it', async () => {
    const { seen, extension } = reader();
    const host = await hostWith((pi) => {
      extension(pi);
      (pi.on as (event: string, handler: (event: { systemPrompt: string[] }) => unknown) => void)('before_agent_start', (event) => ({ systemPrompt: [...event.systemPrompt, 'Speak like a gardener.'] }));
    }, 7);
    expect((await contextOf(host, seen))['getSystemPrompt']!()).toEqual([]);
    const started = await startAgent(host.core, 'Hello.', 'Be brief.', { provider: 'ollama', id: 'qwen3', api: 'openai-completions' });
    await endAgent(host.core);
    expect(started).toMatchObject({ systemPrompt: 'Be brief.\n\nSpeak like a gardener.' });
    expect((await contextOf(host, seen))['getSystemPrompt']!()).toEqual(['Be brief.', 'Speak like a gardener.']);
    await startAgent(host.core, 'Scripted.', '');
    await endAgent(host.core);
    expect((await contextOf(host, seen))['getSystemPrompt']!()).toEqual(['Be brief.', 'Speak like a gardener.']);
  });

  it('ctx.shutdown() is refused with its sentence', async () => {
    const { seen, extension } = reader();
    const host = await hostWith(extension, 8);
    const ctx = await contextOf(host, seen);
    expect(() => ctx['shutdown']!()).toThrow(refusalOf('ctx.shutdown()')!);
  });
});

describe('pi.logger’s timing helpers, as OMP with timings off', () => {
  it('time runs the span’s function with its arguments and returns its value; a point event returns nothing', async () => {
    const { seen, extension } = reader();
    await hostWith(extension, 9);
    const logger = loose(loose(seen.pi)['logger']);
    expect(logger['time']!('sum', (a: unknown, b: unknown) => Number(a) + Number(b), 2, 3)).toBe(5);
    await expect(logger['time']!('later', async () => 'awaited')).resolves.toBe('awaited');
    expect(logger['time']!('mark')).toBeUndefined();
  });

  it('nothing is recorded: no mode, no open span, printTimings says "(no markers)" even after startTiming', async () => {
    const { seen, extension } = reader();
    await hostWith(extension, 10);
    const logger = loose(loose(seen.pi)['logger']);
    const printed = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    logger['startTiming']!();
    logger['time']!('span', () => logger['openSpanPath']!());
    logger['recordModuleLoadSpan']!('/x.js', 0, 1);
    logger['printTimings']!();
    logger['endTiming']!();
    logger['startupMarker']!('boot');
    expect(printed.mock.calls).toEqual([['\n--- Startup Timings ---\n(no markers)\n']]);
    printed.mockRestore();
    expect(logger['openSpanPath']!()).toEqual([]);
    expect(logger['timingModeIncludes']!('full')).toBe(false);
    expect(logger['shouldExitAfterTimings']!()).toBe(false);
  });
});

describe('ctx.setTimeout, setInterval, clearTimer: OMP’s managed timers', () => {
  /** An extension whose `/later <what>` schedules through ctx; what each callback does is recorded. */
  function scheduler() {
    const ran: string[] = [];
    const handles: unknown[] = [];
    const extension: ExtensionFactory = (pi) => {
      pi.registerCommand('later', {
        handler: async (args, ctx) => {
          const timers = loose(ctx);
          if (args === 'once') handles.push(timers['setTimeout']!((word: unknown) => void ran.push(`once ${String(word)}`), 5, 'sown'));
          if (args === 'throw') timers['setTimeout']!(() => { throw new Error('frost'); }, 5);
          if (args === 'reject') timers['setTimeout']!(async () => { throw new Error('hail'); }, 5);
          if (args === 'every') handles.push(timers['setInterval']!(() => void ran.push('tick'), 5));
          if (args === 'clear') timers['clearTimer']!(handles.pop());
          if (args === 'clear-other') timers['clearTimer']!(setTimeout(() => void ran.push('raw timer'), 5));
        },
      });
    };
    return { ran, extension };
  }
  const errors = (host: PlaygroundHost) => host.events().flatMap((item) => (item.kind === 'notification' && item.text.includes('<timer>') ? [item.text] : []));

  it('a timeout runs once with its arguments; a throw and a rejection are the extension’s errors, not the worker’s', async () => {
    const { ran, extension } = scheduler();
    const host = await hostWith(extension, 11);
    await host.runLine('/later once');
    await host.runLine('/later throw');
    await host.runLine('/later reject');
    await vi.waitFor(() => expect(errors(host)).toHaveLength(2));
    expect(ran).toEqual(['once sown']);
    expect(errors(host)).toEqual(['Extension "<timer>" error: frost', 'Extension "<timer>" error: hail']);
    expect(host.core.extensions.timers.size).toBe(0);
  });

  it('an interval repeats until clearTimer; a handle it did not make is left alone', async () => {
    const { ran, extension } = scheduler();
    const host = await hostWith(extension, 12);
    await host.runLine('/later every');
    await vi.waitFor(() => expect(ran.filter((word) => word === 'tick').length).toBeGreaterThanOrEqual(2));
    await host.runLine('/later clear');
    const ticks = ran.length;
    await host.runLine('/later clear-other');
    await vi.waitFor(() => expect(ran).toContain('raw timer'));
    // Nothing ticked after the clear; the raw timer, not the extension's to clear, still ran.
    expect(ran.slice(ticks)).toEqual(['raw timer']);
    expect(host.core.extensions.timers.size).toBe(0);
  });

  it('a reopen (session_shutdown) clears every pending timer', async () => {
    const { ran, extension } = scheduler();
    const host = await hostWith(extension, 13);
    await host.runLine('/later every');
    expect(host.core.extensions.timers.size).toBe(1);
    await host.reopen();
    expect(host.core.extensions.timers.size).toBe(0);
    const after = ran.length;
    await host.runLine('/later once');
    await vi.waitFor(() => expect(ran).toContain('once sown'));
    expect(ran.slice(after)).toEqual(['once sown']);
  });

  it('getAsyncJobSnapshot: null, as OMP without an async job manager', async () => {
    const { seen, extension } = reader();
    const host = await hostWith(extension, 14);
    expect((await contextOf(host, seen))['getAsyncJobSnapshot']!()).toBeNull();
  });
});

describe('pi.logger: the local transport, then the sinks', () => {
  it('a sink hears each message with its level and context, a throwing sink breaks nothing, the disposer removes it', async () => {
    const { seen, extension } = reader();
    await hostWith(extension, 15);
    const logger = loose(loose(seen.pi)['logger']);
    const heard: unknown[] = [];
    const quiet = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    logger['registerLogSink']!(() => {
      throw new Error('sink broke');
    });
    const dispose = logger['registerLogSink']!((event: unknown) => void heard.push(event)) as () => void;
    logger['warn']!('dry soil', { bed: 3 });
    dispose();
    logger['warn']!('not heard');
    expect(heard).toEqual([{ level: 'warn', message: 'dry soil', context: { bed: 3 }, timestamp: expect.any(Date) }]);
    expect(quiet.mock.calls).toEqual([['dry soil', { bed: 3 }], ['not heard', '']]);
    quiet.mockRestore();
  });

  it('setTransports with neither console nor file turns the console off; either turns it on again', async () => {
    const { seen, extension } = reader();
    await hostWith(extension, 16);
    const logger = loose(loose(seen.pi)['logger']);
    const printed = vi.spyOn(console, 'info').mockImplementation(() => undefined);
    logger['setTransports']!({ console: false, file: false });
    logger['info']!('silent');
    logger['setTransports']!({ file: '/tmp/omp.log' });
    logger['info']!('heard');
    expect(printed.mock.calls).toEqual([['heard', '']]);
    printed.mockRestore();
  });
});

describe('ctx.ui members OMP’s RPC mode ignores', () => {
  it('setWorkingMessage, addAutocompleteProvider and setToolsExpanded do nothing; getToolsExpanded is false', async () => {
    const { seen, extension } = reader();
    const host = await hostWith(extension, 17);
    const ui = loose((await contextOf(host, seen))['ui']);
    expect(ui['setWorkingMessage']!('Sowing…')).toBeUndefined();
    expect(ui['addAutocompleteProvider']!(() => [])).toBeUndefined();
    expect(ui['setToolsExpanded']!(true)).toBeUndefined();
    expect(ui['getToolsExpanded']!()).toBe(false);
    expect(host.view().status).toBe('');
  });
});
