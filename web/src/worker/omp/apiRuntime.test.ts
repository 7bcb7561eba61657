/**
 * The extension API in the worker's host, member by member, against the one table
 * (apiSupport.ts): every member that does not work throws its sentence when called or read, and
 * the sentence reaches the learner as the host reports an extension's error; every member that
 * works is there, and each one the page added for issue 37 answers as OMP 18.2.3 does
 * (`src/session/session-manager.ts`, `src/extensibility/extensions/loader.ts`).
 */
import { beforeAll, describe, expect, it, vi } from 'vitest';
import { asEntryId, asSessionId } from '$domain/ids';
import { customEntry, labelEntry, sessionHeader, type JournalEntry } from '$domain/journal/entry';
import { SessionJournal } from '$domain/journal/journal';
import type { ExtensionAPI, ExtensionContext } from '../../../../extension/ompApi';
import { API_SUPPORT, refusalOf } from './apiSupport';
import { ExtensionRuntime, type ExtensionFactory, type HostServices } from './extensionRuntime';
import { PageUi } from './pageUi';
import type { Notice } from './invocation';
import { PageHostError } from './runPolicy';
import { loadZod } from './zodSupport';
import { AgentFacts } from './agentFacts';

type Loose = Record<string, unknown>;
const loose = (value: unknown): Loose => value as Loose;

const HEADER = sessionHeader(asSessionId('5e55e55e-0000-4000-8000-0000000000a1'), '2026-05-01T12:00:00.000Z', '/test');
const place = (id: string, parentId: string | null, timestamp: string) => ({ id: asEntryId(id), parentId: parentId === null ? null : asEntryId(parentId), timestamp });

const unchanged = async () => ({ cancelled: true });

function hostOver(journal: SessionJournal, hasUI = true) {
  const notices: Notice[] = [];
  const services: HostServices = {
    currentJournal: () => journal,
    appendCustom: () => undefined,
    appendCustomMessage: () => undefined,
    pageUi: new PageUi(),
    agent: new AgentFacts(),
    hasUI: () => hasUI,
    setStatus: () => undefined,
    notified: (notice) => void notices.push(notice),
    emitted: () => undefined,
    // The controls' own behaviour is commandSessions.test.ts's: here they only have to be on a command's ctx.
    sessionControls: () => ({ newSession: unchanged, branch: unchanged, navigateTree: unchanged, switchSession: unchanged }),
  };
  return { services, notices };
}

/** Loads `factory` (after one that keeps `pi`) and runs `/probe`, which keeps its ctx. */
async function probe(journal = SessionJournal.empty(HEADER), hasUI = true, factory: ExtensionFactory = () => undefined) {
  let pi: ExtensionAPI | null = null;
  let commandCtx: ExtensionContext | null = null;
  let toolCtx: ExtensionContext | null = null;
  const host = hostOver(journal, hasUI);
  const runtime = await ExtensionRuntime.load(async (api) => {
    pi = api;
    api.registerCommand('probe', { handler: async (_args, ctx) => void (commandCtx = ctx) });
    api.registerTool({ name: 'probe_tool', label: 'Probe', description: 'keeps its ctx', parameters: {}, execute: async (_id, _params, _signal, _update, ctx) => ((toolCtx = ctx), { content: [], details: null }) });
    await factory(api);
  }, host.services);
  await runtime.runCommand('probe', '')?.settle();
  await runtime.runTool('probe_tool', 'call-1', {})?.settle();
  if (!pi || !commandCtx || !toolCtx) throw new Error('the probe did not run');
  return { pi: loose(pi), ctx: loose(commandCtx), toolCtx: loose(toolCtx), runtime, notices: host.notices };
}

/** The object each key prefix of the table names, in one probe. */
function objectsOf({ pi, ctx }: { pi: Loose; ctx: Loose }): Record<string, Loose> {
  return { pi, 'pi.logger': loose(pi['logger']), ctx, 'ctx.ui': loose(ctx['ui']), 'ctx.sessionManager': loose(ctx['sessionManager']), commandCtx: ctx };
}

const CALLABLE = /^(pi|pi\.logger|ctx|ctx\.ui|ctx\.sessionManager|commandCtx)\.([A-Za-z]+)(\(\))?$/;
const rows = Object.entries(API_SUPPORT).flatMap(([key, [status]]) => {
  const match = CALLABLE.exec(key);
  return match?.[1] && match[2] ? [{ key, status, prefix: match[1], name: match[2], method: match[3] !== undefined }] : [];
});

