import 'fake-indexeddb/auto';
/**
 * The seed_desk tool through PlaygroundHost, over a real JournalStore on fake-indexeddb: how a
 * call is recorded (toolCall message, seed desk entry, toolResult), the host's gates (schema,
 * approval) before the domain, the refusals, the race through an approval prompt, headless
 * behaviour, the storage latch and reopen. Every test opens its own database.
 */
import { describe, expect, it } from 'vitest';
import { asEntryId } from '$domain/ids';
import type { HostView, LineOutcome, ToolCallOutcome, ToolDetailsView } from '../protocol/messages';
import { CHANGED_EVENT, isConfirmAsked } from '../protocol/messages';
import { PlaygroundHost } from './playgroundHost';
import { freshDatabases } from './databases.testkit';
import { storedEntries } from './storeReads.testkit';

const databases = freshDatabases('host-tool-test');
const freshHost = (seed = 11) => databases.freshHost(seed);

// ---- helpers ----

const DESK_LINE = '"customType":"seed-desk-state-v1"';
const BLOCKED_BY_POLICY = 'Tool "seed_desk" is blocked by user policy.\nTo allow: remove "tools.approval.seed_desk: deny" from config.';
const NO_UI = 'Tool "seed_desk" requires approval but no interactive UI available.\nOptions:\n  1. Set tools.approvalMode: yolo in /settings\n  2. Add tools.approval.seed_desk: allow to config\n  3. Use an interactive UI to approve the tool call';
const DENIED = 'Tool call denied by user: seed_desk';

type Result = Extract<ToolCallOutcome, { kind: 'result' }>;
type Approval = Extract<ToolCallOutcome, { kind: 'approval' }>;
type Json = Record<string, unknown>;

function asResult(outcome: ToolCallOutcome): Result {
  if (outcome.kind !== 'result') throw new Error(`expected a tool result, got ${JSON.stringify(outcome)}`);
  return outcome;
}

function asApproval(outcome: ToolCallOutcome): Approval {
  if (outcome.kind !== 'approval') throw new Error(`expected an approval prompt, got ${JSON.stringify(outcome)}`);
  return outcome;
}

function detailsOf(result: Result): ToolDetailsView {
  if (result.details === null) throw new Error(`expected details, got ${JSON.stringify(result)}`);
  return result.details;
}

/** A model tool call with these arguments (as JSON text, as the page sends it). */
async function call(host: PlaygroundHost, args: unknown, skipSchema = false): Promise<ToolCallOutcome> {
  return host.callTool(JSON.stringify(args), skipSchema);
}

async function callResult(host: PlaygroundHost, args: unknown, skipSchema = false): Promise<Result> {
  return asResult(await call(host, args, skipSchema));
}

/** `query` through the tool; returns the revision it reports. */
async function queryRevision(host: PlaygroundHost): Promise<string> {
  const result = await callResult(host, { op: 'query' });
  const revision = detailsOf(result).revision;
  if (revision === undefined) throw new Error(`query gave no revision: ${JSON.stringify(result)}`);
  return revision;
}

const act = (action: 'reserve' | 'release', id: string, packets: unknown, expectedRevision: string) => ({ op: 'act', action, id, packets, expectedRevision });

/** A human change: the extension asks, and the learner confirms at once. */
async function confirmLine(host: PlaygroundHost, line: string): Promise<void> {
  const prepared: LineOutcome = await host.runLine(line);
  if (!isConfirmAsked(prepared)) throw new Error(`expected a confirm for ${line}, got ${JSON.stringify(prepared)}`);
  const outcome = await host.answerUi({ kind: 'confirm', id: prepared.request.id, confirmed: true });
  if (outcome.kind !== 'committed') throw new Error(`expected a commit for ${line}, got ${JSON.stringify(outcome)}`);
}

const grant = (host: PlaygroundHost) => confirmLine(host, '/seeds agent on');

/** The exported session file, parsed: header first, then entries in append order. */
function journalEntries(host: PlaygroundHost): Json[] {
  const lines = host.exportSession().jsonl.split('\n').filter((line) => line.length > 0);
  expect(JSON.parse(lines[0]!)).toMatchObject({ type: 'session', id: host.sessionId });
  return lines.slice(1).map((line) => JSON.parse(line) as Json);
}

/** The grep of the lesson: how many seed desk state records the file holds. */
const deskLines = (host: PlaygroundHost) => host.exportSession().jsonl.split('\n').filter((line) => line.includes(DESK_LINE)).length;

const messageOf = (entry: Json | undefined): Json => {
  if (!entry || entry['type'] !== 'message') throw new Error(`expected a message entry, got ${JSON.stringify(entry)}`);
  return entry['message'] as Json;
};

