import 'fake-indexeddb/auto';
/**
 * Issue 28: an append that fails after `appendEntry` had returned to the extension. The host's
 * append is synchronous (memory now, the store right behind), so the extension has gone on, read
 * its branch and announced the change before the store says no. Then: the latch, one message,
 * the entry out of memory, and the extension's next read is the stored desk.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { HostView, LineOutcome } from '../protocol/messages';
import { CHANGED_EVENT, isConfirmAsked } from '../protocol/messages';
import { freshDatabases } from './databases.testkit';
import type { PlaygroundHost } from './playgroundHost';
import { StorageFailure } from './store';
import { storedEntries } from './storeReads.testkit';

const databases = freshDatabases('host-append-fault');
afterEach(() => vi.restoreAllMocks());

async function confirmed(host: PlaygroundHost, line: string): Promise<LineOutcome> {
  const dialog = await host.runLine(line);
  if (!isConfirmAsked(dialog)) throw new Error(`expected a dialog for ${line}, got ${JSON.stringify(dialog)}`);
  return host.answerUi({ kind: 'confirm', id: dialog.request.id, confirmed: true });
}

const basil = (view: HostView) => view.rows.find((row) => row.id === 'basil-genovese');
const changed = (host: PlaygroundHost) => host.events().filter((event) => event.kind === 'event' && event.channel === CHANGED_EVENT).length;

describe('PlaygroundHost: an append that fails after appendEntry returned', () => {
  it('latches, says so once, takes the entry back out of memory; the next read, a reopen and the store all agree @fault', async () => {
    const { host, store } = await databases.freshHost(28);
    expect((await confirmed(host, '/seeds reserve basil-genovese 2')).kind).toBe('committed');
    const stored = host.view();
    const eventsBefore = changed(host);

    // The store refuses the next append, after the extension's appendEntry has returned.
    const append = store.append.bind(store);
    const refused = vi.spyOn(store, 'append').mockImplementationOnce(async () => {
      throw new StorageFailure('The disk refused the write (injected).');
    });
    const outcome = await confirmed(host, '/seeds reserve basil-genovese 1');
    expect(refused).toHaveBeenCalledTimes(1);
    // The outcome's entry counts agree: the entry appendEntry put in memory is not counted after.
    expect(outcome).toEqual({
      kind: 'failed',
      text: 'Storage failed, nothing was appended: The disk refused the write (injected). Writes are stopped until you reopen the session.',
      by: 'shipped',
      deskEntries: { before: 1, after: 1 },
    });

    // Memory forgot what the store did not keep: the view, the event log, the status line.
    const after = host.view();
    expect(after.writeFailure).toBe('The disk refused the write (injected).');
    expect(after.revision).toBe(stored.revision);
    expect(after.entryCount).toBe(stored.entryCount);
    expect(basil(after)).toEqual(basil(stored));
    expect(changed(host)).toBe(eventsBefore);
    expect(host.events().filter((event) => event.kind === 'notification' && event.level === 'error')).toHaveLength(1);

    // The extension's next read is the stored desk; its next append is refused before it reaches the store.
    const query = await host.runLine('/seeds query');
    expect(query.kind === 'answer' && query.query.revision).toBe(stored.revision);
    expect(query.kind === 'answer' && query.query.rows.find((row) => row.id === 'basil-genovese')).toEqual({ id: 'basil-genovese', available: 6, reserved: 2 });
    refused.mockImplementation(append);
    expect((await confirmed(host, '/seeds reserve basil-genovese 1')).kind).toBe('error');
    expect(refused).toHaveBeenCalledTimes(1);

    // Nothing lost that was reported written, nothing twice; a reopen shows the same desk and writes again.
    const ids = (await storedEntries(store, host.sessionId)).map((entry) => entry.id);
    expect(ids).toHaveLength(stored.entryCount);
    expect(new Set(ids).size).toBe(ids.length);
    await host.reopen();
    expect(host.view().revision).toBe(stored.revision);
    expect(basil(host.view())).toEqual(basil(stored));
    expect((await confirmed(host, '/seeds reserve basil-genovese 1')).kind).toBe('committed');
    expect(basil(host.view())).toMatchObject({ available: 5, reserved: 3 });
    expect(await storedEntries(store, host.sessionId)).toHaveLength(stored.entryCount + 1);
  });
});
