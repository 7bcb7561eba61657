/** Reading the real host's session as the differential's traces show it (Bun). */
import { readDesk } from '../extension/deskState';
import type { ExtensionContext, HostEntry } from '../extension/ompApi';
import type { CommandRun, Harness } from './omp';
import type { DeskView, Outcome } from './script';

const DESK = 'seed-desk-state-v1';

export function observer(h: Harness): ExtensionContext {
  return { sessionManager: h.sm, hasUI: false, ui: { confirm: async () => false, select: async () => undefined, input: async () => undefined, notify: () => {}, setStatus: () => {} } };
}

export function deskView(h: Harness): DeskView {
  const state = readDesk(observer(h));
  return state.ok
    ? { revision: state.revision, ok: true, agentEnabled: state.snapshot.agentEnabled, quantities: state.snapshot.quantities }
    : { revision: state.revision, ok: false, agentEnabled: null, quantities: null };
}

export const isDesk = (entry: HostEntry) => entry.type === 'custom' && entry['customType'] === DESK;
export const isUserMessage = (entry: HostEntry | undefined) => entry?.type === 'message' && (entry['message'] as { role?: unknown } | undefined)?.role === 'user';

/** What a `/seeds` run returned, in the trace's terms (the same reading as the worker's commands.ts). */
export function commandOutcome(run: CommandRun | undefined): Outcome {
  if (!run) return { kind: 'command', result: 'none' };
  if (!run.ok) return { kind: 'command', result: 'error' };
  const value = run.value as { kind?: unknown; code?: unknown; revision?: unknown; change?: unknown } | null;
  const result = typeof value?.kind === 'string' ? value.kind : 'notice';
  switch (result) {
    case 'answer':
      return { kind: 'command', result, revision: String(value!.revision) };
    case 'refused':
      return { kind: 'command', result, code: String(value!.code), change: value!.change ?? null };
    case 'cancelled':
      return { kind: 'command', result, change: value!.change };
    case 'committed':
      return { kind: 'command', result, revision: String(value!.revision), change: value!.change };
    default:
      return { kind: 'command', result };
  }
}

/** The newest seed desk entry (file order) that is not on the branch, and its revision. */
export function newestOffBranch(h: Harness): { entry: HostEntry; revision: string } | null {
  const onBranch = new Set(h.sm.getBranch().map((entry) => entry.id));
  const other = h.deskEntries().filter((entry) => !onBranch.has(entry.id)).at(-1);
  return other ? { entry: other, revision: `${h.sm.getSessionId()}:${other.id}` } : null;
}