function toolCallEntry(host: PlaygroundHost, callId: string): Json {
  const found = journalEntries(host).filter((entry) => {
    if (entry['type'] !== 'message') return false;
    const message = entry['message'] as Json;
    return message['role'] === 'assistant' && Array.isArray(message['content']) && (message['content'] as Json[]).some((block) => block['type'] === 'toolCall' && block['id'] === callId);
  });
  expect(found).toHaveLength(1);
  return found[0]!;
}

function toolResultEntries(host: PlaygroundHost, callId: string): Json[] {
  return journalEntries(host).filter((entry) => entry['type'] === 'message' && (entry['message'] as Json)['role'] === 'toolResult' && (entry['message'] as Json)['toolCallId'] === callId);
}

function toolResultEntry(host: PlaygroundHost, callId: string): Json {
  const found = toolResultEntries(host, callId);
  expect(found).toHaveLength(1);
  return found[0]!;
}

const row = (view: HostView, id: string) => {
  const found = view.rows.find((candidate) => candidate.id === id);
  if (!found) throw new Error(`no row ${id}`);
  return { reserved: found.reserved, available: found.available };
};

const changedEvents = (host: PlaygroundHost) => host.events().filter((event) => event.kind === 'event' && event.channel === CHANGED_EVENT);

// ---- (1) recording ----

describe('seed_desk through the host: how a call is recorded', () => {
  it('a read: an assistant toolCall message, then its toolResult (isError false, with details) right under it', async () => {
    const { host, store } = await freshHost();
    const args = { op: 'query' };
    const result = await callResult(host, args);
    expect(result).toMatchObject({ stage: 'domain', isError: false });
    expect(detailsOf(result)).toMatchObject({ ok: true, scope: 'query', revision: `${host.sessionId}:root`, agentEnabled: false });

    const entries = journalEntries(host);
    expect(entries).toHaveLength(2);
    const [callEntry, resultEntry] = entries;
    expect(callEntry).toMatchObject({ type: 'message', parentId: null });
    const assistant = messageOf(callEntry);
    expect(assistant).toMatchObject({ role: 'assistant', stopReason: 'toolUse' });
    expect(assistant['content']).toEqual([{ type: 'toolCall', id: result.callId, name: 'seed_desk', arguments: args }]);

    expect(resultEntry).toMatchObject({ type: 'message', parentId: callEntry!['id'] });
    const toolResult = messageOf(resultEntry);
    expect(toolResult).toMatchObject({ role: 'toolResult', toolCallId: result.callId, toolName: 'seed_desk', isError: false });
    expect(toolResult['details']).toEqual(result.details);
    expect(toolResult['content']).toEqual([{ type: 'text', text: result.text }]);

    // The store holds the same two entries; a read leaves the revision and the desk entries alone.
    expect((await storedEntries(store, host.sessionId)).map((record) => record.id)).toEqual([callEntry!['id'], resultEntry!['id']]);
    expect(host.view().revision).toBe(`${host.sessionId}:root`);
    expect(deskLines(host)).toBe(0);
  });

  it('an act that commits puts the seed desk entry between the toolCall and the toolResult', async () => {
    const { host, store } = await freshHost();
    await grant(host);
    const revision = await queryRevision(host);
    const args = act('reserve', 'bean-scarlet', 1, revision);
    const before = journalEntries(host).length;
    const result = await callResult(host, args);
    expect(result).toMatchObject({ stage: 'domain', isError: false });
    expect(detailsOf(result)).toMatchObject({ ok: true, scope: 'act' });

    const added = journalEntries(host).slice(before);
    expect(added.map((entry) => entry['type'])).toEqual(['message', 'custom', 'message']);
    const [callEntry, deskEntry, resultEntry] = added;
    expect(messageOf(callEntry)['content']).toEqual([{ type: 'toolCall', id: result.callId, name: 'seed_desk', arguments: args }]);
    expect(deskEntry).toMatchObject({ customType: 'seed-desk-state-v1', parentId: callEntry!['id'], data: { version: 1, agentEnabled: true, quantities: { 'bean-scarlet': 1 } } });
    expect(resultEntry!['parentId']).toBe(deskEntry!['id']);
    expect(messageOf(resultEntry)).toMatchObject({ role: 'toolResult', toolCallId: result.callId, toolName: 'seed_desk', isError: false, details: result.details });

    // The new revision is the desk entry's, in the view, the details and the text alike.
    const view = host.view();
    expect(view.revision).toBe(`${host.sessionId}:${String(deskEntry!['id'])}`);
    expect(detailsOf(result).revision).toBe(view.revision);
    expect(result.text.endsWith(`revision: ${view.revision}`)).toBe(true);
    expect(view.leafId).toBe(resultEntry!['id']);
    expect(await store.countEntries(host.sessionId)).toBe(view.entryCount);
    expect(changedEvents(host).map((event) => (event.kind === 'event' ? JSON.parse(event.payload).reason : null))).toEqual(['agent-on', 'agent-act']);
  });
});

