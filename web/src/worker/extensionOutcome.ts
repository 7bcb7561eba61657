import '$domain/zodSetup';
import * as z from 'zod/mini';
import { REFUSAL_CODES } from '$domain/refusal';
import type { SeedsOutcome } from '../../../extension/outcome';
import type { DeepReadonly } from '../protocol/deepReadonly';
import { DeskChangeSchema, type RunEnd } from '../protocol/outcomes';
import { sameType } from '../protocol/sameType';
import type { Invocation } from './omp/invocation';

/**
 * The `/seeds` handler's return value (extension/outcome.ts), read as untrusted data: the worker
 * runs whatever extension is loaded, and an edited one may return anything. Parsed once, here.
 */
const SeedsOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('usage') }),
  z.object({ kind: z.literal('answer'), revision: z.string(), rows: z.array(z.object({ id: z.string(), available: z.number(), reserved: z.number() })) }),
  z.object({ kind: z.literal('refused'), code: z.enum(REFUSAL_CODES), change: z.nullable(DeskChangeSchema) }),
  z.object({ kind: z.literal('cancelled'), change: DeskChangeSchema, revision: z.string() }),
  z.object({ kind: z.literal('committed'), change: DeskChangeSchema, revision: z.string() }),
]);
// The schema re-states the extension's own type (a trust boundary): the two change together.
sameType<DeepReadonly<z.infer<typeof SeedsOutcomeSchema>>, SeedsOutcome>(true);

/**
 * What a finished (or UI-stopped) command run comes to for the page: the text is what the
 * extension said (`from`: the notices of this leg of the run only), the kind and data are the
 * handler's own outcome; `revision`: the branch's, for a run that asked. The host decides
 * nothing here; it only reports.
 */
export function runEndOf(run: Invocation, from: number, name: string, revision: string): RunEnd {
  const text = run.said(from);
  if (run.asked) return { kind: 'asked', request: run.asked.request, text, revision };
  const result = run.result;
  if (result === null) return { kind: 'notice', text };
  if (!result.ok) return { kind: 'error', text: joinLines(text, extensionErrorText(name, result.error)) };
  const parsed = SeedsOutcomeSchema.safeParse(result.value);
  if (!parsed.success) return { kind: 'notice', text };
  const outcome = parsed.data;
  switch (outcome.kind) {
    case 'usage':
      return { kind: 'usage', text };
    case 'answer':
      return { kind: 'answer', text, query: { revision: outcome.revision, rows: outcome.rows } };
    case 'refused':
      return { kind: 'refused', code: outcome.code, text, change: outcome.change };
    case 'cancelled':
      return { kind: 'cancelled', text, change: outcome.change };
    case 'committed':
      return { kind: 'committed', text, change: outcome.change, revision: outcome.revision };
  }
}

/** How the host's interactive mode shows a command handler that threw (an extension error, not a chat message). */
export function extensionErrorText(name: string, message: string): string {
  return `Extension "command:${name}" error: ${message}`;
}

function joinLines(first: string, second: string): string {
  return first.length > 0 ? `${first}\n${second}` : second;
}
