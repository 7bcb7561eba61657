/**
 * The own extensions test:host runs in both hosts (issue 37, point 4): each OMP 18.2.3 example the
 * page offers (fixtures/omp-examples/, unchanged) and the template (extension/own/template.ts),
 * each alone in place of the Seed Desk, through one script shape: a user message, the extension's
 * commands and tool calls, a scripted model's turn, OMP's /fork, more of its commands, OMP's
 * /branch from the user message, a new session, and a switch back to the first session. The UI
 * requests it makes are answered from the script's `answers`.
 *
 * KNOWN_OWN_DIFFERENCES: the extensions the page's host cannot run the same way yet, each with
 * why. The comparison prints their differences as "known difference" instead of failing, and fails
 * when one no longer differs, so the list only ever shrinks. Empty it as the page's host gains
 * what it names (issue 37, point 2: branch h37-api).
 */
import { ownLessonScripts } from './ownLessonScripts';
import type { Script, Step } from './script';

export const KNOWN_OWN_DIFFERENCES: Readonly<Record<string, string>> = {};

const FIRST = 'Plan the beds for spring.';

/** The shape every own script has; `before`: the extension's own steps before the turn; `after`: after the fork; `end`: after the switch back. */
function shape(about: string, extension: string, parts: { before?: Step[]; turn?: Extract<Step, { turn: unknown }>; after?: Step[]; branched?: Step[]; end?: Step[]; answers?: Script['answers'] }): Script {
  const steps: Step[] = [
    { say: FIRST },
    ...(parts.before ?? []),
    parts.turn ?? { turn: 'What should I sow first?' },
    { mark: 'first' },
    { fork: true },
    ...(parts.after ?? []),
    { branch: FIRST },
    ...(parts.branched ?? []),
    { newSession: true },
    { switchTo: 'first' },
    ...(parts.end ?? []),
  ];
  const name = extension.split('/').at(-1)!.replace(/\.ts$/, '');
  return { name, about, extension, steps, ...(parts.answers ? { answers: parts.answers } : {}) };
}

export function ownScripts(): Script[] {
  return [
    shape('OMP example hello.ts: a tool with pi.zod parameters', 'fixtures/omp-examples/hello.ts', {
      before: [{ tool: { name: 'Ada' }, name: 'hello' }],
      turn: { turn: 'Greet Grace for me.', call: { name: 'hello', args: { name: 'Grace' } } },
      after: [{ tool: { name: 'Linus' }, name: 'hello' }],
    }),
    shape('OMP example pirate.ts: a command and before_agent_start (systemPromptAppend)', 'fixtures/omp-examples/pirate.ts', {
      before: [{ command: '/pirate' }],
      after: [{ command: '/pirate' }, { turn: 'And now?' }],
    }),
    shape('OMP example status-line.ts: setStatus on session_start, turn_start, turn_end, session_switch', 'fixtures/omp-examples/status-line.ts', {
      after: [{ turn: 'One more thing.' }],
      branched: [{ turn: 'On the branch.' }],
    }),
    // OMP's fork asks session_before_switch with reason "fork", which this example treats as a resume.
    shape('OMP example confirm-destructive.ts: session_before_switch and session_before_branch, cancelled and not', 'fixtures/omp-examples/confirm-destructive.ts', {
      branched: [{ branch: FIRST }, { newSession: true }],
      answers: [true, 'No, stay in current session', 'Yes, create branch', false, true],
    }),
    shape('the template (extension/own/template.ts): a note per branch in custom entries, a command and a tool', 'extension/own/template.ts', {
      before: [{ command: '/note sow the beans' }, { command: '/note' }, { tool: {}, name: 'read_note' }],
      turn: { turn: 'What does the note say?', call: { name: 'read_note', args: {} } },
      after: [{ command: '/note sow the peas' }, { command: '/note' }],
      branched: [{ command: '/note' }],
      end: [{ command: '/note' }, { tool: {}, name: 'read_note' }],
    }),
    // The agent loop's notifications (issue 37, point 1): a call that runs, one the argument check refuses, and a reopen (session_shutdown).
    // Its Tool call steps are left out: the real harness calls a tool outside OMP's loop, while the page's Tool call tab fires them.
    shape('test:host\'s loop-events.ts: message_start/end, tool_execution_start/end, session_shutdown, and the reads /facts says', 'host-test/own/loop-events.ts', {
      before: [{ command: '/facts' }],
      turn: { turn: 'Shout sow.', call: { name: 'shout', args: { word: 'sow' } } },
      after: [{ turn: 'Shout nothing.', call: { name: 'shout', args: {} } }, { command: '/facts' }],
      end: [{ reopen: true }, { command: '/facts' }],
    }),
    // A command's session controls (issue 37): ctx.branch and ctx.newSession, their before-events' dialogs inside the command, cancelled and not.
    shape('test:host\'s session-controls.ts: ctx.branch and ctx.newSession from a command, each asked first', 'host-test/own/session-controls.ts', {
      end: [{ command: '/rebranch' }, { command: '/rebranch' }, { command: '/renew' }, { command: '/renew' }],
      answers: [true, true, true, true, false, true, false, true],
    }),
    // Issue 37's lesson: its solution under each version it runs.
    ...ownLessonScripts(),
  ];
}