// ---- (2) grant, query, act, stale ----

describe('seed_desk through the host: act with the returned revision, then with the old one', () => {
  it('commits once with a new revision; reusing the old revision is a stale-revision refusal, not a second reservation', async () => {
    const { host } = await freshHost();
    await grant(host);
    const old = await queryRevision(host);
    expect(old).toBe(host.view().revision);

    const first = await callResult(host, act('reserve', 'bean-scarlet', 1, old));
    expect(first).toMatchObject({ stage: 'domain', isError: false });
    const fresh = detailsOf(first).revision;
    expect(fresh).toBeDefined();
    expect(fresh).not.toBe(old);
    expect(detailsOf(first)).toMatchObject({ ok: true, scope: 'act', agentEnabled: true, data: { action: 'reserve', id: 'bean-scarlet', packets: 1 } });
    expect(row(host.view(), 'bean-scarlet')).toEqual({ reserved: 1, available: 4 });
    const desk = deskLines(host);

    const again = await callResult(host, act('reserve', 'bean-scarlet', 1, old));
    expect(again).toMatchObject({ stage: 'domain', isError: false });
    expect(detailsOf(again)).toMatchObject({ ok: false, scope: 'act', code: 'stale-revision', revision: fresh });
    expect(again.text).toMatch(/^Refused \(stale-revision\)/);
    expect(messageOf(toolResultEntry(host, again.callId))).toMatchObject({ isError: false, details: { ok: false, code: 'stale-revision' } });
    expect(deskLines(host)).toBe(desk);
    expect(row(host.view(), 'bean-scarlet')).toEqual({ reserved: 1, available: 4 });
    expect(host.view().revision).toBe(fresh);
  });
});

// ---- (3), (4) schema and domain errors ----

describe('seed_desk through the host: the schema gate and the domain’s own checks', () => {
  it('a schema failure: stage schema, isError true; the toolResult is recorded as the host records it', async () => {
    const { host } = await freshHost();
    // An op the enum does not name (an optional null would be dropped by the host's repairs, as OMP does, and reach the tool's own check).
    const result = await callResult(host, { op: 'nope' });
    expect(result).toMatchObject({ stage: 'schema', isError: true, details: null });
    expect(result.text).toBe(
      `Validation failed for tool "seed_desk":\n  - root: must be op: must be one of the allowed enum values (was {"op":"nope"})\n\nReceived arguments:\n${JSON.stringify({ op: 'nope' }, null, 2)}`,
    );
    const recorded = messageOf(toolResultEntry(host, result.callId));
    expect(recorded).toMatchObject({ role: 'toolResult', toolName: 'seed_desk', isError: true, content: [{ type: 'text', text: result.text }] });
    // The agent loop's details for a validation error (omp-facts §1).
    expect(recorded['details']).toEqual({ isError: true, error: result.text });
    expect(toolCallEntry(host, result.callId)).toBeDefined();
    // The extension's code never ran: nothing it would say or append.
    expect(host.events()).toEqual([]);
    expect(deskLines(host)).toBe(0);
  });

  it('arguments the host repairs run repaired, while the toolCall keeps what the model sent', async () => {
    const { host } = await freshHost();
    await grant(host);
    // (Spaces around 'reserve' as well would be refused: the host keeps a trim only when it alone makes the call valid.)
    const sent = { op: 'act', action: 'reserve', id: 'bean-scarlet', packets: '2', expectedRevision: host.view().revision, note: 'extra' };
    const result = await callResult(host, sent);
    expect(result).toMatchObject({ stage: 'domain', isError: false });
    expect(detailsOf(result)).toMatchObject({ ok: true, scope: 'act', data: { action: 'reserve', id: 'bean-scarlet', packets: 2 } });
    expect(row(host.view(), 'bean-scarlet')).toEqual({ reserved: 2, available: 3 });
    expect(messageOf(toolCallEntry(host, result.callId))['content']).toEqual([{ type: 'toolCall', id: result.callId, name: 'seed_desk', arguments: sent }]);
  });

  it('an act hidden in an own __proto__ key is refused by the schema and reserves nothing', async () => {
    const { host } = await freshHost();
    await grant(host);
    const text = `{"__proto__":${JSON.stringify(act('reserve', 'bean-scarlet', 1, host.view().revision))}}`;
    const result = asResult(await host.callTool(text, false));
    expect(row(host.view(), 'bean-scarlet')).toEqual({ reserved: 0, available: 5 });
    expect(result).toMatchObject({ stage: 'schema', isError: true });
  });

  it('arguments as a JSON string are parsed by the host', async () => {
    const { host } = await freshHost();
    const result = await callResult(host, JSON.stringify({ op: 'inspect', id: 'marigold-french' }));
    expect(result).toMatchObject({ stage: 'domain', isError: false });
    expect(detailsOf(result)).toMatchObject({ ok: true, scope: 'inspect' });
  });

  it('skipSchema + {op:"inspect", id: 7}: the domain refuses it invalid-target (a refusal, not an error)', async () => {
    const { host } = await freshHost();
    const result = await callResult(host, { op: 'inspect', id: 7 }, true);
    expect(result).toMatchObject({ stage: 'domain', isError: false });
    expect(detailsOf(result)).toMatchObject({ ok: false, scope: 'inspect', code: 'invalid-target' });
    expect(messageOf(toolResultEntry(host, result.callId))).toMatchObject({ isError: false, details: { code: 'invalid-target' } });
  });

  it('skipSchema + {op:"nope"}: the tool throws, and the host records the bare message with empty details', async () => {
    const { host } = await freshHost();
    const result = await callResult(host, { op: 'nope' }, true);
    expect(result).toMatchObject({ stage: 'domain', isError: true, details: null });
    expect(result.text).toBe('seed_desk needs an object with op set to one of: discover, query, inspect, act.');
    expect(messageOf(toolResultEntry(host, result.callId))).toMatchObject({ isError: true, content: [{ type: 'text', text: result.text }], details: {} });
  });

  it('skipSchema + an act with an unknown action is a domain error that appends no desk entry', async () => {
    const { host } = await freshHost();
    await grant(host);
    const desk = deskLines(host);
    const result = await callResult(host, { op: 'act', action: 'steal', id: 'bean-scarlet', packets: 1, expectedRevision: host.view().revision }, true);
    expect(result).toMatchObject({ stage: 'domain', isError: true, details: null });
    expect(deskLines(host)).toBe(desk);
  });
});

