import type { Observed } from './facts';
import type { ChangeMatch, Condition, Count, OutcomeMatch, ToolMatch } from '../../../lessons/format/goalSchema';
import { stateValues } from './goalState';

/**
 * The words of a "not yet" reason: `{name}` placeholders filled from the page and the matched
 * fact, and, for a part the step gave no `unmet` text, a sentence made from its condition.
 */

/** `{name}` (lower-case letters, digits, dots, dashes) is replaced when known; JSON like `{"op":"query"}` is left alone. */
export function fillIn(text: string, observed: Observed, values: Readonly<Record<string, string>>): string {
  const known = { ...stateValues(observed), ...values };
  return text.replace(/\{([a-zA-Z][\w.-]*)\}/g, (whole, name: string) => known[name] ?? whole);
}

const count = (value: Count): string =>
  typeof value === 'number' ? String(value) : value.atMost === undefined ? `at least ${value.atLeast ?? 0}` : value.atLeast === undefined ? `at most ${value.atMost}` : `${value.atLeast} to ${value.atMost}`;

function change(match: ChangeMatch | undefined): string {
  if (!match) return 'a change';
  if (match.grant) return `switching the agent ${match.grant}`;
  const action = match.reserve !== undefined ? 'reserve' : 'release';
  const item = match.reserve ?? match.release;
  return `a ${action} of ${match.packets ?? ''}${match.packets === undefined ? '' : ' '}${item === 'any' ? 'any item' : item}`;
}

const OUTCOME_WORDS: Readonly<Record<OutcomeMatch['kind'], string>> = {
  answered: 'a `/seeds query` answer',
  said: 'a message in the conversation',
  committed: 'a confirmed change',
  cancelled: 'a cancelled dialog',
  refused: 'a refusal',
  failed: 'a failed write',
  meanwhile: 'a "Meanwhile" action while the dialog waits',
  moved: 'a move in the Session tree ("Branch from here")',
  reopened: 'a "Reopen session"',
  'new-session': 'a "New session"',
  forked: 'a fork of the session',
  'from-another-tab': 'an entry from another tab',
  corrupted: 'an invalid snapshot from the Refusals panel',
  'own-ran': 'your own extension run with "Run my version"',
};

function outcome(match: OutcomeMatch): string {
  const parts = [OUTCOME_WORDS[match.kind]];
  if (match.change) parts.push(`(${change(match.change)})`);
  if (match.code) parts.push(`with \`${match.code}\``);
  if (match.path) parts.push(`through ${match.path === 'line' ? 'the Command line' : match.path === 'tool' ? 'seed_desk' : `the ${match.path}`}`);
  if (match.wrote === 'nothing') parts.push('that writes nothing');
  if (match.after) parts.push(`after ${match.after}`);
  if (match.extension) parts.push(match.extension === 'edited' ? 'while your edited version runs' : match.extension === 'own' ? 'while your own extension runs' : 'while the shipped extension runs');
  return `this step still needs ${parts.join(' ')}.`;
}

function tool(match: ToolMatch): string {
  const call = match.op ? `{"op":"${match.op}"${match.args ? `, ${JSON.stringify(match.args).slice(1, -1)}` : ''}}` : 'seed_desk';
  if (match.stopped && match.stopped !== 'none') return `call ${call} and see the host stop it (${match.stopped}).`;
  if (match.code) return `call ${call} and meet the refusal \`${match.code}\`.`;
  return `call ${call} in the Tool call tab${match.ok === true ? ' and get an ok answer' : ''}.`;
}

/** A default "not yet" sentence for a condition. */
export function describeCondition(condition: Condition): string {
  if (condition.outcome) return outcome(condition.outcome);
  if (condition.tool) return tool(condition.tool);
  if (condition.note) {
    const when = condition.note.firstAfter === 'moved' ? ' right after a move in the Session tree' : condition.note.firstAfter === 'reopened' ? ' right after a reopen' : '';
    return condition.note.says === 'this-branch' ? `\`/note\`${when} should say this branch's own note.` : `\`/note\`${when} should say a note written on another branch.`;
  }
  if (condition.dialog) return condition.dialog.answered === 'none' ? 'a dialog should be waiting for your answer.' : `answer the dialog with ${condition.dialog.answered ?? 'Confirm or Cancel'}.`;
  if (condition.not) return `this step must not include: ${describeCondition(condition.not).replace(/^this step still needs /, '')}`;
  if (condition.all) return condition.all.map(describeCondition).join(' ');
  if (condition.any) return condition.any.map(describeCondition)[0] ?? 'do the step.';
  if (condition.desk) {
    const wanted = Object.entries(condition.desk).map(([id, numbers = {}]) => {
      const said = [numbers.reserved === 'all' ? 'all reserved' : numbers.reserved === undefined ? '' : `${count(numbers.reserved)} reserved`, numbers.available === undefined ? '' : `${count(numbers.available)} available`].filter(Boolean);
      return `${id === 'every' ? 'every item' : id}: ${said.join(', ')}`;
    });
    return `the desk should show ${wanted.join('; ')}.`;
  }
  if (condition.grant) return `the agent should be ${condition.grant} on this branch.`;
  if (condition.leaf) return condition.leaf.at === 'root' ? 'the leaf should stand at the start of the session.' : `the leaf should ${condition.leaf.transient ? 'stand off' : 'be on'} the last appended entry.`;
  if (condition.branch) return 'the Active branch does not look as this step expects.';
  if (condition.entries) return `the journal should hold ${count(condition.entries.count)} seed desk entries${condition.entries.where === 'elsewhere' ? ' on other branches' : condition.entries.where === 'branch' ? ' on this branch' : ''}.`;
  if (condition.branches !== undefined) return `seed desk entries should sit on ${count(condition.branches)} branches.`;
  if (condition.approval) return 'set "Interactive UI", "Host approval for seed_desk" and "Approval mode" as this step asks.';
  if (condition.journal) return condition.journal.hostFile ? `the "Host file" note should say ${condition.journal.hostFile.replace('-', ' ')}.` : 'use "Filter journal" in the Journal tab as this step asks.';
  if (condition.event) return `the newest ${condition.event.channel} event should carry the current revision.`;
  if (condition.status) return 'the status line should show the current revision.';
  if (condition.comparison) return 'select an entry in the Session tree and press "Compare with selected".';
  if (condition.extension) return condition.extension === 'shipped' ? 'press "Back to the shipped extension" in the Code tab.' : 'press "Run my version" in the Code tab.';
  if (condition.corruptBranch !== undefined) return condition.corruptBranch ? 'this step needs a branch that ends on an invalid snapshot.' : 'move to an earlier, valid entry.';
  if (condition.closing) return 'choose an answer to the question.';
  if (condition.question) return 'answer the question below the step with Yes or No.';
  if (condition.check) return `the check "${condition.check.name}" does not hold yet.`;
  return 'do the step.';
}
