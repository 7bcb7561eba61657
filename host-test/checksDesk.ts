/**
 * The desk's behaviours in the real host (Bun): the fixture, cancel, confirm, the race, grant and
 * revoke, every refusal code. Each check opens its own sessions (about 1.5 s each), so a failure
 * never leaks into the next.
 */
import { fileURLToPath } from 'node:url';
import assert from 'node:assert/strict';
import { copyFileSync, readFileSync } from 'node:fs';
import { seededIdSource } from '../domain/ids';
import { parseSessionJsonl } from '../domain/journal/importJsonl';
import { SessionJournal } from '../domain/journal/journal';
import { REFUSAL_CODES, type RefusalCode } from '../domain/refusal';
import { EMPTY_SNAPSHOT } from '../domain/snapshot';
import { lastNote, refusedCode, details, text, revisionOf, expectedQuery, snapshot, confirmed, act, type CheckContext } from './checkKit';
import { openSession, type HostToolResult } from './omp';
import type { Checks } from './report';

const DESK = 'seed-desk-state-v1';
const FIXTURE_FILE = fileURLToPath(new URL('../fixtures/pi-v3-seed-desk.jsonl', import.meta.url));

export async function deskChecks(checks: Checks, ctx: CheckContext): Promise<void> {
  await checks.run('fixture query: /seeds query and the tool answer with the playground text at <session>:root', async () => {
    const h = await openSession({ dir: ctx.dir('query') });
    try {
      const sid = h.sm.getSessionId();
      const before = h.sm.getEntries().length;
      await h.command('/seeds query');
      const expected = expectedQuery(EMPTY_SNAPSHOT, `${sid}:root`);
      assert.deepEqual(lastNote(h), { type: 'info', message: expected });
      assert.equal(expected.split('\n')[0], 'basil-genovese: 8 available, 0 reserved');
      await h.command('/seeds query bean');
      assert.equal(lastNote(h).message, `bean-scarlet: 5 available, 0 reserved\nrevision: ${sid}:root`);
      const tool = await h.tool({ op: 'query' });
      assert.equal(text(tool), expected);
      assert.equal(details(tool)['revision'], `${sid}:root`);
      assert.equal(h.sm.getEntries().length, before, 'a query appended something');
      return `revision ${sid}:root, 0 entries appended`;
    } finally {
      await h.close();
    }
  });

  await checks.run('fixture file: the host-written pi-v3-seed-desk.jsonl opens with the state the playground imports', async () => {
    const file = `${ctx.dir('fixture-file')}/pi-v3-seed-desk.jsonl`;
    copyFileSync(FIXTURE_FILE, file);
    const imported = parseSessionJsonl(readFileSync(FIXTURE_FILE, 'utf8'), seededIdSource(1));
    assert.ok(imported.ok);
    const state = SessionJournal.fromEntries(imported.header, imported.entries).state();
    assert.ok(state.ok);
    const h = await openSession({ dir: ctx.dir('fixture-file'), file });
    try {
      await h.command('/seeds query');
      assert.equal(lastNote(h).message, expectedQuery(state.snapshot, state.revision));
      return `${state.revision}: ${JSON.stringify(state.snapshot.quantities)}, agent ${state.snapshot.agentEnabled ? 'on' : 'off'}`;
    } finally {
      await h.close();
    }
  });

  await checks.run('cancel: a cancelled /seeds reserve asks once and appends nothing', async () => {
    const h = await openSession({ dir: ctx.dir('cancel') });
    try {
      const entries = h.sm.getEntries().length;
      const revision = await revisionOf(h);
      h.answers = { ...h.answers, confirm: () => false };
      await h.command('/seeds reserve basil-genovese 2');
      assert.equal(h.ui.confirms.length, 1);
      assert.equal(h.ui.confirms[0]?.title, 'Reserve 2 basil-genovese?');
      assert.equal(h.sm.getEntries().length, entries, 'cancel appended an entry');
      assert.equal(h.events.length, 0, 'cancel emitted a change event');
      assert.match(lastNote(h).message, /^Cancelled: nothing was changed/);
      assert.equal(await revisionOf(h), revision);
      return 'dialog "Reserve 2 basil-genovese?", 0 entries, 0 events';
    } finally {
      await h.close();
    }
  });

  await checks.run('confirm: a confirmed /seeds reserve appends exactly one seed desk entry, sets the status and emits the event', async () => {
    const h = await openSession({ dir: ctx.dir('confirm') });
    try {
      const entries = h.sm.getEntries().length;
      const leaf = h.sm.getLeafId();
      await h.command('/seeds reserve basil-genovese 2');
      const all = h.sm.getEntries();
      assert.equal(all.length, entries + 1, 'not exactly one entry');
      const entry = all.at(-1)!;
      assert.equal(entry.type, 'custom');
      assert.equal(entry['customType'], DESK);
      assert.equal(entry.parentId, leaf);
      assert.deepEqual(entry['data'], snapshot(false, { 'basil-genovese': 2 }));
      const revision = `${h.sm.getSessionId()}:${entry.id}`;
      assert.equal(lastNote(h).message, expectedQuery(snapshot(false, { 'basil-genovese': 2 }), revision));
      assert.equal(h.ui.statuses.at(-1), `Seed desk: holding 2 basil-genovese; agent off; revision ${revision}`);
      assert.deepEqual(h.events, [{ reason: 'reserve', revision, agentEnabled: false, quantities: { 'basil-genovese': 2 } }]);
      return `entry ${entry.id} under ${leaf}; 1 event; status "${h.ui.statuses.at(-1)}"`;
    } finally {
      await h.close();
    }
  });

  await checks.run('race: a change that lands while the dialog is open makes the confirmed command stale-revision', async () => {
    const h = await openSession({ dir: ctx.dir('race') });
    try {
      await confirmed(h, '/seeds agent on');
      const before = h.deskEntries().length;
      let agentResult: HostToolResult | undefined;
      h.answers = {
        ...h.answers,
        confirm: async () => {
          agentResult = await act(h, 'reserve', 'basil-genovese', 7);
          return true;
        },
      };
      await h.command('/seeds reserve basil-genovese 2');
      assert.equal(details(agentResult!)['ok'], true, 'the racing agent call did not land');
      assert.equal(refusedCode(lastNote(h).message), 'stale-revision', lastNote(h).message);
      assert.equal(h.deskEntries().length, before + 1, 'only the racing change may append');
      assert.deepEqual(h.deskEntries().at(-1)?.['data'], snapshot(true, { 'basil-genovese': 7 }));
      return 'agent reserved 7 during the dialog; the human reserve of 2 was refused with stale-revision';
    } finally {
      await h.close();
    }
  });

  await checks.run('grant and revoke: /seeds agent on lets the tool act, /seeds agent off refuses it with agent-disabled', async () => {
    const h = await openSession({ dir: ctx.dir('grant') });
    try {
      assert.equal(details(await act(h, 'reserve', 'bean-scarlet', 1))['code'], 'agent-disabled');
      await confirmed(h, '/seeds agent on');
      assert.equal(h.ui.confirms.at(-1)?.title, 'Switch the agent on?');
      assert.deepEqual(h.deskEntries().at(-1)?.['data'], snapshot(true, {}));
      const acted = await act(h, 'reserve', 'bean-scarlet', 1);
      assert.equal(details(acted)['ok'], true, text(acted));
      await confirmed(h, '/seeds agent off');
      assert.deepEqual(h.deskEntries().at(-1)?.['data'], snapshot(false, { 'bean-scarlet': 1 }));
      const entries = h.deskEntries().length;
      assert.equal(details(await act(h, 'reserve', 'bean-scarlet', 1))['code'], 'agent-disabled');
      assert.equal(h.deskEntries().length, entries);
      assert.deepEqual(
        h.events.map((event) => (event as { reason: string }).reason),
        ['agent-on', 'agent-act', 'agent-off'],
      );
      return 'events agent-on, agent-act, agent-off';
    } finally {
      await h.close();
    }
  });

  await checks.run('refusal codes: every code the agent can meet comes back through the tool as a normal result and appends nothing', async () => {
    const h = await openSession({ dir: ctx.dir('refusals') });
    try {
      const seen: RefusalCode[] = [];
      const expectRefusal = async (code: RefusalCode, call: () => Promise<HostToolResult>) => {
        const entries = h.sm.getEntries().length;
        const result = await call();
        assert.notEqual(result.isError, true, `${code}: the refusal came back as an error`);
        assert.equal(details(result)['ok'], false);
        assert.equal(details(result)['code'], code, text(result));
        assert.match(text(result), new RegExp(`^Refused \\(${code}\\)`));
        assert.equal(h.sm.getEntries().length, entries, `${code} appended something`);
        seen.push(code);
      };
      await expectRefusal('agent-disabled', () => act(h, 'reserve', 'basil-genovese', 1));
      const grantedAt = await revisionOf(h);
      await confirmed(h, '/seeds agent on');
      await expectRefusal('stale-revision', () => act(h, 'reserve', 'basil-genovese', 1, grantedAt));
      await expectRefusal('invalid-target', () => act(h, 'reserve', 'basil', 1));
      await expectRefusal('invalid-quantity', () => act(h, 'reserve', 'basil-genovese', 0));
      await expectRefusal('invalid-quantity', () => act(h, 'reserve', 'basil-genovese', 1.5));
      await expectRefusal('insufficient-availability', () => act(h, 'reserve', 'marigold-french', 4));
      await expectRefusal('insufficient-reservation', () => act(h, 'release', 'marigold-french', 1));
      await expectRefusal('invalid-target', () => h.tool({ op: 'inspect', id: 'nope' }));
      h.sm.appendCustomEntry(DESK, { version: 1, agentEnabled: true, quantities: { 'basil-genovese': 99 } });
      await expectRefusal('corrupt-state', () => act(h, 'reserve', 'basil-genovese', 1));
      const missing = REFUSAL_CODES.filter((code) => code !== 'ui-required' && !seen.includes(code));
      assert.deepEqual(missing, [], 'codes not exercised');
      return `${[...new Set(seen)].join(', ')} (ui-required is human-only: see the headless check)`;
    } finally {
      await h.close();
    }
  });
}