// ---- (5), (6) approval ----

describe('seed_desk through the host: approval policy', () => {
  it('deny: stage approval, isError true, the host text, and no desk entry even for a valid act', async () => {
    const { host } = await freshHost();
    await grant(host);
    host.setApprovalPolicy('deny');
    const desk = deskLines(host);
    const result = await callResult(host, act('reserve', 'bean-scarlet', 1, host.view().revision));
    expect(result).toEqual({ kind: 'result', callId: result.callId, stage: 'approval', isError: true, text: BLOCKED_BY_POLICY, details: null, approval: { policy: 'deny', tier: 'write', source: 'user' } });
    expect(messageOf(toolResultEntry(host, result.callId))).toMatchObject({ isError: true, content: [{ type: 'text', text: BLOCKED_BY_POLICY }] });
    expect(deskLines(host)).toBe(desk);
    expect(row(host.view(), 'bean-scarlet')).toEqual({ reserved: 0, available: 5 });
    expect(host.view().approvalPolicy).toBe('deny');
  });

  it('prompt: the call waits with a prompt; a second call and leaf moves are refused meanwhile', async () => {
    const { host } = await freshHost();
    await host.runLine('hello');
    const hello = host.view().leafId!;
    host.setApprovalPolicy('prompt');
    const pending = asApproval(await call(host, { op: 'query' }));
    expect(pending.callId).toMatch(/^call_/);
    expect(pending.prompt.startsWith('Allow tool: seed_desk')).toBe(true);
    expect(host.view().pendingApproval).toEqual({ callId: pending.callId, prompt: pending.prompt });
    // The toolCall is recorded; no result yet.
    expect(toolCallEntry(host, pending.callId)).toBeDefined();
    expect(toolResultEntries(host, pending.callId)).toEqual([]);
    const entryCount = host.view().entryCount;

    const second = await call(host, { op: 'discover' });
    expect(second.kind).toBe('failed');
    expect(second.kind === 'failed' && second.text).toMatch(/approval/);
    expect(host.view().entryCount).toBe(entryCount);

    const leaf = host.view().leafId;
    expect(() => host.moveLeaf(asEntryId(hello))).toThrow(/approval/);
    expect(() => host.stepBack()).toThrow(/approval/);
    expect(() => host.navigate(asEntryId(hello))).toThrow(/approval/);
    expect(host.view().leafId).toBe(leaf);
    expect(host.view().pendingApproval?.callId).toBe(pending.callId);
  });

  it('a wrong call id answers failed and leaves the real prompt waiting', async () => {
    const { host } = await freshHost();
    host.setApprovalPolicy('prompt');
    const pending = asApproval(await call(host, { op: 'query' }));
    const wrong = await host.answerApproval(`${pending.callId}x`, true);
    expect(wrong.kind).toBe('failed');
    expect(host.view().pendingApproval?.callId).toBe(pending.callId);
    expect(toolResultEntries(host, pending.callId)).toEqual([]);
    expect(asResult(await host.answerApproval(pending.callId, true)).stage).toBe('domain');
  });

  it('a user line while the prompt waits must not come between the toolCall and its toolResult', async () => {
    // host.ts says "The call's result must land under its own tool-call message". A seed desk
    // entry in between is fine (custom entries are not model messages: see the race test), but a
    // user message in between breaks the toolCall → toolResult pairing a model replay needs.
    const { host } = await freshHost();
    host.setApprovalPolicy('prompt');
    const pending = asApproval(await call(host, { op: 'query' }));
    await host.runLine('still there?');
    asResult(await host.answerApproval(pending.callId, true));
    const byId = new Map(journalEntries(host).map((entry) => [entry['id'], entry]));
    let parent = byId.get(toolResultEntry(host, pending.callId)['parentId']);
    while (parent && parent['type'] !== 'message') parent = byId.get(parent['parentId']);
    expect(parent?.['id']).toBe(toolCallEntry(host, pending.callId)['id']);
  });

  it('no prompt waiting: answerApproval fails and appends nothing', async () => {
    const { host } = await freshHost();
    const outcome = await host.answerApproval('call_nothing', true);
    expect(outcome.kind).toBe('failed');
    expect(host.view().entryCount).toBe(0);
  });

  it('approve: the domain runs and commits; the result lands under the call (desk entry between)', async () => {
    const { host } = await freshHost();
    await grant(host);
    host.setApprovalPolicy('prompt');
    const revision = host.view().revision;
    const args = act('reserve', 'basil-genovese', 2, revision);
    const pending = asApproval(await call(host, args));
    expect(deskLines(host)).toBe(1);
    const result = asResult(await host.answerApproval(pending.callId, true));
    expect(result).toMatchObject({ callId: pending.callId, stage: 'domain', isError: false });
    expect(detailsOf(result)).toMatchObject({ ok: true, scope: 'act' });
    expect(detailsOf(result).revision).not.toBe(revision);
    expect(row(host.view(), 'basil-genovese')).toEqual({ reserved: 2, available: 6 });
    expect(host.view().pendingApproval).toBeNull();
    const callEntry = toolCallEntry(host, pending.callId);
    const resultEntry = toolResultEntry(host, pending.callId);
    const desk = journalEntries(host).filter((entry) => entry['parentId'] === callEntry['id']);
    expect(desk).toEqual([expect.objectContaining({ type: 'custom', customType: 'seed-desk-state-v1' })]);
    expect(resultEntry['parentId']).toBe(desk[0]!['id']);
    // Approval is per call: the next call asks again.
    expect((await call(host, { op: 'query' })).kind).toBe('approval');
  });

  it('approve a read: answered by the domain, no desk entry', async () => {
    const { host } = await freshHost();
    host.setApprovalPolicy('prompt');
    const pending = asApproval(await call(host, { op: 'inspect', id: 'marigold-french' }));
    const result = asResult(await host.answerApproval(pending.callId, true));
    expect(result).toMatchObject({ stage: 'domain', isError: false });
    expect(detailsOf(result)).toMatchObject({ ok: true, scope: 'inspect', data: { item: { id: 'marigold-french', available: 3, reserved: 0 } } });
    expect(toolResultEntry(host, pending.callId)['parentId']).toBe(toolCallEntry(host, pending.callId)['id']);
    expect(deskLines(host)).toBe(0);
  });

  it('deny at the prompt: "Tool call denied by user: seed_desk", isError true, nothing changes', async () => {
    const { host } = await freshHost();
    await grant(host);
    host.setApprovalPolicy('prompt');
    const pending = asApproval(await call(host, act('reserve', 'bean-scarlet', 1, host.view().revision)));
    const result = asResult(await host.answerApproval(pending.callId, false));
    expect(result).toEqual({ kind: 'result', callId: pending.callId, stage: 'approval', isError: true, text: DENIED, details: null, approval: { policy: 'prompt', tier: 'write', source: 'user' } });
    const recorded = toolResultEntry(host, pending.callId);
    expect(recorded['parentId']).toBe(toolCallEntry(host, pending.callId)['id']);
    expect(messageOf(recorded)).toMatchObject({ isError: true, content: [{ type: 'text', text: DENIED }] });
    expect(deskLines(host)).toBe(1);
    expect(row(host.view(), 'bean-scarlet')).toEqual({ reserved: 0, available: 5 });
    expect(host.view().pendingApproval).toBeNull();
    // Answered once: the same id cannot be answered again.
    expect((await host.answerApproval(pending.callId, true)).kind).toBe('failed');
  });
});

