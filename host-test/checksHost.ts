/**
 * What the real host adds around the extension (Bun): approval under every mode and policy,
 * headless, reopen, sibling branches, corrupt state, the schema it sends and checks, discovery.
 */
import assert from 'node:assert/strict';
import { isDeepStrictEqual } from 'node:util';
import { seedDeskJsonSchema } from '../domain/tool/jsonSchema';
import { checkSeedDeskParams, SEED_DESK_OPS } from '../domain/tool/schema';
import { EMPTY_SNAPSHOT } from '../domain/snapshot';
import { reopened, lastNote, refusedCode, details, text, revisionOf, expectedQuery, snapshot, confirmed, act, type CheckContext } from './checkKit';
import { openSession, type ApprovalMode, type Harness, type UserPolicy } from './omp';
import type { Checks } from './report';

const DESK = 'seed-desk-state-v1';

export async function hostChecks(checks: Checks, ctx: CheckContext): Promise<void> {
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

  await checks.run('reopen: the file the host wrote (it holds an assistant message) reopens with the same reservations, grant and revision', async () => {
    const dir = ctx.dir('reopen');
    const first = await openSession({ dir });
    let before: string;
    let second: Harness | null = null;
    try {
      await confirmed(first, '/seeds reserve basil-genovese 2');
      await confirmed(first, '/seeds agent on');
      // Through the agent loop: the assistant message is what makes the host write its file.
      const call = await first.call({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 3, expectedRevision: await revisionOf(first) });
      assert.equal((call.details as { ok?: unknown } | null)?.ok, true, call.text);
      await first.command('/seeds query');
      before = lastNote(first).message;
    } finally {
      second = await reopened(first, dir);
    }
    try {
      await second.command('/seeds query');
      assert.equal(lastNote(second).message, before);
      const tool = details(await second.tool({ op: 'query' }));
      assert.equal(tool['agentEnabled'], true);
      assert.match(second.ui.statuses.at(-1) ?? '', /^Seed desk: holding 2 basil-genovese, 3 bean-scarlet; agent on; revision /);
      return `same text after reopen (a session_exit entry appended on close), ending "${before.split('\n').at(-1)}"`;
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
      const wire = h.hostTool().parameters.toJsonSchema() as Record<string, unknown>;
      assert.deepEqual(wire, seedDeskJsonSchema, 'the wire schema is not the playground\'s');
      // What every provider needs (issue 35): one root object, no root combinator, op a string enum.
      assert.equal(wire['type'], 'object', 'the registered schema\'s root is not type: "object"');
      assert.ok(!('oneOf' in wire) && !('anyOf' in wire), 'the registered schema has a root union');
      const op = (wire['properties'] as Record<string, Record<string, unknown>> | undefined)?.['op'];
      assert.ok(op?.['type'] === 'string' && isDeepStrictEqual(op['enum'], [...SEED_DESK_OPS]), 'op is not a string enum of the four ops');
      const R = 'sid:root';
      const act = (extra: Record<string, unknown>) => ({ op: 'act', action: 'reserve', id: 'basil-genovese', packets: 1, expectedRevision: R, ...extra });
      // Calls both judge alike (the domain, not the schema, refuses 0 and 1.5; the tool's own check, not the schema, a missing field).
      const agreed: unknown[] = [
        { op: 'discover' }, { op: 'query' }, { op: 'query', family: 'bean' }, { op: 'inspect', id: 'basil-genovese' },
        act({}), act({ packets: 0 }), act({ packets: 1.5 }),
        { op: 'act', action: 'reserve', id: 'basil-genovese', packets: 1 }, act({ action: 'borrow' }), act({ packets: 'two' }),
        { op: 'nope' }, {}, { op: 'inspect' }, { op: 'discover', id: 'basil-genovese' },
      ];
      for (const args of agreed) {
        const playground = checkSeedDeskParams(args).ok;
        const host = await h.validate(args).then(() => true, () => false);
        assert.equal(host, playground, `verdicts differ on ${JSON.stringify(args)}`);
      }
      // The host's validator repairs these model quirks before running the tool; the playground's strict
      // schema check (checkSeedDeskParams, the scripted agents' gate) refuses every one of them. The worker's
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
        assert.equal(checkSeedDeskParams(args).ok, false, `the playground accepts ${JSON.stringify(args)}`);
        assert.deepEqual(await h.validate(args), repair, `the host's repair of ${JSON.stringify(args)}`);
      }
      return `same wire schema; ${agreed.length} calls judged alike; the host repairs ${repaired.length} kinds of call the playground's strict schema check refuses (e.g. packets true → 1, "2" → 2, unknown keys dropped)`;
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
}
