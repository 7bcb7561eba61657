/**
 * Behaviours the worker host re-implements, each checked in the real host (Bun): (a) race by a
 * tree move, (b) cancelled release, (c) sibling revision, (d) reopen position, (e) no file before
 * an assistant message, (e') session_exit keeps a plain move, (g) headless grant, (h) no agent
 * turn, (i) the ignored handler return.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { readDesk } from '../extension/deskState';
import { lastNote, refusedCode, details, text, revisionOf, snapshot, confirmed, act, lastOutcome, entryIds, entryTypes, reopened, type CheckContext } from './checkKit';
import { openSession } from './omp';
import type { Checks } from './report';

export async function reimplementedChecks(checks: Checks, ctx: CheckContext): Promise<void> {
  await checks.run('(a) race by a tree move: branch() back across a desk entry while the dialog waits makes the confirmed command stale-revision and appends nothing', async () => {
    const h = await openSession({ dir: ctx.dir('race-tree') });
    try {
      await confirmed(h, '/seeds reserve basil-genovese 2');
      const basil = h.deskEntries().at(-1)!;
      const seen = await revisionOf(h);
      const entries = h.sm.getEntries().length;
      h.answers = {
        ...h.answers,
        confirm: () => {
          h.sm.branch(basil.parentId!);
          return true;
        },
      };
      await h.command('/seeds reserve bean-scarlet 2');
      assert.equal(h.ui.confirms.at(-1)?.message, `This branch holds 0 of 5 bean-scarlet packets (5 available). Decided on revision ${seen}.`);
      assert.equal(lastOutcome(h)['kind'], 'refused');
      assert.equal(lastOutcome(h)['code'], 'stale-revision');
      assert.equal(lastNote(h).type, 'warning');
      assert.equal(refusedCode(lastNote(h).message), 'stale-revision', lastNote(h).message);
      assert.equal(h.sm.getEntries().length, entries, 'the refused change appended something');
      assert.equal(h.sm.getLeafId(), basil.parentId, 'the leaf is not where the move put it');
      assert.equal(await revisionOf(h), `${h.sm.getSessionId()}:root`);
      return `decided on ${seen.split(':')[1]}, the leaf moved to ${basil.parentId} during the dialog: "${lastNote(h).message.split('\n')[0]}"`;
    } finally {
      await h.close();
    }
  });

  await checks.run('(b) reserve 2 basil, then a cancelled /seeds release basil-genovese 1 leaves basil at 2 reserved', async () => {
    const h = await openSession({ dir: ctx.dir('cancel-release') });
    try {
      await confirmed(h, '/seeds reserve basil-genovese 2');
      const revision = await revisionOf(h);
      const entries = h.sm.getEntries().length;
      const events = h.events.length;
      h.answers = { ...h.answers, confirm: () => false };
      await h.command('/seeds release basil-genovese 1');
      assert.equal(h.ui.confirms.at(-1)?.title, 'Release 1 basil-genovese?');
      assert.deepEqual(lastNote(h), { type: 'info', message: `Cancelled: nothing was changed. The revision is still ${revision}.` });
      assert.equal(lastOutcome(h)['kind'], 'cancelled');
      assert.equal(h.sm.getEntries().length, entries, 'the cancel appended something');
      assert.equal(h.events.length, events, 'the cancel emitted an event');
      await h.command('/seeds query basil');
      assert.equal(lastNote(h).message, `basil-genovese: 6 available, 2 reserved\nrevision: ${revision}`);
      return `"${lastNote(h).message.split('\n')[0]}" at ${revision.split(':')[1]}`;
    } finally {
      await h.close();
    }
  });

  await checks.run("(c) a sibling branch's revision passed to seed_desk act is refused stale-revision, and nothing is appended", async () => {
    const h = await openSession({ dir: ctx.dir('sibling-token') });
    try {
      await confirmed(h, '/seeds agent on');
      const grant = h.deskEntries().at(-1)!;
      await confirmed(h, '/seeds reserve basil-genovese 2');
      const sibling = await revisionOf(h);
      await h.session.navigateTree(grant.id, { summarize: false });
      await confirmed(h, '/seeds reserve basil-genovese 1');
      const here = await revisionOf(h);
      assert.notEqual(here, sibling);
      const entries = h.sm.getEntries().length;
      const result = await act(h, 'reserve', 'bean-scarlet', 1, sibling);
      assert.notEqual(result.isError, true);
      assert.equal(details(result)['code'], 'stale-revision', text(result));
      assert.equal(h.sm.getEntries().length, entries, 'the refused act appended something');
      assert.deepEqual(readDesk({ sessionManager: h.sm, hasUI: false, ui: { confirm: async () => false, select: async () => undefined, input: async () => undefined, notify: () => {}, setStatus: () => {} } }).ok && h.deskEntries().at(-1)?.['data'], snapshot(true, { 'basil-genovese': 1 }));
      return `act with ${sibling.split(':')[1]} on the branch at ${here.split(':')[1]}: "${text(result).split('\n')[0]}"`;
    } finally {
      await h.close();
    }
  });

  await checks.run('(d) a reopen lands on session_exit, appended under the leaf the session closed on, even when that leaf hangs off an older branch', async () => {
    const dir = ctx.dir('reopen-last');
    let h = await openSession({ dir });
    try {
      await h.call({ op: 'query' });
      await confirmed(h, '/seeds agent on');
      const grant = h.deskEntries().at(-1)!;
      await confirmed(h, '/seeds reserve basil-genovese 2');
      const older = h.deskEntries().at(-1)!;
      await h.session.navigateTree(grant.id, { summarize: false });
      await confirmed(h, '/seeds reserve basil-genovese 1');
      await h.session.navigateTree(older.id, { summarize: false });
      await confirmed(h, '/seeds reserve marigold-french 1');
      const last = h.sm.getEntries().at(-1)!;
      assert.equal(last.parentId, older.id);
      h = await reopened(h, dir);
      const exit = h.sm.getEntries().at(-1)!;
      assert.deepEqual(entryTypes([exit]), ['custom:session_exit']);
      assert.equal(exit.parentId, last.id, 'session_exit is not under the last appended entry');
      assert.equal(h.sm.getLeafId(), exit.id, 'the reopen did not land on the last line');
      assert.equal(h.ui.statuses.at(-1), `Seed desk: holding 2 basil-genovese, 1 marigold-french; agent on; revision ${h.sm.getSessionId()}:${last.id}`);
      return `leaf on session_exit ${exit.id} under ${last.id} (under the older branch's ${older.id}); status "${h.ui.statuses.at(-1)}"`;
    } finally {
      await h.close();
    }
  });

  await checks.run('(e) before the first assistant message the host writes no file: a reopen finds nothing, reservations and leaf moves alike', async () => {
    const dir = ctx.dir('no-file');
    const h = await openSession({ dir });
    let file: string | undefined;
    try {
      await confirmed(h, '/seeds agent on');
      const grant = h.deskEntries().at(-1)!;
      await confirmed(h, '/seeds reserve basil-genovese 2');
      h.sm.branch(grant.id);
      file = h.sm.getSessionFile();
      assert.ok(file, 'the session has no file path');
      assert.equal(existsSync(file), false, 'the host wrote its file before any assistant message');
    } finally {
      await h.close();
    }
    assert.equal(existsSync(file), false, 'closing wrote the file (session_exit needs an assistant message)');
    return `two seed desk entries and a move, no file at ${file.split('/').at(-1)} before or after closing: a new process finds nothing to open`;
  });

  await checks.run("(e') once the session holds an assistant message, the host's dispose appends a session_exit entry under the leaf, so a plain move DOES survive a reopen", async () => {
    const dir = ctx.dir('plain-move-exit');
    let h = await openSession({ dir });
    try {
      await confirmed(h, '/seeds agent on');
      const grant = h.deskEntries().at(-1)!;
      await h.call({ op: 'query' });
      await confirmed(h, '/seeds reserve basil-genovese 2');
      h.sm.branch(grant.id);
      h = await reopened(h, dir);
      const last = h.sm.getEntries().at(-1)!;
      assert.equal(entryTypes([last])[0], 'custom:session_exit');
      assert.equal(last.parentId, grant.id, 'session_exit was not appended under the moved leaf');
      assert.equal(h.sm.getLeafId(), last.id);
      assert.equal(await revisionOf(h), `${h.sm.getSessionId()}:${grant.id}`, 'the desk is not the one the move chose');
      return `the reopen landed on session_exit ${last.id} under the grant ${grant.id}: basil 0 reserved there (data ${JSON.stringify(last['data'])})`;
    } finally {
      await h.close();
    }
  });

  await checks.run('(g) a stored grant still lets seed_desk act go through after a headless reopen (hasUI false), subject to the host approval', async () => {
    const dir = ctx.dir('headless-grant');
    let h = await openSession({ dir });
    try {
      await confirmed(h, '/seeds agent on');
      // An agent turn first: the host writes no file before an assistant message.
      await h.call({ op: 'query' });
      h = await reopened(h, dir, { headless: true });
      await h.command('/seeds agent off');
      assert.equal(refusedCode(lastNote(h).message), 'ui-required', 'the grant could be revoked headless');
      const entries = h.sm.getEntries().length;
      const acted = await act(h, 'reserve', 'bean-scarlet', 1);
      assert.equal(details(acted)['ok'], true, text(acted));
      assert.equal(h.sm.getEntries().length, entries + 1);
      h.settings.set('tools.approvalMode', 'always-ask');
      await assert.rejects(act(h, 'reserve', 'bean-scarlet', 1), /^Error: Tool "seed_desk" requires approval but no interactive UI available\./);
      assert.equal(h.sm.getEntries().length, entries + 1, 'the blocked call appended something');
      h.settings.set('tools.approval', { seed_desk: 'allow' });
      assert.equal(details(await act(h, 'reserve', 'bean-scarlet', 1))['ok'], true);
      assert.deepEqual(h.deskEntries().at(-1)?.['data'], snapshot(true, { 'bean-scarlet': 2 }));
      return 'yolo: acted; always-ask: blocked (no UI to ask); always-ask + user allow: acted; /seeds agent off refused ui-required';
    } finally {
      await h.close();
    }
  });

  await checks.run('(h) a change\'s status line and event start no agent turn: no user or assistant message, the agent stays idle (a model is there to answer)', async () => {
    const h = await openSession({ dir: ctx.dir('no-turn'), mockModel: true });
    try {
      const ids = new Set(entryIds(h));
      const messages = h.session.messages.length;
      await confirmed(h, '/seeds reserve basil-genovese 2');
      await new Promise((resolve) => setTimeout(resolve, 50));
      const added = h.sm.getEntries().filter((entry) => !ids.has(entry.id));
      assert.deepEqual(entryTypes(added), ['custom:seed-desk-state-v1']);
      assert.equal(h.events.length, 1, 'no change event');
      assert.match(h.ui.statuses.at(-1) ?? '', /^Seed desk: holding 2 basil-genovese;/);
      assert.equal(h.session.messages.length, messages, 'the agent got messages');
      assert.equal(h.modelCalls?.length, 0, 'the model was asked');
      assert.equal(h.session.isStreaming, false);
      // The control: a plain line does start a turn with this model.
      await h.session.prompt('hello');
      assert.equal(h.modelCalls?.length, 1, 'the mock model did not answer a plain line');
      return `1 event, status set, 0 model calls, agent idle; a plain line then made ${h.modelCalls?.length} model call (${entryTypes(h.sm.getEntries().slice(-2)).join(', ')})`;
    } finally {
      await h.close();
    }
  });

  await checks.run("(i) the host ignores the command handler's return value: /seeds returns an object, prompt resolves as for a handler returning nothing, and nothing is appended but the extension's own entry", async () => {
    const voidCommand = (pi: Record<string, unknown>) => {
      (pi['registerCommand'] as (name: string, command: unknown) => void)('void-probe', { description: 'returns nothing', handler: async () => {} });
    };
    const h = await openSession({ dir: ctx.dir('return-ignored'), mockModel: true, extraExtensions: [voidCommand] });
    try {
      const ids = new Set(entryIds(h));
      const queried = await h.command('/seeds query');
      assert.equal(lastOutcome(h)['kind'], 'answer');
      const voided = await h.command('/void-probe');
      assert.equal(h.commandRuns.at(-1)?.ok && h.commandRuns.at(-1)?.name, 'void-probe');
      assert.equal(queried, voided, 'the returned object changed what prompt resolved to');
      const reserved = await h.command('/seeds reserve basil-genovese 1');
      assert.equal(lastOutcome(h)['kind'], 'committed');
      assert.equal(reserved, voided);
      assert.deepEqual(entryTypes(h.sm.getEntries().filter((entry) => !ids.has(entry.id))), ['custom:seed-desk-state-v1']);
      assert.equal(h.modelCalls?.length, 0, 'a command reached the model');
      return `prompt resolved ${JSON.stringify(queried)} for /seeds (returned ${JSON.stringify(h.commandRuns[0]?.ok && h.commandRuns[0].value).slice(0, 60)}…) and ${JSON.stringify(voided)} for a void handler; 0 model calls`;
    } finally {
      await h.close();
    }
  });
}
