import '$domain/zodSetup';
import * as z from 'zod/mini';
import { splitSlashCommand } from '$domain/command/parse';
import { userMessageEntry } from '$domain/journal/entry';
import type { SeedsOutcome } from '../../../extension/outcome';
import type { DeepReadonly } from '../protocol/deepReadonly';
import { DeskChangeSchema, QueryAnswerSchema, RefusalCodeSchema, type LineOutcome, type RunEnd } from '../protocol/outcomes';
import type { UiAnswer, UiRequestKind } from '../protocol/uiRequests';
import { sameType } from '../protocol/sameType';
import type { HostCore, RunReport } from './hostCore';
import { customEntries } from './customEntries';
import type { DialogAnswerer } from './omp/extensionRuntime';
import type { Invocation } from './omp/extensionRuntime';

/**
 * The command line, as the host dispatches it: a plain line is a user message; `/name args` runs
 * the command an extension registered under `name`, with `args` the raw rest of the line. What the
 * command decides and says is the extension's; this file only runs it and reports what it saw
 * (its outcome, parsed once, at the end of this file).
 */
export async function runLine(core: HostCore, line: string, headless = false): Promise<RunEnd> {
  if (headless) {
    // This one line runs as a host without UI would (the Refusals view's ui-required demo).
    const interactive = core.interactive;
    core.interactive = false;
    try {
      return await runLine(core, line);
    } finally {
      core.interactive = interactive;
    }
  }
  if (line.trim().length === 0) return { kind: 'usage', text: 'Type a message, or a command such as /seeds query.' };
  // The Command box is empty once its line is sent: what an extension reads of it starts over.
  core.pageUi.lineSubmitted();
  // The host hands a command the raw rest of the line after the first space, trailing spaces kept.
  const slash = splitSlashCommand(line.trimStart());
  if (!slash) return say(core, line.trim());
  return runCommand(core, slash.name, slash.args);
}

/** Runs `/name args` through the loaded extension; `answerer` says who answers what it asks of the UI. */
export async function runCommand(core: HostCore, name: string, args: string, answerer: DialogAnswerer = 'page'): Promise<RunEnd> {
  const run = core.extensions.runCommand(name, args, answerer);
  if (run) return followRun(core, run, 0, (leg, from) => runEndOf(leg, from, name, core.journal.revision()));
  // The host has no "unknown command": a line no extension claims goes to the model as a message.
  const said = await say(core, args === '' ? `/${name}` : `/${name} ${args}`);
  if (said.kind !== 'said') return said;
  const known = [...core.extensions.commands.keys()].map((command) => `/${command}`).join(', ');
  return { kind: 'said', text: `No extension registered /${name} (the loaded ones registered ${known || 'nothing'}), so the host sent the line to the model as an ordinary message. ${said.text}` };
}

/**
 * Waits for a run to finish or to stop at a UI request, then for the store, and reports. A run
 * that waits on the page is kept under its request's id, with how to report it, until the answer
 * comes.
 */
export async function followRun(core: HostCore, run: Invocation, from: number, report: RunReport): Promise<RunEnd> {
  await run.settle();
  const failure = await core.settleWrites();
  if (failure !== null) return { kind: 'failed', text: failure };
  if (run.asked) core.waiting.set(run.asked.request.id, { run, report });
  return report(run, from);
}

/** Each kind of request as a sentence names it. */
const REQUEST_NAMES: Readonly<Record<UiRequestKind, string>> = { confirm: 'a confirmation', select: 'a choice', input: 'a text', editor: 'an edited text' };

/** The page's answer to what a run asked: the run goes on from its `await`, and this reports how it ended. */
export async function answerUi(core: HostCore, answer: UiAnswer): Promise<RunEnd> {
  const waiting = core.waiting.get(answer.id);
  // Not a failed write: the page answered something that is not waiting (the goals must not count it as one).
  if (!waiting) return { kind: 'usage', text: 'That request is no longer open (the worker restarted or it was answered already): nothing was changed.' };
  const asked = waiting.run.asked;
  if (asked?.request.kind !== answer.kind) return { kind: 'usage', text: `That answer is for ${REQUEST_NAMES[answer.kind]}, but the extension asked for ${asked ? REQUEST_NAMES[asked.request.kind] : 'nothing'}: nothing was changed.` };
  core.waiting.delete(answer.id);
  const from = waiting.run.notices.length;
  waiting.run.answer(answer);
  return followRun(core, waiting.run, from, waiting.report);
}

/**
 * A run's end as the page receives it: with the extension that ran it and the seed desk entries
 * before and after (so the page reads these facts from the answer, not from its desk).
 */
export async function reported(core: HostCore, run: () => Promise<RunEnd>): Promise<LineOutcome> {
  const before = core.journal.seedDeskEntryCount;
  const size = core.journal.size;
  const by = core.extensionKind;
  const version = core.editedVersion;
  const end = await run();
  const own = core.own ? { own: true as const, custom: customEntries(core.journal, core.journal.size - size) } : {};
  return { ...end, by, ...(version ? { version } : {}), deskEntries: { before, after: core.journal.seedDeskEntryCount }, ...own };
}

async function say(core: HostCore, text: string): Promise<RunEnd> {
  // A model replays toolCall/toolResult as a pair: no user message may come between them.
  if (core.pendingApproval) return { kind: 'usage', text: `A ${core.pendingApproval.toolName} call is waiting for host approval: approve or deny it first, then write your message.` };
  if (core.writeFailure !== null) return { kind: 'failed', text: core.blockedText() };
  const entry = userMessageEntry(text, core.place());
  core.appendNow(entry);
  const failure = await core.settleWrites();
  if (failure !== null) return { kind: 'failed', text: failure };
  return { kind: 'said', text: `Added your message as entry ${entry.id}. The revision stays ${core.journal.revision()}.` };
}

/**
 * The `/seeds` handler's return value (extension/outcome.ts), read as untrusted data: the worker
 * runs whatever extension is loaded, and an edited one may return anything. Parsed once, here.
 */
const SeedsOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('usage') }),
  z.object({ kind: z.literal('answer'), ...QueryAnswerSchema.def.shape }),
  z.object({ kind: z.literal('refused'), code: RefusalCodeSchema, change: z.nullable(DeskChangeSchema) }),
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

export function joinLines(first: string, second: string): string {
  return first.length > 0 ? `${first}\n${second}` : second;
}
