import 'fake-indexeddb/auto';
/**
 * OMP 18.2.3's own example extensions (fixtures/omp-examples/, unchanged) and the page's template
 * (extension/own/template.ts), compiled here with esbuild as the page compiles an extension, loaded
 * into the worker's host, and driven through what each reacts to: hello's zod tool, pirate's
 * command and its before_agent_start, status-line's turn and session events, confirm-destructive's
 * cancels, the template's note per branch.
 */
import { readFileSync } from 'node:fs';
import { transform } from 'esbuild';
import { describe, expect, it } from 'vitest';
import { seededIdSource } from '$domain/ids';
import { freshDatabases } from '../databases.testkit';
import { PlaygroundHost } from '../playgroundHost';
import { isConfirmAsked } from '../../protocol/messages';
import * as toolCalls from '../toolCalls';
import { endAgent, startAgent } from './agentRun';
import type { ExtensionFactory } from './extensionRuntime';

const databases = freshDatabases('omp-examples-test');

/** A file compiled as the page compiles one (TypeScript stripped, type imports erased) and its default export. */
async function compiled(path: string): Promise<ExtensionFactory> {
  const source = readFileSync(new URL(`../../../../${path}`, import.meta.url), 'utf8');
  const { code } = await transform(source, { loader: 'ts', format: 'cjs', target: 'es2022' });
  const module = { exports: {} as { default?: ExtensionFactory } };
  new Function('module', 'exports', code)(module, module.exports);
  if (typeof module.exports.default !== 'function') throw new Error(`${path} has no default export`);
  return module.exports.default;
}

async function hostWith(path: string, seed: number) {
  const store = await databases.openStore();
  return PlaygroundHost.start(store, seededIdSource(seed), { extension: await compiled(path) });
}

const notices = (host: PlaygroundHost) => host.events().flatMap((item) => (item.kind === 'notification' ? [item.text] : []));