describe('every member that does not work throws its sentence', () => {
  it.each(rows.filter((row) => row.status !== 'works'))('$key ($status)', async ({ key, prefix, name, method }) => {
    const objects = objectsOf(await probe());
    const owner = objects[prefix];
    const use = () => (method ? (owner?.[name] as () => unknown)() : owner?.[name]);
    expect(use).toThrow(PageHostError);
    expect(use).toThrow(refusalOf(key) ?? 'a sentence');
  });
});

describe('every member that works is there', () => {
  // Optional in OMP and left out here, each with its sentence in the table.
  const LEFT_UNDEFINED = new Set(['ctx.ui.timeoutStartsOnPresentation', 'ctx.ui.askDialog()', 'ctx.localProtocolOptions', 'ctx.memory', 'ctx.invokeTool()', 'ctx.model']);
  // pi.zod is fetched the first time a factory reads it (zodSupport.ts): have it here, as a load would.
  beforeAll(loadZod);
  it.each(rows.filter((row) => row.status === 'works'))('$key', async ({ key, prefix, name, method }) => {
    const owner = objectsOf(await probe())[prefix];
    if (LEFT_UNDEFINED.has(key)) expect(owner?.[name]).toBeUndefined();
    else if (method) expect(typeof owner?.[name]).toBe('function');
    else expect(owner?.[name]).toBeDefined();
  });
});

describe('a refusal reaches the learner as the host reports an extension error', () => {
  it('a command that calls pi.exec ends with the sentence', async () => {
    const { runtime } = await probe(undefined, true, (pi) => pi.registerCommand('shell', { handler: async () => (loose(pi)['exec'] as (c: string, a: string[]) => unknown)('ls', []) }));
    const run = runtime.runCommand('shell', '');
    await run?.settle();
    expect(run?.result).toEqual({ ok: false, error: refusalOf('pi.exec()') });
  });

  it('a session_start handler that calls ctx.ui.custom is the extension’s error, named as the host names one', async () => {
    const { runtime } = await probe(undefined, true, (pi) => pi.on('session_start', (_event, ctx) => (loose(ctx.ui)['custom'] as () => unknown)()));
    expect(runtime.fire('session_start', { type: 'session_start' })).toEqual([`Extension "seed-desk.js" error: ${refusalOf('ctx.ui.custom()')}`]);
  });

  it('a TypeBox builder other than Unsafe names itself', async () => {
    const { pi } = await probe();
    const type = loose(loose(pi['typebox'])['Type']);
    expect(() => type['Object']).toThrow("pi.typebox.Type.Object is not in the page's host yet: write the parameters as JSON Schema and pass them to pi.typebox.Type.Unsafe.");
    const schema = { type: 'object', properties: {} };
    expect((type['Unsafe'] as (s: object) => object)(schema)).toEqual(schema);
  });
});

describe('what the page keeps but does not act on is listed, and the extension still loads', () => {
  it('a subscription to an event the page does not fire yet, and a tool field it does not use', async () => {
    const { runtime } = await probe(undefined, true, (pi) => {
      pi.on('session_start', () => undefined);
      (pi.on as (event: string, handler: () => void) => void)('message_update', () => undefined);
      pi.registerTool({ name: 'drawn', label: 'Drawn', description: 'd', parameters: {}, execute: async () => ({ content: [], details: null }), ...{ renderResult: () => null } });
    });
    expect(runtime.notActedOn).toEqual([refusalOf('pi.on("message_update")'), refusalOf('tool.renderResult()')]);
    expect(runtime.commands.has('probe')).toBe(true);
  });
});