// ---- (7) the race through approval ----

describe('seed_desk through the host: the race through an approval prompt', () => {
  it('a reservation lands while the act waits for approval: approving it is refused stale-revision, nothing reserved', async () => {
    const { host } = await freshHost();
    await grant(host);
    const revision = await queryRevision(host); // under the default policy, allow
    host.setApprovalPolicy('prompt');
    const pending = asApproval(await call(host, act('reserve', 'bean-scarlet', 1, revision)));

    const meanwhile = await host.meanwhileReserve('basil-genovese', 1);
    expect(meanwhile.kind).toBe('committed');
    const afterMeanwhile = host.view().revision;
    expect(afterMeanwhile).not.toBe(revision);
    const desk = deskLines(host);

    const result = asResult(await host.answerApproval(pending.callId, true));
    expect(result).toMatchObject({ stage: 'domain', isError: false });
    expect(detailsOf(result)).toMatchObject({ ok: false, scope: 'act', code: 'stale-revision', revision: afterMeanwhile });
    expect(deskLines(host)).toBe(desk);
    const view = host.view();
    expect(row(view, 'bean-scarlet')).toEqual({ reserved: 0, available: 5 });
    expect(row(view, 'basil-genovese')).toEqual({ reserved: 1, available: 7 });
    expect(view.revision).toBe(afterMeanwhile);
    expect(toolResultEntries(host, pending.callId)).toHaveLength(1);
  });
});

