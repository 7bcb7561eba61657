import 'fake-indexeddb/auto';
/**
 * Opening from the stored head (issue 12): the worker answers its first view from the head of the
 * last session and reads the whole journal after. The first view must already be the true one.
 */
import { describe, expect, it } from 'vitest';
import { asSessionId, seededIdSource } from '$domain/ids';
import { parseSessionJsonl } from '$domain/journal/importJsonl';
import { isConfirmAsked } from '../protocol/messages';
import { SEGMENT_ENTRIES } from './segments';
import { freshDatabases } from './databases.testkit';
import { PlaygroundHost } from './playgroundHost';

const databases = freshDatabases('host-open-test');

async function sessionWithHistory() {
  const { host, name } = await databases.freshHost(11);
  await host.runLine('a message before anything');
  const prepared = await host.runLine('/seeds reserve basil-genovese 2');
  if (!isConfirmAsked(prepared)) throw new Error('expected a dialog');
  expect((await host.answerUi({ kind: 'confirm', id: prepared.request.id, confirmed: true })).kind).toBe('committed');
  await host.callTool(JSON.stringify({ op: 'query' }), false);
  return { host, name };
}

describe('opening from the stored head', () => {
  it('the first view equals the view after the whole journal is read; the conversation comes after', async () => {
    const { host, name } = await sessionWithHistory();
    const full = host.view();
    const store = await databases.openStore(name);
    const opening = await PlaygroundHost.start(store, seededIdSource(12), { fromHead: true });
    // The status line is the extension's (ctx.ui.setStatus on session_start): see the next test.
    expect({ ...opening.view(), status: full.status }).toEqual({ ...full, notice: null });
    expect(opening.branch()).toEqual([]);
    await opening.finishOpening();
    expect(opening.view()).toEqual({ ...full, notice: null });
    expect(opening.branch().map((item) => item.role)).toEqual(host.branch().map((item) => item.role));
  });

  // The extension sets its status line on session_start, which the host fires once the journal it
  // reads is there: the first view (from the stored head) has none, the push after it has it.
  it('the extension’s status line arrives with the whole journal, right after the first view', async () => {
    const { host, name } = await sessionWithHistory();
    const full = host.view();
    const opening = await PlaygroundHost.start(await databases.openStore(name), seededIdSource(15), { fromHead: true });
    expect(opening.view().status).toBe('');
    await opening.finishOpening();
    expect(opening.view().status).toBe(full.status);
  });

  it('finishing twice reads once, and a browser with no session starts a new one at once', async () => {
    const { name } = await sessionWithHistory();
    const store = await databases.openStore(name);
    const opening = await PlaygroundHost.start(store, seededIdSource(13), { fromHead: true });
    const first = opening.finishOpening();
    expect(opening.finishOpening()).toBe(first);
    await first;
    const empty = await PlaygroundHost.start(await databases.openStore(), seededIdSource(14), { fromHead: true });
    expect(empty.view().entryCount).toBe(0);
    await expect(empty.finishOpening()).resolves.toBeUndefined();
  });
});

describe('an import stored as slices of its file', () => {
  it('reads back as the parser read it: a BOM, CRLF, non-ASCII text, skipped and changed lines, across segments', async () => {
    const sid = asSessionId('5e000000-0000-4000-8000-000000000005');
    const entry = (at: number, parent: string | null, text: string) =>
      JSON.stringify({ type: 'message', id: `e${at.toString(16).padStart(7, '0')}`, parentId: parent, timestamp: '2026-05-01T12:00:00.000Z', message: { role: 'user', content: text } });
    const lines = [`\ufeff{"type":"session","version":3,"id":"${sid}","timestamp":"2026-05-01T12:00:00.000Z","cwd":"/t"}`];
    const total = SEGMENT_ENTRIES + 40;
    for (let at = 0; at < total; at++) {
      const parent = at === 0 ? null : `e${(at - 1).toString(16).padStart(7, '0')}`;
      // Every 97th line is changed by the import (a parentId naming itself becomes null), every
      // 101st is followed by a line the import skips, every 7th has non-ASCII text and ends in CRLF.
      const id = `e${at.toString(16).padStart(7, '0')}`;
      let line = entry(at, at % 97 === 5 ? id : parent, at % 7 === 0 ? `graine ${at}: ça pousse 🌱` : `plain ${at}`);
      if (at % 7 === 0) line += '\r';
      lines.push(line);
      if (at % 101 === 3) lines.push('{not json', '');
    }
    const text = `${lines.join('\n')}\n`;
    const expected = parseSessionJsonl(text.slice(1), seededIdSource(1));
    if (!expected.ok) throw new Error(expected.error.message);
    expect(expected.skipped.length).toBeGreaterThan(0);
    expect(Array.from(expected.lineOf).filter((line) => line === 0).length).toBeGreaterThan(0);

    const { host, name } = await databases.freshHost(21);
    const report = await host.importSession(new Blob([text]), () => undefined);
    expect(report).toMatchObject({ ok: true, entries: total });
    const reopened = await databases.openStore(name);
    expect(await reopened.loadJournalEntries(sid)).toEqual(expected.entries);
  });
});
