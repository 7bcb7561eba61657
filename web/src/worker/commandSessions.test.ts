import 'fake-indexeddb/auto';
/**
 * A command's session controls (OMP's ExtensionCommandContext: newSession, branch, navigateTree,
 * switchSession, as runtime-init.ts wires them): each made as the page's own buttons make it, its
 * before-event's dialog waiting inside the command's run, and `{ cancelled }` as the answer.
 */
import { describe, expect, it } from 'vitest';
import { seededIdSource } from '$domain/ids';
import type { ExtensionAPI } from '../../../extension/ompApi';
import { isConfirmAsked } from '../protocol/messages';
import { freshDatabases } from './databases.testkit';
import type { ExtensionFactory } from './omp/extensionRuntime';
import { PlaygroundHost } from './playgroundHost';

const databases = freshDatabases('command-sessions-test');

type Loose = { on(event: string, handler: (event: Record<string, unknown>, ctx: LooseCtx) => unknown): void; registerCommand(name: string, command: { handler: (args: string, ctx: LooseCtx) => Promise<void> }): void };
type Controls = Record<'newSession' | 'branch' | 'navigateTree' | 'switchSession', (arg?: string) => Promise<{ cancelled: boolean }>>;
type LooseCtx = Controls & { ui: { confirm(title: string, message: string): Promise<boolean>; notify(text: string): void } };

/** `/go <control> <arg>` calls one control and says what it answered; every before-event asks first. */
const asking: ExtensionFactory = (api: ExtensionAPI) => {
  const pi = api as unknown as Loose;
  for (const name of ['session_before_switch', 'session_before_branch', 'session_before_tree']) {
    pi.on(name, async (event, ctx) => ((await ctx.ui.confirm(`${name}?`, JSON.stringify(event.reason ?? event.entryId ?? ''))) ? undefined : { cancel: true }));
  }
  pi.registerCommand('go', {
    handler: async (args, ctx) => {
      const [control, arg] = args.split(' ') as [keyof Controls, string | undefined];
      const answer = await ctx[control](arg);
      ctx.ui.notify(`${control}: cancelled=${String(answer.cancelled)}`);
    },
  });
};

async function started(seed: number) {
  const host = await PlaygroundHost.start(await databases.openStore(), seededIdSource(seed), { extension: asking });
  await host.runLine('plan the beds');
  const plan = host.core.journal.leafId!;
  await host.runLine('water them');
  return { host, plan, water: host.core.journal.leafId! };
}

/** Runs `/go …`, answers its one confirmation, and returns what the command then said. */
async function go(host: PlaygroundHost, line: string, confirmed: boolean, title: string): Promise<string> {
  const asked = await host.runLine(line);
  if (!isConfirmAsked(asked)) throw new Error(`expected a confirmation, got ${JSON.stringify(asked)}`);
  expect(asked.request.title).toBe(title);
  const end = await host.answerUi({ kind: 'confirm', id: asked.request.id, confirmed });
  return end.text;
}

describe('a command’s session controls', () => {
  it('newSession: New’s before-event asks inside the command; no answers cancelled and keeps the session, yes makes a new one', async () => {
    const { host } = await started(1);
    const before = host.sessionId;
    expect(await go(host, '/go newSession', false, 'session_before_switch?')).toContain('newSession: cancelled=true');
    expect(host.sessionId).toBe(before);
    expect(await go(host, '/go newSession', true, 'session_before_switch?')).toContain('newSession: cancelled=false');
    expect(host.sessionId).not.toBe(before);
    expect(host.core.journal.size).toBe(0);
  });

  it('branch: a user message’s id, named in session_before_branch; the new session keeps the path to its parent; any other id throws as OMP does', async () => {
    const { host, plan, water } = await started(2);
    const before = host.sessionId;
    expect(await go(host, `/go branch ${water}`, true, 'session_before_branch?')).toContain('branch: cancelled=false');
    expect(host.sessionId).not.toBe(before);
    expect(host.core.journal.leafId).toBe(plan);
    expect(host.core.journal.has(water)).toBe(false);
    expect(await host.runLine('/go branch nowhere')).toMatchObject({ kind: 'error', text: expect.stringContaining('Invalid entry ID for branching') });
  });

  it('navigateTree: the move waits for session_before_tree’s answer; no leaves the leaf where it was', async () => {
    const { host, plan, water } = await started(3);
    expect(await go(host, `/go navigateTree ${plan}`, false, 'session_before_tree?')).toContain('navigateTree: cancelled=true');
    expect(host.core.journal.leafId).toBe(water);
    expect(await go(host, `/go navigateTree ${plan}`, true, 'session_before_tree?')).toContain('navigateTree: cancelled=false');
    // The host's /tree rule: a user message selected puts the leaf on its parent (here the start).
    expect(host.core.journal.get(plan)?.parentId).toBeNull();
    expect(host.core.journal.leafId).toBeNull();
  });

  it('switchSession: a session’s id stands in for OMP’s file path; the switch waits for its answer', async () => {
    const { host } = await started(4);
    const first = host.sessionId;
    await go(host, '/go newSession', true, 'session_before_switch?');
    const second = host.sessionId;
    expect(await go(host, `/go switchSession ${first}`, true, 'session_before_switch?')).toContain('switchSession: cancelled=false');
    expect(host.sessionId).toBe(first);
    expect(second).not.toBe(first);
  });
});