// ---- (8) headless ----

describe('seed_desk through the host: headless, with a persisted grant', () => {
  it('allow: an act commits without a UI; prompt: it fails closed with the host text and no pending prompt', async () => {
    const { host } = await freshHost();
    await grant(host);
    await host.reopen(); // the grant is in the journal, not in memory only
    expect(host.view().agentEnabled).toBe(true);
    host.setInteractive(false);

    const committed = await callResult(host, act('reserve', 'marigold-french', 2, host.view().revision));
    expect(committed).toMatchObject({ stage: 'domain', isError: false });
    expect(detailsOf(committed)).toMatchObject({ ok: true, scope: 'act' });
    expect(row(host.view(), 'marigold-french')).toEqual({ reserved: 2, available: 1 });

    host.setApprovalPolicy('prompt');
    const desk = deskLines(host);
    const blocked = await callResult(host, act('release', 'marigold-french', 1, host.view().revision));
    expect(blocked).toEqual({ kind: 'result', callId: blocked.callId, stage: 'approval', isError: true, text: NO_UI, details: null, approval: { policy: 'prompt', tier: 'write', source: 'user' } });
    expect(host.view().pendingApproval).toBeNull();
    expect(deskLines(host)).toBe(desk);
    expect(row(host.view(), 'marigold-french')).toEqual({ reserved: 2, available: 1 });
    expect(messageOf(toolResultEntry(host, blocked.callId))).toMatchObject({ isError: true, content: [{ type: 'text', text: NO_UI }] });
  });
});

// ---- (9) revoke ----

describe('seed_desk through the host: revoke', () => {
  it('after /seeds agent off is committed, an act with the current revision is refused agent-disabled', async () => {
    const { host } = await freshHost();
    await grant(host);
    expect(detailsOf(await callResult(host, act('reserve', 'bean-scarlet', 1, host.view().revision))).ok).toBe(true);
    await confirmLine(host, '/seeds agent off');
    expect(host.view().agentEnabled).toBe(false);
    const desk = deskLines(host);
    const result = await callResult(host, act('release', 'bean-scarlet', 1, host.view().revision));
    expect(result).toMatchObject({ stage: 'domain', isError: false });
    expect(detailsOf(result)).toMatchObject({ ok: false, code: 'agent-disabled', agentEnabled: false });
    expect(deskLines(host)).toBe(desk);
    // The revoke keeps the reservation made before it.
    expect(row(host.view(), 'bean-scarlet')).toEqual({ reserved: 1, available: 4 });
  });
});

// ---- (10) every refusal through the tool path appends no desk entry ----

