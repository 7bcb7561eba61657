/**
 * What the page's host allows extension code per run (issue 28): the append cap, the notify cut,
 * the give-up on a run that never settles, throws from every place code runs, and the status line
 * that names what the learner's edited code did. A recording host stands in for the worker's.
 */
import { describe, expect, it } from 'vitest';
import { asSessionId } from '$domain/ids';
import { sessionHeader } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import type { ExtensionAPI } from '../../../../extension/ompApi';
import { ExtensionRuntime, type ExtensionFactory, type HostServices } from '../omp/extensionRuntime';
import { PageUi } from '../omp/pageUi';
import { APPENDS_PER_RUN, EDITED_LIMITS, editedPolicy, HOST_STATUS_KEY, hostStatusText, NOTICE_CHARS, type RunLimits } from './runLimits';
import type { Notice } from '../omp/extensionRuntime';
import { AgentFacts } from '../omp/agentFacts';

function recordingHost() {
  const journal = SessionJournal.empty(sessionHeader(asSessionId('5e55e55e-0000-4000-8000-000000000028'), '2026-05-01T12:00:00.000Z', '/test'));
  const appended: unknown[] = [];
  const notices: Notice[] = [];
  const statuses = new Map<string, string | undefined>();
  const services: HostServices = {
    currentJournal: () => journal,
    appendCustom: (_customType, data) => void appended.push(data),
    appendCustomMessage: () => undefined,
    pageUi: new PageUi(),
    agent: new AgentFacts(),
    hasUI: () => true,
    setStatus: (key, text) => void statuses.set(key, text),
    notified: (notice) => void notices.push(notice),
    emitted: () => undefined,
  };
  return { services, appended, notices, hostStatus: () => statuses.get(HOST_STATUS_KEY) };
}

/** The shipped extension runs with no policy: null. */
const SHIPPED = null;

async function loaded(factory: ExtensionFactory, limits: RunLimits | null = EDITED_LIMITS) {
  const host = recordingHost();
  const policy = limits ? editedPolicy((text) => host.services.setStatus(HOST_STATUS_KEY, hostStatusText(text)), limits) : null;
  const runtime = await ExtensionRuntime.load(factory, host.services, 'edited.js', policy);
  return { host, runtime };
}

async function runCommand(runtime: ExtensionRuntime, name = 'probe') {
  const run = runtime.runCommand(name, '');
  if (!run) throw new Error(`no /${name}`);
  await run.settle();
  return run;
}

const flood = (pi: ExtensionAPI, swallow: boolean) =>
  pi.registerCommand('probe', {
    handler: async () => {
      for (let i = 0; i < 100_000; i++) {
        try {
          pi.appendEntry('flood', { i });
        } catch (error) {
          if (!swallow) throw error;
        }
      }
      return 'done';
    },
  });

