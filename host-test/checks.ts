/**
 * The lesson's observable behaviours, checked inside the real host (Bun). Each check opens the
 * sessions it needs (about 1.5 s each) so a failure never leaks into the next check. Expected
 * texts come from the playground's own domain, so "the same text as the playground" is checked
 * against the very functions the playground calls.
 */
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { copyFileSync, mkdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { familyQuery, queryText } from '../domain/deskText';
import { seededIdSource } from '../domain/ids';
import { parseSessionJsonl } from '../domain/journal/importJsonl';
import { SessionJournal } from '../domain/journal/journal';
import { REFUSAL_CODES, type RefusalCode } from '../domain/refusal';
import { seedDeskJsonSchema } from '../domain/tool/jsonSchema';
import { checkSeedDeskArgs } from '../domain/tool/schema';
import { deskRows, EMPTY_SNAPSHOT, type Snapshot } from '../domain/snapshot';
import { readDesk } from '../extension/deskState';
import { checkArguments, type JsonSchema } from '../web/src/worker/omp/argumentCheck';
import { BREAK_REREAD_STEP, PLAYGROUND_RESULT, VARIANT_FILE, variantBuilt, type BreakItResult, type RaceResult } from './breakIt';
import { openSession, persist, type ApprovalMode, type Harness, type HostToolResult, type UserPolicy } from './omp';
import type { Checks } from './report';

const DESK = 'seed-desk-state-v1';
const FIXTURE_FILE = fileURLToPath(new URL('../fixtures/pi-v3-seed-desk.jsonl', import.meta.url));

// ---- small readers of what the host shows ----

function lastNote(h: Harness): { type: string; message: string } {
  const note = h.ui.notes.at(-1);
  if (!note) throw new Error('the extension notified nothing');
  return note;
}

/** The refusal code a notice starts with, `Refused (<code>): …` (refusalText's fixed prefix). */
function refusedCode(message: string): string | null {
  return /^Refused \(([a-z-]+)\)/.exec(message)?.[1] ?? null;
}

function details(result: HostToolResult): Record<string, unknown> {
  assert.ok(typeof result.details === 'object' && result.details !== null, `tool result without details: ${JSON.stringify(result)}`);
  return result.details as Record<string, unknown>;
}

function text(result: HostToolResult): string {
  return result.content.map((part) => part.text ?? '').join('\n');
}

/**
 * The current revision, read with the extension's own reconstruction rather than through the
 * tool, so that reading it never meets the approval gate a check is exercising.
 */
async function revisionOf(h: Harness): Promise<string> {
  return readDesk({ sessionManager: h.sm, hasUI: false, ui: { confirm: async () => false, notify: () => {}, setStatus: () => {} } }).revision;
}

function expectedQuery(snapshot: Snapshot, revision: string, family?: string): string {
  return family === undefined ? queryText(deskRows(snapshot), revision as never) : familyQuery(deskRows(snapshot), family, revision as never).text;
}

function snapshot(agentEnabled: boolean, quantities: Snapshot['quantities']): Snapshot {
  return { version: 1, agentEnabled, quantities };
}

async function confirmed(h: Harness, line: string): Promise<void> {
  const before = h.deskEntries().length;
  h.answers = { ...h.answers, confirm: () => true };
  await h.command(line);
  assert.equal(h.deskEntries().length, before + 1, `${line} should append one entry; notes: ${JSON.stringify(h.ui.notes.slice(-2))}`);
}

async function act(h: Harness, action: 'reserve' | 'release', id: string, packets: unknown, expectedRevision?: unknown): Promise<HostToolResult> {
  return h.tool({ op: 'act', action, id, packets, expectedRevision: expectedRevision ?? (await revisionOf(h)) });
}

export interface CheckContext {
  /** A fresh directory per session group. */
  dir(name: string): string;
}

export async function behaviourChecks(checks: Checks, ctx: CheckContext): Promise<void> {
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

  await checks.run('approval: seed_desk (tier write) under always-ask, write, yolo and each user policy, as the host documents', async () => {
    const h = await openSession({ dir: ctx.dir('approval') });
    try {
      await confirmed(h, '/seeds agent on');
      const table: [ApprovalMode, UserPolicy | null, 'run' | 'prompt' | 'deny'][] = [
        ['always-ask', null, 'prompt'],
        ['always-ask', 'allow', 'run'],
        ['always-ask', 'prompt', 'prompt'],
        ['always-ask', 'deny', 'deny'],
        ['write', null, 'run'],
        ['write', 'allow', 'run'],
        ['write', 'prompt', 'prompt'],
        ['write', 'deny', 'deny'],
        ['yolo', null, 'run'],
        ['yolo', 'allow', 'run'],
        ['yolo', 'prompt', 'prompt'],
        ['yolo', 'deny', 'deny'],
      ];
      const rows: string[] = [];
      for (const [mode, policy, expected] of table) {
        h.settings.set('tools.approvalMode', mode);
        h.settings.set('tools.approval', policy ? { seed_desk: policy } : {});
        const prompts = h.ui.selects.length;
        h.answers = { ...h.answers, select: () => 'Approve' };
        let outcome: string;
        try {
          const result = await act(h, 'reserve', 'basil-genovese', 1);
          assert.equal(details(result)['ok'], true, text(result));
          outcome = h.ui.selects.length > prompts ? 'prompt' : 'run';
        } catch (error) {
          outcome = 'deny';
          assert.match((error as Error).message, /^Tool "seed_desk" is blocked by user policy\./);
        }
        assert.equal(outcome, expected, `${mode} + ${policy ?? 'no policy'}`);
        if (outcome === 'prompt') assert.match(h.ui.selects.at(-1) ?? '', /^Allow tool: seed_desk/);
        // Release what was reserved so the desk never runs out across the table.
        if (outcome !== 'deny') {
          h.settings.set('tools.approval', { seed_desk: 'allow' });
          await act(h, 'release', 'basil-genovese', 1);
        }
        rows.push(`${mode}/${policy ?? '-'}: ${outcome}`);
      }
      // Deny at the prompt: an error result, nothing appended.
      h.settings.set('tools.approvalMode', 'always-ask');
      h.settings.set('tools.approval', {});
      h.answers = { ...h.answers, select: () => 'Deny' };
      const entries = h.sm.getEntries().length;
      await assert.rejects(act(h, 'reserve', 'basil-genovese', 1), /^Error: Tool call denied by user: seed_desk$/);
      assert.equal(h.sm.getEntries().length, entries, 'a denied call appended something');
      return `${rows.join('; ')}; Deny at the prompt: "Tool call denied by user: seed_desk", nothing appended`;
    } finally {
      await h.close();
    }
  });

  await checks.run('headless: every human change is refused with ui-required, queries still answer, a prompted tool fails closed', async () => {
    const h = await openSession({ dir: ctx.dir('headless'), headless: true });
    try {
      const entries = h.sm.getEntries().length;
      for (const line of ['/seeds reserve basil-genovese 1', '/seeds release basil-genovese 1', '/seeds agent on', '/seeds agent off']) {
        await h.command(line);
        assert.equal(refusedCode(lastNote(h).message), 'ui-required', `${line}: ${lastNote(h).message}`);
      }
      assert.equal(h.ui.confirms.length, 0, 'a dialog was opened without a UI');
      await h.command('/seeds query');
      assert.equal(lastNote(h).message, expectedQuery(EMPTY_SNAPSHOT, `${h.sm.getSessionId()}:root`));
      // yolo (the default) runs a write-tier tool without asking, so headless works ...
      assert.equal(details(await h.tool({ op: 'query' }))['ok'], true);
      // ... and a required prompt fails closed.
      h.settings.set('tools.approvalMode', 'always-ask');
      await assert.rejects(h.tool({ op: 'query' }), /Tool "seed_desk" requires approval but no interactive UI available\./);
      h.settings.set('tools.approvalMode', 'yolo');
      h.settings.set('tools.approval', { seed_desk: 'prompt' });
      await assert.rejects(h.tool({ op: 'query' }), /requires approval but no interactive UI available/);
      assert.equal(h.sm.getEntries().length, entries, 'headless appended something');
      return '4 changes refused with ui-required; always-ask and a prompt policy fail closed';
    } finally {
      await h.close();
    }
  });

  await checks.run('reopen: the written session file reopens with the same reservations, grant and revision', async () => {
    const dir = ctx.dir('reopen');
    const first = await openSession({ dir });
    let file: string;
    let before: string;
    try {
      await confirmed(first, '/seeds reserve basil-genovese 2');
      await confirmed(first, '/seeds agent on');
      assert.equal(details(await act(first, 'reserve', 'bean-scarlet', 3))['ok'], true);
      await first.command('/seeds query');
      before = lastNote(first).message;
      file = await persist(first);
    } finally {
      await first.close();
    }
    const second = await openSession({ dir, file });
    try {
      await second.command('/seeds query');
      assert.equal(lastNote(second).message, before);
      const tool = details(await second.tool({ op: 'query' }));
      assert.equal(tool['agentEnabled'], true);
      assert.match(second.ui.statuses.at(-1) ?? '', /^Seed desk: holding 2 basil-genovese, 3 bean-scarlet; agent on; revision /);
      return `same text after reopen, ending "${before.split('\n').at(-1)}"`;
    } finally {
      await second.close();
    }
  });

  await checks.run('sibling branch: a branch made from an earlier entry holds its own desk, and moving back restores the first', async () => {
    const h = await openSession({ dir: ctx.dir('sibling') });
    try {
      const fork = h.sm.getLeafId();
      assert.ok(fork, 'a new session starts with an entry (thinking_level_change)');
      await confirmed(h, '/seeds reserve marigold-french 1');
      const firstTip = h.sm.getLeafId()!;
      const firstRevision = await revisionOf(h);
      await h.session.navigateTree(fork, { summarize: false });
      assert.equal(await revisionOf(h), `${h.sm.getSessionId()}:root`, 'the sibling starts without the first branch');
      await confirmed(h, '/seeds reserve bean-scarlet 4');
      const sibling = h.deskEntries().at(-1)!;
      assert.equal(sibling.parentId, fork, 'the sibling entry hangs off the fork point');
      await h.command('/seeds query');
      assert.equal(lastNote(h).message, expectedQuery(snapshot(false, { 'bean-scarlet': 4 }), `${h.sm.getSessionId()}:${sibling.id}`));
      await h.session.navigateTree(firstTip, { summarize: false });
      assert.equal(h.ui.statuses.at(-1), `Seed desk: holding 1 marigold-french; agent off; revision ${firstRevision}`, 'status not refreshed on session_tree');
      await h.command('/seeds query');
      assert.equal(lastNote(h).message, expectedQuery(snapshot(false, { 'marigold-french': 1 }), firstRevision));
      return `fork at ${fork}: one branch holds 1 marigold, its sibling 4 beans`;
    } finally {
      await h.close();
    }
  });

  await checks.run('(f) corrupt state: one invalid snapshot on the branch makes every action corrupt-state, even after a valid one', async () => {
    const h = await openSession({ dir: ctx.dir('corrupt') });
    try {
      await confirmed(h, '/seeds agent on');
      const bad = h.sm.appendCustomEntry(DESK, { version: 1, agentEnabled: true, quantities: { 'basil-genovese': 99 } });
      h.sm.appendCustomEntry(DESK, { version: 1, agentEnabled: true, quantities: {} });
      const entries = h.sm.getEntries().length;
      const lines = ['/seeds query', '/seeds reserve basil-genovese 1', '/seeds release basil-genovese 1', '/seeds agent on', '/seeds agent off'];
      for (const line of lines) {
        await h.command(line);
        assert.equal(refusedCode(lastNote(h).message), 'corrupt-state', `${line}: ${lastNote(h).message}`);
        assert.match(lastNote(h).message, new RegExp(bad));
      }
      const calls = [{ op: 'query' }, { op: 'inspect', id: 'basil-genovese' }, { op: 'act', action: 'reserve', id: 'basil-genovese', packets: 1, expectedRevision: await revisionOf(h) }];
      for (const call of calls) assert.equal(details(await h.tool(call))['code'], 'corrupt-state', JSON.stringify(call));
      assert.equal(h.ui.confirms.length, 1, 'a dialog opened on a corrupt branch');
      assert.equal(h.sm.getEntries().length, entries, 'a corrupt branch took an append');
      return `${lines.length} commands and ${calls.length} tool calls refused with corrupt-state (entry ${bad})`;
    } finally {
      await h.close();
    }
  });

  await checks.run('schema: the host sends the playground\'s JSON Schema and checks calls against it; the calls it repairs are pinned', async () => {
    const h = await openSession({ dir: ctx.dir('schema') });
    try {
      assert.deepEqual(h.hostTool().parameters.toJsonSchema(), seedDeskJsonSchema, 'the wire schema is not the playground\'s');
      const R = 'sid:root';
      const act = (extra: Record<string, unknown>) => ({ op: 'act', action: 'reserve', id: 'basil-genovese', packets: 1, expectedRevision: R, ...extra });
      // Calls both judge alike (the domain, not the schema, refuses 0 and 1.5).
      const agreed: unknown[] = [
        { op: 'discover' }, { op: 'query' }, { op: 'query', family: 'bean' }, { op: 'inspect', id: 'basil-genovese' },
        act({}), act({ packets: 0 }), act({ packets: 1.5 }),
        { op: 'act', action: 'reserve', id: 'basil-genovese', packets: 1 }, act({ action: 'borrow' }), act({ packets: 'two' }),
        { op: 'nope' }, {}, { op: 'inspect' },
      ];
      for (const args of agreed) {
        const playground = checkSeedDeskArgs(args).ok;
        const host = await h.validate(args).then(() => true, () => false);
        assert.equal(host, playground, `verdicts differ on ${JSON.stringify(args)}`);
      }
      // The host's validator repairs these model quirks before running the tool; the domain's strict
      // check (checkSeedDeskArgs, the scripted agents' gate) refuses every one of them. The worker's
      // own gate repairs them as the host does: check (j). Pinned here so a change on either side is noticed.
      const repaired: [unknown, unknown][] = [
        [act({ packets: true }), act({ packets: 1 })],
        [act({ packets: '2' }), act({ packets: 2 })],
        [act({ id: 5 }), act({ id: '5' })],
        [act({ action: ' reserve' }), act({})],
        [{ op: 'query', extra: 1 }, { op: 'query' }],
        [{ op: 'query', family: null }, { op: 'query' }],
        [{ op: 'query', family: 3 }, { op: 'query', family: '3' }],
      ];
      for (const [args, repair] of repaired) {
        assert.equal(checkSeedDeskArgs(args).ok, false, `the playground accepts ${JSON.stringify(args)}`);
        assert.deepEqual(await h.validate(args), repair, `the host's repair of ${JSON.stringify(args)}`);
      }
      return `same wire schema; ${agreed.length} calls judged alike; the host repairs ${repaired.length} kinds of call the domain's strict check refuses (e.g. packets true → 1, "2" → 2, unknown keys dropped)`;
    } finally {
      await h.close();
    }
  });

  await checks.run('extensions folder: OMP discovers and loads seed-desk.js from <agentDir>/extensions/, as the install lines put it', async () => {
    const h = await openSession({ dir: ctx.dir('discovery'), discover: true });
    try {
      await h.command('/seeds query');
      assert.equal(lastNote(h).message, expectedQuery(EMPTY_SNAPSHOT, `${h.sm.getSessionId()}:root`));
      assert.ok(h.hostTool(), 'no seed_desk tool');
      return 'loaded by discovery, not passed in';
    } finally {
      await h.close();
    }
  });
  await newBehaviourChecks(checks, ctx);
}

// ---- behaviours the worker host re-implements, each checked in the real host ----

/** What the `/seeds` handler last resolved to (the host drops it; the harness keeps it). */
function lastOutcome(h: Harness): Record<string, unknown> {
  const run = h.commandRuns.at(-1);
  assert.ok(run?.ok, `the last command run threw or none ran: ${JSON.stringify(run)}`);
  assert.ok(typeof run.value === 'object' && run.value !== null, `the handler returned ${JSON.stringify(run.value)}`);
  return run.value as Record<string, unknown>;
}

function entryIds(h: Harness): string[] {
  return h.sm.getEntries().map((entry) => entry.id);
}

function entryTypes(entries: readonly { type: string; [key: string]: unknown }[]): string[] {
  return entries.map((entry) => (entry.type === 'custom' ? `custom:${String(entry['customType'])}` : entry.type === 'message' ? `message:${String((entry['message'] as { role?: unknown }).role)}` : entry.type));
}

/** A reopen as a new host process: the file persisted, the session disposed, the file opened again. */
async function reopened(h: Harness, dir: string, options: { headless?: boolean } = {}): Promise<Harness> {
  const file = await persist(h);
  await h.close();
  return openSession({ dir, file, ...options });
}

async function newBehaviourChecks(checks: Checks, ctx: CheckContext): Promise<void> {
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
      assert.deepEqual(readDesk({ sessionManager: h.sm, hasUI: false, ui: { confirm: async () => false, notify: () => {}, setStatus: () => {} } }).ok && h.deskEntries().at(-1)?.['data'], snapshot(true, { 'basil-genovese': 1 }));
      return `act with ${sibling.split(':')[1]} on the branch at ${here.split(':')[1]}: "${text(result).split('\n')[0]}"`;
    } finally {
      await h.close();
    }
  });

  await checks.run('(d) a reopen lands on the last appended entry, even when it hangs off an older branch', async () => {
    const dir = ctx.dir('reopen-last');
    let h = await openSession({ dir });
    try {
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
      assert.equal(h.sm.getLeafId(), last.id, 'the reopen did not land on the last appended entry');
      assert.equal(h.ui.statuses.at(-1), `Seed desk: holding 2 basil-genovese, 1 marigold-french; agent on; revision ${h.sm.getSessionId()}:${last.id}`);
      return `leaf ${last.id} (under the older branch's ${older.id}); status "${h.ui.statuses.at(-1)}"`;
    } finally {
      await h.close();
    }
  });

  await checks.run('(e) a plain leaf move (branch(), nothing appended after it) does not survive a reopen', async () => {
    const dir = ctx.dir('plain-move');
    let h = await openSession({ dir });
    try {
      await confirmed(h, '/seeds agent on');
      const grant = h.deskEntries().at(-1)!;
      await confirmed(h, '/seeds reserve basil-genovese 2');
      const last = h.sm.getEntries().at(-1)!;
      h.sm.branch(grant.id);
      assert.equal(h.sm.getLeafId(), grant.id);
      h = await reopened(h, dir);
      assert.equal(h.sm.getLeafId(), last.id, 'the move survived the reopen');
      assert.deepEqual(entryTypes(h.sm.getEntries()).slice(-1), ['custom:seed-desk-state-v1'], 'the reopen found an entry after the last desk entry');
      await h.command('/seeds query basil');
      assert.match(lastNote(h).message, /^basil-genovese: 6 available, 2 reserved/);
      return `moved to ${grant.id}, reopened at ${last.id} (no assistant message in the session, so the host's dispose wrote nothing)`;
    } finally {
      await h.close();
    }
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

  await checks.run("(j) argument repairs: the real host's validateToolArguments and the worker's checkArguments accept, repair and refuse the same seed_desk calls", async () => {
    const h = await openSession({ dir: ctx.dir('argument-repairs') });
    try {
      const base = { op: 'act', action: 'reserve', id: 'bean-scarlet', expectedRevision: 'x' };
      const cases: unknown[] = [
        { ...base, packets: 2 }, { ...base, packets: '2' }, { ...base, packets: ' 3 ' }, { ...base, packets: true }, { ...base, packets: false },
        { ...base, packets: 2.5 }, { ...base, packets: 'abc' }, { ...base, packets: null }, { ...base, packets: [2] }, { ...base, packets: { n: 2 } },
        { op: 'query', extra: 1 }, { ...base, packets: 1, extra: 1 }, { op: 'act', action: 'reserve', id: 'bean-scarlet' },
        { op: 'inspect' }, { op: 'nope' }, {}, { ...base, packets: 1, id: 5 }, { op: 'inspect', id: 5 }, { ...base, packets: 1, id: null },
        { op: 'query', family: null }, { op: 'query', family: 'null' }, { op: 'query', family: '' }, { op: 'query', family: 5 }, { op: 'query', family: ['bean'] },
        { op: ' query ' }, { ...base, packets: 1, action: 'Reserve' }, { ...base, packets: 1, action: ' release ' }, [1, 2], null, '{"op":"query"}', 'not json',
        { op: 'discover' }, { op: 'discover', extra: true }, { op: 'inspect', id: 'basil-genovese', packets: 1 },
        // Two quirks in one call: whitespace around a const/enum value and a coercion or an unknown key.
        { ...base, action: ' release ', packets: '2' }, { ...base, action: ' release ', packets: true }, { ...base, action: ' reserve ', packets: 1, extra: 1 },
        { op: ' query ', family: 5 }, { op: ' inspect ', id: 5 }, { op: 'inspect', id: 5, extra: 1 },
      ];
      const schema = seedDeskJsonSchema as JsonSchema;
      const branches = (schema['oneOf'] as JsonSchema[]).map((branch) => branch);
      const issuesOf = (message: string) => /^ {2}- root: must be (.*) \(was .*\)$/m.exec(message)?.[1] ?? null;
      const withoutIssues = (message: string) => message.replace(/^( {2}- root: must be ).*( \(was .*\))$/m, '$1…$2');
      const tally = { kept: 0, repaired: 0, refused: 0 };
      const known: string[] = [];
      const differ: string[] = [];
      const refusedAs = (message: string) => `refuses:\n      ${message.split('\n').join('\n      ')}`;
      for (const args of cases) {
        const real = await h.validate(args).then((value) => ({ ok: true as const, args: value }), (error: unknown) => ({ ok: false as const, message: error instanceof Error ? error.message : String(error) }));
        const mine = checkArguments('seed_desk', schema, structuredClone(args));
        const shown = JSON.stringify(args);
        if (mine.ok !== real.ok) {
          differ.push(`${shown}\n    real host ${real.ok ? `accepts as ${JSON.stringify(real.args)}` : refusedAs(real.message)}\n    worker ${mine.ok ? `accepts as ${JSON.stringify(mine.args)}` : refusedAs(mine.message)}`);
          continue;
        }
        if (real.ok && mine.ok) {
          if (!isDeepStrictEqual(mine.args, real.args)) differ.push(`${shown}: repaired differently\n    real host ${JSON.stringify(real.args)}\n    worker    ${JSON.stringify(mine.args)}`);
          else tally[isDeepStrictEqual(real.args, args) ? 'kept' : 'repaired']++;
          continue;
        }
        if (real.ok || mine.ok) continue;
        tally.refused++;
        if (mine.message === real.message) continue;
        // Allowed: the two list the issues of different oneOf branches, and nothing else differs.
        const realIssues = issuesOf(real.message);
        const branchIssues = branches.map((branch) => {
          const alone = checkArguments('seed_desk', branch, structuredClone(args));
          return alone.ok ? null : issuesOf(alone.message);
        });
        if (withoutIssues(mine.message) === withoutIssues(real.message) && realIssues !== null && branchIssues.includes(realIssues)) {
          known.push(`${shown}: real "${realIssues}", worker "${issuesOf(mine.message)}"`);
        } else {
          differ.push(`${shown}: the error texts differ beyond which oneOf branch is listed\n    real host ${JSON.stringify(real.message)}\n    worker    ${JSON.stringify(mine.message)}`);
        }
      }
      if (differ.length > 0) throw new Error(`${differ.length} of ${cases.length} calls judged differently:\n  ${differ.join('\n  ')}`);
      return [`${cases.length} calls judged alike: ${tally.kept} accepted as sent, ${tally.repaired} accepted after the same repair, ${tally.refused} refused with ${known.length === 0 ? 'the same text' : 'the same text but for the known difference'}`, ...(known.length ? [`known difference, only which oneOf branch's issues are listed: ${known.join('; ')}`] : [])].join('\n');
    } finally {
      await h.close();
    }
  });

  await checks.run('break it: the extension without the re-read after the dialog commits the stale bean reservation in the real OMP too, as in the page', async () => {
    if (!variantBuilt()) throw new Error(`no ${VARIANT_FILE}: the break-it lesson has no step ${BREAK_REREAD_STEP} with a prepared edit`);
    const race = async (extensionFile?: string): Promise<RaceResult> => {
      const h = await openSession({ dir: ctx.dir(`break-it-${extensionFile ? 'broken' : 'shipped'}`), ...(extensionFile ? { extensionFile } : {}) });
      try {
        await confirmed(h, '/seeds reserve basil-genovese 2');
        const basil = h.deskEntries().at(-1)!;
        h.answers = {
          ...h.answers,
          confirm: () => {
            h.sm.branch(basil.parentId!);
            return true;
          },
        };
        await h.command('/seeds reserve bean-scarlet 2');
        const outcome = lastOutcome(h);
        const onBranch = h.sm.getBranch().filter((entry) => entry.type === 'custom' && entry['customType'] === 'seed-desk-state-v1');
        return {
          outcome: String(outcome['kind']),
          code: typeof outcome['code'] === 'string' ? outcome['code'] : null,
          desk: onBranch.at(-1)?.['data'] ?? null,
          deskEntries: h.deskEntries().length,
        };
      } finally {
        await h.close();
      }
    };
    const real: BreakItResult = { shipped: await race(), broken: await race(VARIANT_FILE) };
    assert.deepEqual(real.shipped, { outcome: 'refused', code: 'stale-revision', desk: null, deskEntries: 1 }, 'the shipped extension let the stale change through');
    assert.equal(real.broken.outcome, 'committed', 'without the re-read the stale change was not committed');
    // The decision taken on the basil branch lands whole on a branch that never held basil.
    assert.deepEqual(real.broken.desk, snapshot(false, { 'basil-genovese': 2, 'bean-scarlet': 2 }));
    const page = JSON.parse(readFileSync(PLAYGROUND_RESULT, 'utf8')) as BreakItResult;
    assert.deepEqual(page, real, 'the page and the real host disagree on what breaks');
    return 'shipped: refused stale-revision; without the re-read: committed bean-scarlet 2 on the moved branch, in both hosts';
  });
}