describe('seed_desk through the host: refusals append no seed desk entry', () => {
  type Case = { name: string; code: string; setup: (host: PlaygroundHost) => Promise<void>; args: (revision: string) => unknown };
  const granted = async (host: PlaygroundHost) => grant(host);
  const cases: Case[] = [
    { name: 'no grant', code: 'agent-disabled', setup: async () => undefined, args: (r) => act('reserve', 'bean-scarlet', 1, r) },
    { name: 'an old revision', code: 'stale-revision', setup: granted, args: () => act('reserve', 'bean-scarlet', 1, 'not-a-revision') },
    { name: 'an invented id', code: 'invalid-target', setup: granted, args: (r) => act('reserve', 'tomato-cherry', 1, r) },
    { name: 'an invented id (inspect)', code: 'invalid-target', setup: granted, args: () => ({ op: 'inspect', id: 'tomato-cherry' }) },
    ...[0, -1, 1.5, 2 ** 53].map((packets) => ({ name: `${packets} packets`, code: 'invalid-quantity', setup: granted, args: (r: string) => act('reserve', 'bean-scarlet', packets, r) })),
    { name: 'more than available', code: 'insufficient-availability', setup: granted, args: (r) => act('reserve', 'bean-scarlet', 6, r) },
    { name: 'a release with none held', code: 'insufficient-reservation', setup: granted, args: (r) => act('release', 'bean-scarlet', 1, r) },
  ];

  it.each(cases)('$name → $code', async ({ code, setup, args }) => {
    const { host, store } = await freshHost();
    await setup(host);
    const before = deskLines(host);
    const stored = await store.countEntries(host.sessionId);
    const revision = host.view().revision;
    const result = await callResult(host, args(revision));
    expect(result).toMatchObject({ stage: 'domain', isError: false });
    expect(detailsOf(result)).toMatchObject({ ok: false, code, revision });
    expect(result.text).toContain(`Refused (${code})`);
    expect(deskLines(host)).toBe(before);
    expect(host.view().seedDeskEntryCount).toBe(before);
    expect(host.view().revision).toBe(revision);
    // Exactly the toolCall and the toolResult were stored.
    expect(await store.countEntries(host.sessionId)).toBe(stored + 2);
    expect(messageOf(toolResultEntry(host, result.callId))).toMatchObject({ isError: false, details: { ok: false, code } });
    expect(host.events().some((event) => event.kind === 'notification' && event.level === 'warning' && event.text.includes(`Refused (${code})`))).toBe(true);
  });

  it('corrupt-state: after an invalid snapshot, query and act are refused and append no desk entry', async () => {
    const { host } = await freshHost();
    await grant(host);
    const corrupted = await host.appendCorruptSnapshot();
    expect(corrupted.kind).toBe('notice');
    expect(host.view().corrupt).not.toBeNull();
    const before = deskLines(host);
    const revision = host.view().revision;

    const query = await callResult(host, { op: 'query' });
    expect(query).toMatchObject({ stage: 'domain', isError: false });
    expect(detailsOf(query)).toMatchObject({ ok: false, scope: 'query', code: 'corrupt-state', revision });

    const acted = await callResult(host, act('reserve', 'bean-scarlet', 1, revision));
    expect(acted).toMatchObject({ stage: 'domain', isError: false });
    expect(detailsOf(acted)).toMatchObject({ ok: false, scope: 'act', code: 'corrupt-state', revision });

    expect(deskLines(host)).toBe(before);
    expect(host.view().revision).toBe(revision);
    // discover still answers, and says the branch is corrupt.
    const discover = await callResult(host, { op: 'discover' });
    expect(detailsOf(discover)).toMatchObject({ ok: true, scope: 'discover' });
    expect(discover.text).toMatch(/corrupt/);
  });
});

// ---- (11), (12) nothing / latch ----

