/**
 * Small readers of what the real host shows, shared by the behaviour checks (Bun). Expected texts
 * come from the playground's own domain, so "the same text as the playground" is checked against
 * the very functions the playground calls.
 */
import assert from 'node:assert/strict';
import { existsSync } from 'node:fs';
import { familyQuery, queryText } from '../domain/deskText';
import { deskRows, type Snapshot } from '../domain/snapshot';
import { readDesk } from '../extension/deskState';
import { openSession, type Harness, type HostToolResult } from './omp';

export function lastNote(h: Harness): { type: string; message: string } {
  const note = h.ui.notes.at(-1);
  if (!note) throw new Error('the extension notified nothing');
  return note;
}

/** The refusal code a notice starts with, `Refused (<code>): …` (refusalText's fixed prefix). */
export function refusedCode(message: string): string | null {
  return /^Refused \(([a-z-]+)\)/.exec(message)?.[1] ?? null;
}

export function details(result: HostToolResult): Record<string, unknown> {
  assert.ok(typeof result.details === 'object' && result.details !== null, `tool result without details: ${JSON.stringify(result)}`);
  return result.details as Record<string, unknown>;
}

export function text(result: HostToolResult): string {
  return result.content.map((part) => part.text ?? '').join('\n');
}

/**
 * The current revision, read with the extension's own reconstruction rather than through the
 * tool, so that reading it never meets the approval gate a check is exercising.
 */
export async function revisionOf(h: Harness): Promise<string> {
  return readDesk({ sessionManager: h.sm, hasUI: false, ui: { confirm: async () => false, select: async () => undefined, input: async () => undefined, notify: () => {}, setStatus: () => {} } }).revision;
}

export function expectedQuery(snapshot: Snapshot, revision: string, family?: string): string {
  return family === undefined ? queryText(deskRows(snapshot), revision as never) : familyQuery(deskRows(snapshot), family, revision as never).text;
}

export function snapshot(agentEnabled: boolean, quantities: Snapshot['quantities']): Snapshot {
  return { version: 1, agentEnabled, quantities };
}

export async function confirmed(h: Harness, line: string): Promise<void> {
  const before = h.deskEntries().length;
  h.answers = { ...h.answers, confirm: () => true };
  await h.command(line);
  assert.equal(h.deskEntries().length, before + 1, `${line} should append one entry; notes: ${JSON.stringify(h.ui.notes.slice(-2))}`);
}

export async function act(h: Harness, action: 'reserve' | 'release', id: string, packets: unknown, expectedRevision?: unknown): Promise<HostToolResult> {
  return h.tool({ op: 'act', action, id, packets, expectedRevision: expectedRevision ?? (await revisionOf(h)) });
}

export interface CheckContext {
  /** A fresh directory per session group. */
  dir(name: string): string;
}

/** What the `/seeds` handler last resolved to (the host drops it; the harness keeps it). */
export function lastOutcome(h: Harness): Record<string, unknown> {
  const run = h.commandRuns.at(-1);
  assert.ok(run?.ok, `the last command run threw or none ran: ${JSON.stringify(run)}`);
  assert.ok(typeof run.value === 'object' && run.value !== null, `the handler returned ${JSON.stringify(run.value)}`);
  return run.value as Record<string, unknown>;
}

export function entryIds(h: Harness): string[] {
  return h.sm.getEntries().map((entry) => entry.id);
}

export function entryTypes(entries: readonly { type: string; [key: string]: unknown }[]): string[] {
  return entries.map((entry) => (entry.type === 'custom' ? `custom:${String(entry['customType'])}` : entry.type === 'message' ? `message:${String((entry['message'] as { role?: unknown }).role)}` : entry.type));
}

/**
 * A reopen as a new host process: the session disposed (the host writes `session_exit` when it
 * holds an assistant message), then its file opened again. The file must exist: the host writes
 * none before the first assistant message, so a check that reopens makes a tool call first.
 */
export async function reopened(h: Harness, dir: string, options: { headless?: boolean } = {}): Promise<Harness> {
  const file = h.sm.getSessionFile();
  await h.close();
  if (!file || !existsSync(file)) throw new Error('the host wrote no session file to reopen (no assistant message in the session)');
  return openSession({ dir, file, ...options });
}