describe('OMP’s examples and the template, unchanged, in the worker’s host', () => {
  it('hello.ts: pi.zod parameters become the JSON Schema OMP’s builder writes; a call greets, a call without a name fails the check', async () => {
    const host = await hostWith('fixtures/omp-examples/hello.ts', 1);
    expect(await host.modelTools()).toEqual([
      { name: 'hello', description: 'A simple greeting tool', parameters: { type: 'object', properties: { name: { type: 'string', description: 'Name to greet' } }, required: ['name'] } },
    ]);
    expect(await toolCalls.callTool(host.core, '{"name":"Ada"}', false, 'hello')).toMatchObject({ kind: 'result', isError: false, text: 'Hello, Ada!' });
    const last = host.core.journal.get(host.core.journal.leafId!) as unknown as { message: { details: unknown } };
    expect(last.message.details).toEqual({ greeted: 'Ada' });
    expect(await toolCalls.callTool(host.core, '{}', false, 'hello')).toMatchObject({ kind: 'result', stage: 'schema', isError: true });
  });

  it('pirate.ts: /pirate toggles and says so; before_agent_start returns systemPromptAppend, which OMP 18.2.3 does not read, so the prompt is unchanged', async () => {
    const host = await hostWith('fixtures/omp-examples/pirate.ts', 2);
    expect(await host.runLine('/pirate')).toMatchObject({ text: 'Arrr! Pirate mode enabled!' });
    expect(await startAgent(host.core, 'Hello', 'You are helpful.')).toEqual({ kind: 'started', prompt: 'Hello', systemPrompt: 'You are helpful.' });
    await endAgent(host.core, 'Hi.');
    expect(await host.runLine('/pirate')).toMatchObject({ text: 'Pirate mode disabled' });
  });

  it('status-line.ts: Ready at the start, a status per turn, Ready again after New', async () => {
    const host = await hostWith('fixtures/omp-examples/status-line.ts', 3);
    await until(() => host.core.statuses.get('status-demo') === 'Ready');
    await startAgent(host.core, 'Greet.', '');
    expect(host.core.statuses.get('status-demo')).toBe('● Turn 1…');
    host.core.extensions.tools.clear();
    await toolCalls.callTool(host.core, '{}', false, 'missing');
    expect(host.core.statuses.get('status-demo')).toBe('● Turn 2…');
    await endAgent(host.core, 'Done.');
    expect(host.core.statuses.get('status-demo')).toBe('✓ Turn 2 complete');
    await host.newSession();
    await until(() => host.core.statuses.get('status-demo') === 'Ready');
  });

  it('confirm-destructive.ts: its session-event dialogs wait for the page: New asks, "no" keeps the session with its notice and the page\'s sentence; a branch asks which way and "yes" makes it; without UI New goes through unasked', async () => {
    const host = await hostWith('fixtures/omp-examples/confirm-destructive.ts', 4);
    const before = host.sessionId;
    const clear = await host.newSession();
    expect(clear).toMatchObject({ kind: 'asked', request: { kind: 'confirm', title: 'Clear session?', message: 'This will delete all messages in the current session.' } });
    if (clear === null || !isConfirmAsked(clear)) throw new Error(`expected a confirm, got ${JSON.stringify(clear)}`);
    // Nothing changes while the dialog waits.
    expect(host.sessionId).toBe(before);
    const sentence = 'The extension cancelled the new session: its session_before_switch handler returned { cancel: true }, so nothing changed.';
    expect(await host.answerUi({ kind: 'confirm', id: clear.request.id, confirmed: false })).toMatchObject({ kind: 'notice', text: `Clear cancelled\n${sentence}`, sessionChange: { did: 'cancelled' } });
    expect(host.sessionId).toBe(before);
    expect(notices(host)).toEqual(expect.arrayContaining(['Clear cancelled', sentence]));
    await host.runLine('hello there');
    const message = host.core.journal.leafId!;
    await host.runLine('second line');
    // A fork at "hello there" keeps the path OMP's /branch from "second line" keeps: the event names that message.
    const second = host.core.journal.leafId!;
    const options = ['Yes, create branch', 'No, stay in current session'];
    const asked = async () => {
      const branch = await host.forkSession(message);
      expect(branch).toMatchObject({ kind: 'asked', request: { kind: 'select', title: `Branch from entry ${second.slice(0, 8)}?`, options } });
      if (branch?.kind !== 'asked') throw new Error('expected a choice');
      return branch.request.id;
    };
    expect(await host.answerUi({ kind: 'select', id: await asked(), choice: 'No, stay in current session' })).toMatchObject({ kind: 'notice', sessionChange: { did: 'cancelled' } });
    expect(host.sessionId).toBe(before);
    expect(notices(host)).toContain('Branch cancelled');
    const made = await host.answerUi({ kind: 'select', id: await asked(), choice: 'Yes, create branch' });
    expect(made).toMatchObject({ kind: 'notice', text: '', sessionChange: { did: 'forked', leafId: host.core.journal.leafId } });
    expect(host.sessionId).not.toBe(before);
    expect(host.core.waiting.size).toBe(0);
    host.setInteractive(false);
    const forked = host.sessionId;
    expect(await host.newSession()).toBeNull();
    expect(host.sessionId).not.toBe(forked);
  });

  it('template.ts: /note keeps a note per branch in custom entries; a fork from before it has none, a switch back rebuilds it', async () => {
    const host = await hostWith('extension/own/template.ts', 5);
    await until(() => host.core.statuses.get('my-note') === 'No note on this branch');
    await host.runLine('start');
    const root = host.core.journal.leafId!;
    expect(await host.runLine('/note sow the beans')).toMatchObject({ text: 'Noted on this branch: sow the beans' });
    const noted = host.core.journal.get(host.core.journal.leafId!);
    expect(noted).toMatchObject({ type: 'custom', customType: 'my-note', data: { text: 'sow the beans' } });
    expect(host.core.statuses.get('my-note')).toBe('Note: sow the beans');
    const first = host.sessionId;
    await host.forkSession(root);
    await until(() => host.core.statuses.get('my-note') === 'No note on this branch');
    await host.runLine('/note sow the peas');
    expect(await toolCalls.callTool(host.core, '{}', false, 'read_note')).toMatchObject({ isError: false, text: 'The note on this branch: sow the peas' });
    await host.switchSession(first);
    await until(() => host.core.statuses.get('my-note') === 'Note: sow the beans');
  });
});

/** Session events' handlers run without being awaited (as `fire` runs them): wait for what they set. */
async function until(condition: () => boolean): Promise<void> {
  for (let tries = 0; tries < 50 && !condition(); tries++) await new Promise((resolve) => setTimeout(resolve, 0));
  expect(condition()).toBe(true);
}