describe('seed_desk through the host: failures before and during the call', () => {
  it('invalid JSON text: failed, and nothing at all is appended', async () => {
    const { host, store } = await freshHost();
    await host.runLine('hello');
    const jsonl = host.exportSession().jsonl;
    const outcome = await host.callTool('{"op": "query"', false);
    expect(outcome.kind).toBe('failed');
    expect(outcome.kind === 'failed' && outcome.text).toMatch(/not valid JSON/);
    expect(host.exportSession().jsonl).toBe(jsonl);
    expect(await store.countEntries(host.sessionId)).toBe(1);
    expect(host.view().writeFailure).toBeNull();
  });

  it('a storage fault before a tool act: failed, nothing stored, writes latched until reopen', async () => {
    const { host, store } = await freshHost();
    await grant(host);
    const before = host.view();
    host.injectFault('quota');
    const outcome = await call(host, act('reserve', 'bean-scarlet', 1, before.revision));
    expect(outcome.kind).toBe('failed');
    let view = host.view();
    expect(view.writeFailure).toMatch(/quota/i);
    expect(view.entryCount).toBe(before.entryCount);
    expect(view.revision).toBe(before.revision);
    expect(await store.countEntries(host.sessionId)).toBe(before.entryCount);

    // Latched: the next call fails without reaching the store, though no fault is armed any more.
    const next = await call(host, act('reserve', 'bean-scarlet', 1, before.revision));
    expect(next.kind === 'failed' && next.text).toMatch(/Writes are stopped/);
    expect(await store.countEntries(host.sessionId)).toBe(before.entryCount);

    await host.reopen();
    expect(host.view().writeFailure).toBeNull();
    const result = await callResult(host, act('reserve', 'bean-scarlet', 1, before.revision));
    expect(detailsOf(result)).toMatchObject({ ok: true, scope: 'act' });
    view = host.view();
    expect(row(view, 'bean-scarlet')).toEqual({ reserved: 1, available: 4 });
    expect(await store.countEntries(host.sessionId)).toBe(view.entryCount);
  });

  it('a storage fault on the act’s own commit (armed while approval waits): failed, no desk entry, latched', async () => {
    const { host, store } = await freshHost();
    await grant(host);
    host.setApprovalPolicy('prompt');
    const revision = host.view().revision;
    const pending = asApproval(await call(host, act('reserve', 'bean-scarlet', 1, revision)));
    const stored = await store.countEntries(host.sessionId);
    host.injectFault('abort');
    const outcome = await host.answerApproval(pending.callId, true);
    expect(outcome.kind).toBe('failed');
    const view = host.view();
    expect(view.writeFailure).toMatch(/abort/i);
    expect(view.revision).toBe(revision);
    expect(deskLines(host)).toBe(1);
    expect(await store.countEntries(host.sessionId)).toBe(stored);
    expect(view.entryCount).toBe(stored);
    expect(view.pendingApproval).toBeNull();
    expect(toolResultEntries(host, pending.callId)).toEqual([]);
  });

  it('a commit the store lost leaves no changed event for it', async () => {
    const { host } = await freshHost();
    await grant(host);
    host.setApprovalPolicy('prompt');
    const pending = asApproval(await call(host, act('reserve', 'bean-scarlet', 1, host.view().revision)));
    host.injectFault('abort');
    expect((await host.answerApproval(pending.callId, true)).kind).toBe('failed');
    expect(changedEvents(host).map((event) => (event.kind === 'event' ? JSON.parse(event.payload).reason : null))).toEqual(['agent-on']);
  });

  it('writes latched while an approval waits: answering it must not write either', async () => {
    const { host, store } = await freshHost();
    await grant(host);
    host.setApprovalPolicy('prompt');
    const revision = host.view().revision;
    const pending = asApproval(await call(host, act('reserve', 'bean-scarlet', 1, revision)));
    // Some other write fails meanwhile, and latches the storage failure.
    host.injectFault('abort');
    expect((await host.meanwhileReserve('basil-genovese', 1)).kind).toBe('failed');
    expect(host.view().writeFailure).toMatch(/abort/i);
    const stored = await store.countEntries(host.sessionId);

    const outcome = await host.answerApproval(pending.callId, true);
    expect(outcome.kind).toBe('failed');
    expect(await store.countEntries(host.sessionId)).toBe(stored);
    expect(row(host.view(), 'bean-scarlet')).toEqual({ reserved: 0, available: 5 });
    expect(host.view().revision).toBe(revision);
  });

  it('writes latched while an approval waits: denying it must not write either', async () => {
    const { host, store } = await freshHost();
    host.setApprovalPolicy('prompt');
    const pending = asApproval(await call(host, { op: 'query' }));
    host.injectFault('abort');
    expect((await host.meanwhileReserve('basil-genovese', 1)).kind).toBe('failed');
    expect(host.view().writeFailure).toMatch(/abort/i);
    const stored = await store.countEntries(host.sessionId);
    const outcome = await host.answerApproval(pending.callId, false);
    expect(outcome.kind).toBe('failed');
    expect(await store.countEntries(host.sessionId)).toBe(stored);
  });
});

// ---- (13) reopen while an approval waits ----

describe('seed_desk through the host: reopen while an approval waits', () => {
  it('drops the pending call with a warning; its toolCall stays without a result; the id can no longer be answered', async () => {
    const { host, store } = await freshHost();
    await grant(host);
    host.setApprovalPolicy('prompt');
    const pending = asApproval(await call(host, act('reserve', 'bean-scarlet', 1, host.view().revision)));
    expect(host.view().pendingApproval).not.toBeNull();
    const stored = await store.countEntries(host.sessionId);

    await host.reopen();
    const view = host.view();
    expect(view.pendingApproval).toBeNull();
    expect(host.events().some((event) => event.kind === 'notification' && event.level === 'warning' && event.text.includes(pending.callId))).toBe(true);
    expect(toolCallEntry(host, pending.callId)).toBeDefined();
    expect(toolResultEntries(host, pending.callId)).toEqual([]);
    // The only entry the reopen added is the host's session_exit (the session holds an assistant message).
    expect(await store.countEntries(host.sessionId)).toBe(stored + 1);
    expect(host.currentJournal().get(view.leafId ?? '')?.['customType']).toBe('session_exit');
    expect(deskLines(host)).toBe(1);

    expect((await host.answerApproval(pending.callId, true)).kind).toBe('failed');
    expect(row(host.view(), 'bean-scarlet')).toEqual({ reserved: 0, available: 5 });
    // The leaf may move again, and a new call asks afresh.
    expect(() => host.stepBack()).not.toThrow();
    expect((await call(host, { op: 'discover' })).kind).toBe('approval');
  });
});
