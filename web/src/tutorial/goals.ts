import type { CheckResult, Observed } from './facts';
import { stoppedBy, StepFacts, type Match } from './goalFacts';
import type { Condition, Goal, GoalPart, When } from '../../../lessons/format/goalSchema';
import { describeCondition, fillIn } from './goalWords';
import { evaluateState } from './goalState';
import { runNamedCheck } from './namedChecks';

/**
 * The one checker every step uses: the step's goal (data, from its markdown file) read against
 * what the page observed. Parts are checked in order; the first unmet one is the "not yet"
 * reason, in the step's words where it gave any:
 *   1. a refusal that had to write nothing but did: the entries it wrote are named;
 *   2. a call the host stopped before the seed desk saw it, where the part wanted the desk's answer
 *      (unless one of the part's own `when` cases about that gate, `tool: { stopped }`, holds);
 *   3. the first of the part's `when` cases that holds (a likelier mistake);
 *   4. the part's `unmet` text, or a sentence made from the condition.
 * Loaded on demand, beside the current lesson: the first screen does not carry it.
 */

const DONE: CheckResult = { done: true, whyNot: null };
const notYet = (whyNot: string): CheckResult => ({ done: false, whyNot: `Not yet: ${whyNot}` });

/** Whether `condition` holds, and the fact it matched when it is about facts. */
export function evaluate(condition: Condition, facts: StepFacts): Match | null {
  if (condition.outcome) return facts.outcome(condition.outcome);
  if (condition.tool) return facts.tool(condition.tool);
  if (condition.dialog) return facts.dialog(condition.dialog);
  if (condition.note) return facts.note(condition.note);
  if (condition.not) return evaluate(condition.not, facts) ? null : NO_FACT;
  if (condition.all) return condition.all.every((part) => evaluate(part, facts) !== null) ? NO_FACT : null;
  if (condition.any) return condition.any.map((part) => evaluate(part, facts)).find((match) => match !== null) ?? null;
  return evaluateState(condition, facts.observed);
}

const NO_FACT: Match = { seq: 0, revision: null, values: {} };

/** Why a call never reached the desk, in the learner's terms. */
function hostStopped(facts: StepFacts): string | null {
  if (facts.observed.view.pendingApproval !== null) return 'that call is waiting for host approval — answer the "Host approval: seed_desk" prompt.';
  const latest = facts.tools.at(-1);
  if (!latest) return null;
  switch (stoppedBy(latest)) {
    case 'failed':
      return `that call did not run: ${latest.outcome.kind === 'failed' ? latest.outcome.text : 'storage failed'}`;
    case 'schema':
      return "the host's schema check rejected those arguments, so the seed desk never saw them — check the field names and types.";
    case 'approval':
      return 'the host blocked that call before the seed desk saw it, and that is the host\'s call to make, not one to loosen: compare "Host approval for seed_desk" and "Approval mode" with what this step asks, or press "Reset this step" to put back the settings the step began with.';
    default:
      return null;
  }
}

/** A tool part that wants the desk's own answer (not one about the host's gates). */
const wantsDeskAnswer = (part: GoalPart): boolean => part.tool !== undefined && part.tool.stopped === undefined && part.tool.approval === undefined;

function reason(part: GoalPart, facts: StepFacts): string {
  const observed = facts.observed;
  const fact = part.outcome ?? part.tool;
  if (fact?.wrote === 'nothing') {
    const { wrote: _ignored, ...anyWrite } = fact;
    const wrote = part.outcome ? facts.outcome(anyWrite as typeof part.outcome) : facts.tool(anyWrite as NonNullable<typeof part.tool>);
    if (wrote) {
      return fillIn(
        "the journal's seed desk entries went from {before} to {after} during that attempt, so something besides the refusal was written (another tab?). Press “Reset this step” and try again.",
        observed,
        wrote.values,
      );
    }
  }
  // The step's own words about a gate come first; then the host's stop in general; then the other cases.
  const aboutGate = (when: When): boolean => when.tool?.stopped !== undefined && when.tool.stopped !== 'none';
  const cases = [...(part.when ?? []).filter(aboutGate), ...(wantsDeskAnswer(part) ? [null] : []), ...(part.when ?? []).filter((when) => !aboutGate(when))];
  for (const when of cases) {
    if (when === null) {
      const stopped = hostStopped(facts);
      if (stopped) return stopped;
      continue;
    }
    const match = evaluate(when, facts);
    if (match) return fillIn(when.say, observed, match.values);
  }
  const checked = part.check ? runNamedCheck(part.check.name, observed, part.check.item).values : {};
  return fillIn(part.unmet ?? describeCondition(part), observed, checked);
}

/** Judges a step's goal against what the page observed since the step began. */
export function checkGoal(goal: Goal, observed: Observed): CheckResult {
  // A corrupt branch has no desk to read: no part of any goal can be judged on it, unless the goal
  // is about a corrupt branch and says so (`corruptBranch: true`).
  if (observed.view.corrupt && !goal.some((part) => part.corruptBranch === true)) {
    return notYet(
      `this branch is corrupt (entry ${observed.view.corrupt.entryId}), so its desk cannot be read: a query, a change or a seed_desk query, inspect or act on it is refused with corrupt-state (seed_desk's discover still answers, and says so). Once the step has had you meet that refusal, move to an earlier entry (or press "Reset this step").`,
    );
  }
  const facts = new StepFacts(observed);
  for (const part of goal) {
    const match = evaluate(part, facts);
    if (!match) return notYet(reason(part, facts));
    if (part.as !== undefined) facts.labels.set(part.as, match);
  }
  return DONE;
}