describe('the members issue 37 added, as OMP 18.2.3 answers', () => {
  // root ← a ← b (leaf, labelled "mine"); a ← c, stamped before b: the tree orders children by time.
  function branched(): SessionJournal {
    const entries: JournalEntry[] = [
      customEntry('probe', 0, place('root0001', null, '2026-05-01T12:00:01.000Z')),
      customEntry('probe', 1, place('a0000001', 'root0001', '2026-05-01T12:00:02.000Z')),
      customEntry('probe', 2, place('b0000001', 'a0000001', '2026-05-01T12:00:05.000Z')),
      customEntry('probe', 3, place('c0000001', 'a0000001', '2026-05-01T12:00:03.000Z')),
      customEntry('probe', 4, place('d0000001', 'missing1', '2026-05-01T12:00:04.000Z')),
    ];
    const journal = SessionJournal.fromEntries(HEADER, entries);
    journal.moveLeaf(asEntryId('b0000001'));
    journal.append(labelEntry(asEntryId('b0000001'), 'mine', { id: asEntryId('label001'), parentId: asEntryId('b0000001'), timestamp: '2026-05-01T12:00:06.000Z' }));
    return journal;
  }

  it('the session manager reads: leaf, entry, label, header, file, tree', async () => {
    const journal = branched();
    const manager = loose((await probe(journal)).ctx['sessionManager']);
    const call = (name: string, ...args: unknown[]) => (manager[name] as (...a: unknown[]) => unknown)(...args);
    expect(call('getLeafId')).toBe('label001');
    expect(call('getLeafEntry')).toBe(journal.get('label001'));
    expect(call('getEntry', 'c0000001')).toBe(journal.get('c0000001'));
    expect(call('getEntry', 'nope')).toBeUndefined();
    expect(call('getLabel', 'b0000001')).toBe('mine');
    expect(call('getLabel', 'a0000001')).toBeUndefined();
    expect(call('getHeader')).toEqual(HEADER);
    expect(call('getSessionFile')).toBeUndefined();
    const shape = (nodes: unknown): unknown => (nodes as { entry: { id: string }; label?: string; children: unknown[] }[]).map((node) => [node.entry.id, node.label ?? null, shape(node.children)]);
    // The orphan (its parent is not in the session) is a second root; c (12:00:03) comes before b (12:00:05).
    expect(shape(call('getTree'))).toEqual([
      ['root0001', null, [['a0000001', null, [['c0000001', null, []], ['b0000001', 'mine', [['label001', null, []]]]]]]],
      ['d0000001', null, []],
    ]);
  });

  it('an empty session: no leaf, no leaf entry, an empty tree', async () => {
    const manager = loose((await probe()).ctx['sessionManager']);
    expect((manager['getLeafId'] as () => unknown)()).toBeNull();
    expect((manager['getLeafEntry'] as () => unknown)()).toBeUndefined();
    expect((manager['getTree'] as () => unknown)()).toEqual([]);
  });

  it('ctx.mode, ctx.model, isProjectTrusted; the command-only controls on a command’s ctx only', async () => {
    const withUI = await probe();
    expect(withUI.ctx['mode']).toBe('rpc');
    expect(withUI.ctx['model']).toBeUndefined();
    expect((withUI.ctx['isProjectTrusted'] as () => boolean)()).toBe(true);
    expect(withUI.ctx['newSession']).toBeTypeOf('function');
    expect(() => (withUI.ctx['reload'] as () => unknown)()).toThrow(refusalOf('commandCtx.reload()') ?? '');
    expect(withUI.toolCtx['newSession']).toBeUndefined();
    expect((await probe(undefined, false)).ctx['mode']).toBe('print');
  });

  it('ctx.ui.select shows and returns an option’s label', async () => {
    const journal = SessionJournal.empty(HEADER);
    const host = hostOver(journal);
    const runtime = await ExtensionRuntime.load((pi) => {
      pi.registerCommand('pick', { handler: async (_args, ctx) => (ctx.ui.select as (t: string, o: unknown[]) => Promise<string | undefined>)('Which?', ['plain', { label: 'Labelled', description: 'with a description' }]) });
    }, host.services);
    const run = runtime.runCommand('pick', '');
    await run?.settle();
    expect(run?.asked?.request).toMatchObject({ kind: 'select', options: ['plain', 'Labelled'] });
    run?.answer({ kind: 'select', id: run.asked?.request.id ?? '', choice: 'Labelled' });
    await run?.settle();
    expect(run?.result).toEqual({ ok: true, value: 'Labelled' });
  });

  it('pi.setLabel names the extension, with the first argument, during loading too; pi.logger writes to the console; pi.events.clear drops every handler', async () => {
    const debug = vi.spyOn(console, 'debug').mockImplementation(() => undefined);
    const heard: unknown[] = [];
    const { runtime, pi } = await probe(undefined, true, (api) => {
      (api as unknown as { setLabel(a: string, b?: string): void }).setLabel('entry-id', 'ignored');
      api.events.emit('x', 1);
      (api.events as unknown as { on(c: string, h: (d: unknown) => void): void }).on('x', (data) => heard.push(data));
    });
    expect(runtime.label).toBe('entry-id');
    (loose(pi['logger'])['debug'] as (m: string) => void)('hello');
    expect(debug).toHaveBeenCalledWith('hello', '');
    const bus = loose(pi['events']);
    (bus['clear'] as () => void)();
    (bus['emit'] as (c: string, d: unknown) => void)('x', 2);
    await Promise.resolve();
    expect(heard).toEqual([]);
    debug.mockRestore();
  });
});