describe('appendEntry: a cap per run', () => {
  it(`100,000 appends in one handler: the first ${APPENDS_PER_RUN} reach the host, the next throws a named error that ends the run, and the status line names it`, async () => {
    const { host, runtime } = await loaded((pi) => flood(pi, false));
    const run = await runCommand(runtime);
    expect(host.appended).toHaveLength(APPENDS_PER_RUN);
    expect(host.appended.at(-1)).toEqual({ i: APPENDS_PER_RUN - 1 });
    expect(run.result).toEqual({ ok: false, error: expect.stringContaining(`appendEntry more than ${APPENDS_PER_RUN} times in one run`) });
    expect(host.hostStatus()).toMatch(/^Page host: Your extension called appendEntry more than 100 times in one run; the page's host kept the first 100 entries and refused the rest \(the real OMP has no such cap\)\.$/);
  });

  it('code that catches the refusal and goes on appends nothing more: every call past the cap throws', async () => {
    const { host, runtime } = await loaded((pi) => flood(pi, true));
    const run = await runCommand(runtime);
    expect(run.result).toEqual({ ok: true, value: 'done' });
    expect(host.appended).toHaveLength(APPENDS_PER_RUN);
    expect(host.hostStatus()).toContain('appendEntry more than 100 times');
  });

  it('the count starts over with each run, and with each leg after a dialog is answered', async () => {
    let api: ExtensionAPI | null = null;
    const { host, runtime } = await loaded((pi) => {
      api = pi;
      pi.registerCommand('probe', {
        handler: async (_args, ctx) => {
          for (let i = 0; i < APPENDS_PER_RUN; i++) pi.appendEntry('before', { i });
          await ctx.ui.confirm('Go on?', 'More appends');
          for (let i = 0; i < APPENDS_PER_RUN; i++) pi.appendEntry('after', { i });
          return 'done';
        },
      });
    });
    expect(api).not.toBeNull();
    const first = await runCommand(runtime);
    const asked = first.asked;
    if (asked?.request.kind !== 'confirm') throw new Error(`expected a confirm, got ${JSON.stringify(asked?.request)}`);
    first.answer({ kind: 'confirm', id: asked.request.id, confirmed: true });
    await first.settle();
    expect(first.result).toEqual({ ok: true, value: 'done' });
    expect((await runCommand(runtime)).asked).not.toBeNull();
    expect(host.appended).toHaveLength(3 * APPENDS_PER_RUN);
    expect(host.hostStatus()).toBeUndefined();
  });

  it('does not hold for the shipped extension, which runs as the real host runs it, without a word on the status line', async () => {
    const { host, runtime } = await loaded((pi) => flood(pi, false), SHIPPED);
    const run = await runCommand(runtime);
    expect(host.appended).toHaveLength(100_000);
    expect(run.result?.ok).toBe(true);
    expect(host.hostStatus()).toBeUndefined();
  });
});

describe('notify: cut past the host’s size', () => {
  it('a 10 MB notify shows its first 500,000 characters and says what was cut; the status line names it', async () => {
    const tenMegabytes = 'x'.repeat(10 * 1024 * 1024);
    const { host, runtime } = await loaded((pi) =>
      pi.registerCommand('probe', {
        handler: async (_args, ctx) => ctx.ui.notify(tenMegabytes, 'info'),
      }),
    );
    const run = await runCommand(runtime);
    const text = run.notices[0]?.text ?? '';
    expect(text.startsWith('x'.repeat(NOTICE_CHARS))).toBe(true);
    expect(text.slice(NOTICE_CHARS)).toBe("\n… cut by the page's host: it shows the first 500,000 of 10,485,760 characters.");
    expect(host.notices[0]?.text).toBe(text);
    expect(host.hostStatus()).toBe("Page host: Your extension's notify was 10,485,760 characters long; the page shows the first 500,000 (the real OMP shows it whole).");
  });

  it('a notify within the size is shown whole, and the status line says nothing', async () => {
    const { host, runtime } = await loaded((pi) => pi.registerCommand('probe', { handler: async (_args, ctx) => ctx.ui.notify('x'.repeat(NOTICE_CHARS)) }));
    const run = await runCommand(runtime);
    expect(run.notices[0]?.text).toHaveLength(NOTICE_CHARS);
    expect(host.hostStatus()).toBeUndefined();
  });
});

describe('a run that never settles', () => {
  const quick: RunLimits = { ...EDITED_LIMITS, settleMs: 30 };
  const never = (pi: ExtensionAPI) => {
    pi.registerCommand('probe', { handler: () => new Promise(() => undefined) });
    pi.registerTool({ name: 'probe_tool', label: 'Probe', description: 'never settles', parameters: {}, execute: () => new Promise<never>(() => undefined) });
  };

  it('a command: the host stops waiting after the limit, ends the run with an error that says so, and names it on the status line', async () => {
    const { host, runtime } = await loaded(never, quick);
    const run = await runCommand(runtime);
    const said = "Your /probe handler returned a promise that did not settle within 30 ms and opened no dialog; the page's host stopped waiting for it (the real OMP would wait).";
    expect(run.result).toEqual({ ok: false, error: said });
    expect(host.hostStatus()).toBe(`Page host: ${said}`);
  });

  it('a tool’s execute: the same, naming the tool', async () => {
    const { runtime } = await loaded(never, quick);
    const run = runtime.runTool('probe_tool', 'call-1', {});
    await run?.settle();
    expect(run?.result).toEqual({ ok: false, error: expect.stringContaining("Your probe_tool tool's execute returned a promise that did not settle within 30 ms") });
  });

  it('a run waiting on a dialog is not given up on: the learner may take as long as they like', async () => {
    const { runtime } = await loaded((pi) => pi.registerCommand('probe', { handler: (_args, ctx) => ctx.ui.confirm('Sure?', 'Take your time') }), quick);
    const run = await runCommand(runtime);
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(run.result).toBeNull();
    expect(run.asked?.request).toMatchObject({ kind: 'confirm', title: 'Sure?', message: 'Take your time' });
  });

  it('the shipped extension is waited for, as the real host waits', async () => {
    const { runtime } = await loaded(never, SHIPPED);
    const run = runtime.runCommand('probe', '');
    let settled = false;
    void run?.settle().then(() => (settled = true));
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(settled).toBe(false);
  });
});

describe('a throw in each place extension code runs', () => {
  const thrower = (pi: ExtensionAPI) => {
    // Not async: the throw comes before any promise exists.
    pi.registerCommand('probe', { handler: () => { throw new Error('command bug'); } });
    pi.registerTool({ name: 'probe_tool', label: 'Probe', description: 'throws', parameters: {}, execute: () => { throw new Error('tool bug'); } });
    pi.on('session_tree', () => {
      throw new Error('event bug');
    });
    pi.on('session_branch', async () => {
      await Promise.resolve();
      throw new Error('async event bug');
    });
  };

  it('a command handler that throws before returning a promise: the run’s error, and the status line names the handler', async () => {
    const { host, runtime } = await loaded(thrower);
    const run = await runCommand(runtime);
    expect(run.result).toEqual({ ok: false, error: 'command bug' });
    expect(host.hostStatus()).toBe('Page host: Your /probe handler threw: command bug');
  });

  it('a tool’s execute that throws: the run’s error, named', async () => {
    const { host, runtime } = await loaded(thrower);
    const run = runtime.runTool('probe_tool', 'call-1', {});
    await run?.settle();
    expect(run?.result).toEqual({ ok: false, error: 'tool bug' });
    expect(host.hostStatus()).toBe("Page host: Your probe_tool tool's execute threw: tool bug");
  });

  it('an event handler that throws: the host’s extension error, named; one that rejects later: in the event log, named', async () => {
    const { host, runtime } = await loaded(thrower);
    expect(runtime.fire('session_tree', { type: 'session_tree' })).toEqual(['Extension "edited.js" error: event bug']);
    expect(host.hostStatus()).toBe('Page host: Your session_tree handler threw: event bug');
    expect(runtime.fire('session_branch', { type: 'session_branch' })).toEqual([]);
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(host.notices.at(-1)).toEqual({ level: 'error', text: 'Extension "edited.js" error: async event bug', shown: true });
    expect(host.hostStatus()).toBe('Page host: Your session_branch handler threw: async event bug');
  });

  it('a factory that throws fails the load with its own error', async () => {
    await expect(
      loaded(() => {
        throw new Error('load bug');
      }),
    ).rejects.toThrow('load bug');
  });
});
