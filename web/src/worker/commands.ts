import { userMessageEntry } from '$domain/journal/entry';
import type { LineOutcome } from '../protocol/messages';
import { lineOutcomeOf } from './extensionOutcome';
import type { HostCore } from './hostCore';
import type { DialogAnswerer } from './omp/extensionRuntime';
import type { Invocation } from './omp/invocation';
import { splitSlashCommand } from './omp/slash';

/**
 * The command line, as the host dispatches it: a plain line is a user message; `/name args` runs
 * the command an extension registered under `name`, with `args` the raw rest of the line. What the
 * command decides and says is the extension's; this file only runs it and reports what it saw.
 */
export async function runLine(core: HostCore, line: string, headless = false): Promise<LineOutcome> {
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
  // The host hands a command the raw rest of the line after the first space, trailing spaces kept.
  const slash = splitSlashCommand(line.trimStart());
  if (!slash) return say(core, line.trim());
  return runCommand(core, slash.name, slash.args);
}

/** Runs `/name args` through the loaded extension; `answerer` says who answers its dialogs. */
export async function runCommand(core: HostCore, name: string, args: string, answerer: DialogAnswerer = 'page'): Promise<LineOutcome> {
  const run = core.extensions.runCommand(name, args, answerer);
  if (run) return followRun(core, run, 0, name);
  // The host has no "unknown command": a line no extension claims goes to the model as a message.
  const said = await say(core, args === '' ? `/${name}` : `/${name} ${args}`);
  if (said.kind !== 'said') return said;
  const known = [...core.extensions.commands.keys()].map((command) => `/${command}`).join(', ');
  return { kind: 'said', text: `No extension registered /${name} (the loaded ones registered ${known || 'nothing'}), so the host sent the line to the model as an ordinary message. ${said.text}` };
}

/**
 * Waits for a run to finish or to stop at a dialog, then for the store, and reports. A dialog the
 * page must answer is remembered by its id until the answer comes.
 */
export async function followRun(core: HostCore, run: Invocation, from: number, name: string): Promise<LineOutcome> {
  await run.settle();
  const failure = await core.settleWrites();
  if (failure !== null) return { kind: 'failed', text: failure };
  if (run.dialog) core.dialogs.set(run.dialog.id, run);
  return lineOutcomeOf(run, from, name);
}

/** The page's answer to a dialog: the run goes on from its `await`, and this reports how it ended. */
export async function answerDialog(core: HostCore, dialogId: string, confirmed: boolean): Promise<LineOutcome> {
  const run = core.dialogs.get(dialogId);
  if (!run) return { kind: 'failed', text: 'That dialog is no longer open (the worker restarted or it was answered already): nothing was changed.' };
  core.dialogs.delete(dialogId);
  const from = run.notices.length;
  run.answer(confirmed);
  return followRun(core, run, from, 'seeds');
}

async function say(core: HostCore, text: string): Promise<LineOutcome> {
  // A model replays toolCall/toolResult as a pair: no user message may come between them.
  if (core.pendingApproval) return { kind: 'usage', text: `A ${core.pendingApproval.toolName} call is waiting for host approval: approve or deny it first, then write your message.` };
  if (core.writeFailure !== null) return { kind: 'failed', text: core.blockedText() };
  const entry = userMessageEntry(text, core.place());
  core.appendNow(entry);
  const failure = await core.settleWrites();
  if (failure !== null) return { kind: 'failed', text: failure };
  return { kind: 'said', text: `Added your message as entry ${entry.id}. The revision stays ${core.journal.revision()}.` };
}
