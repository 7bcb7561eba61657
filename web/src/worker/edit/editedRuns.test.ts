import 'fake-indexeddb/auto';
/// <reference path="./extensionGraph.d.ts" />
/**
 * Which version the worker's host runs (issue 36), over a real JournalStore: the view and every
 * outcome say whether the edited text is the shipped one and what it was changed from; the store
 * keeps it, so a reload runs the same version under the same stamp.
 */
import * as esbuild from 'esbuild-wasm';
import { afterAll, afterEach, describe, expect, it, vi } from 'vitest';
import { seededIdSource } from '$domain/ids';
import { freshDatabases } from '../databases.testkit';
import { PlaygroundHost } from '../playgroundHost';
import { removeGuards } from './guards';

vi.mock('./compiler', async () => {
  const graph = await import('virtual:extension-graph');
  const { makeCompiler } = await import('./compileCore');
  const compile = makeCompiler(await import('esbuild-wasm'), graph);
  return { loadCompiler: () => Promise.resolve(), compile: (edits: Record<string, string>) => compile(edits, { kind: 'run' }) };
});

vi.mock('./editedModule', async (importOriginal) => {
  const real = await importOriginal<typeof import('./editedModule')>();
  const importData = (code: string) => import(/* @vite-ignore */ `data:text/javascript;base64,${Buffer.from(code).toString('base64')}`);
  return { ...real, loadFactory: (code: string) => real.loadFactory(code, importData) };
});

afterAll(() => esbuild.stop());
const databases = freshDatabases('edited-runs');
afterEach(() => removeGuards());

const graph = await import('virtual:extension-graph');
const COMMAND = 'extension/command.ts';
const SHIPPED = graph.files[COMMAND] ?? '';
const BROKEN = { [COMMAND]: SHIPPED.replace('const second = judge(readDesk(ctx));', 'const second = first;') };
const progress = () => undefined;

describe('the version the host runs', () => {
  it('a first edit, the learner\'s change back to the shipped text, and the shipped text after "Discard my edits" are told apart', async () => {
    const { host } = await databases.freshHost(61);
    expect(host.view().editedVersion).toBeUndefined();
    await host.runEdited(BROKEN, progress, 'shipped');
    expect(host.view()).toMatchObject({ extension: 'edited', editedVersion: { text: 'changed', editedFrom: 'shipped' } });
    expect(await host.runLine('/seeds query')).toMatchObject({ by: 'edited', version: { text: 'changed', editedFrom: 'shipped' } });

    await host.runEdited({ [COMMAND]: SHIPPED }, progress, 'last-run');
    expect(host.view().editedVersion).toEqual({ text: 'as-shipped', editedFrom: 'an-edit' });

    await host.runEdited({}, progress, 'shipped');
    expect(host.view().editedVersion).toEqual({ text: 'as-shipped', editedFrom: 'shipped' });

    await host.useShipped();
    expect(host.view().editedVersion).toBeUndefined();
    expect(await host.runLine('/seeds query')).not.toHaveProperty('version');
  }, 60_000);

  it('a reload runs the stored version under the stamp it had', async () => {
    const { host, store } = await databases.freshHost(62);
    await host.runEdited(BROKEN, progress, 'shipped');
    await host.runEdited({ [COMMAND]: SHIPPED.replace('const second = judge(readDesk(ctx));', 'const second = judge(readDesk(ctx)); // looked again') }, progress, 'last-run');
    removeGuards();
    const reloaded = await PlaygroundHost.start(store, seededIdSource(63));
    await reloaded.finishOpening();
    await reloaded.restoreEdited(progress);
    expect(reloaded.view()).toMatchObject({ extension: 'edited', editedVersion: { text: 'changed', editedFrom: 'an-edit' } });
  }, 60_000);
});
