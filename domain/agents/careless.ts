import { QUERY_ARGS, TARGET_ID, TARGET_PACKETS, refusalCodeOf, reserveArgs, type AgentObservation, type ScriptedAgent } from './scriptedAgent';

/** The careless agent sends its one reservation this many times, whatever comes back. */
const CARELESS_ACTS = 3;

/** The stand-in when the single query gave no revision: the careless agent sends something anyway. */
const NO_REVISION = '(no revision)';

function outcome(observation: AgentObservation): string {
  if (observation.isError) return 'blocked by the host';
  if (observation.details?.ok) return `reserved (desk moved to ${observation.details.revision ?? 'an unknown revision'})`;
  return `refused as ${refusalCodeOf(observation) ?? 'something I did not read'}`;
}

/**
 * The agent that does what the lesson warns against: it looks once, keeps that revision forever,
 * and resends the same act "to be sure" whatever the answer, never looking at the desk again.
 * Its thoughts say so out loud, so a transcript shows the blind retry.
 */
export function createCarelessAgent(): ScriptedAgent {
  let revision: string | undefined;
  let acts = 0;
  let finished = false;
  const outcomes: string[] = [];

  return {
    name: 'careless',
    goal: `Reserve ${TARGET_PACKETS} ${TARGET_ID} packet, and send the request a couple more times to be sure it sticks.`,
    start() {
      return { kind: 'call', args: QUERY_ARGS, thought: 'One quick look at the desk to grab a revision; I will not need another.' };
    },
    next(last) {
      if (finished) return { kind: 'done', summary: 'I have already finished.' };
      if (revision === undefined) {
        revision = last.details?.revision ?? NO_REVISION;
        acts = 1;
        return {
          kind: 'call',
          args: reserveArgs(revision),
          thought: `Got revision ${revision}. I did not really check the numbers; reserving ${TARGET_PACKETS} ${TARGET_ID} with it (act 1 of ${CARELESS_ACTS}).`,
        };
      }
      outcomes.push(outcome(last));
      if (acts < CARELESS_ACTS) {
        acts += 1;
        return {
          kind: 'call',
          args: reserveArgs(revision),
          thought:
            `The last act was ${outcomes.at(-1) ?? ''}, but I am not reading into it. Blind retry to be sure: the exact same act with the same ` +
            `old revision ${revision}, no fresh query (act ${acts} of ${CARELESS_ACTS}).`,
        };
      }
      finished = true;
      const reserved = outcomes.filter((text) => text.startsWith('reserved')).length;
      const list = outcomes.map((text, index) => `${index + 1}) ${text}`).join('; ');
      const saved =
        reserved > 0 && reserved < outcomes.length
          ? ' Only the revision check kept my repeats from reserving extra packets; my retries did nothing useful.'
          : reserved === 0
            ? ' Repeating a refused call could never change the answer; I should have read the refusal and asked you instead.'
            : '';
      return {
        kind: 'done',
        summary:
          `I queried once, at revision ${revision}, then sent the same reservation ${outcomes.length} times with that revision without ever ` +
          `querying again. Outcomes: ${list}. ${reserved === 0 ? 'Nothing was reserved.' : reserved === 1 ? 'One act went through.' : `${reserved} acts went through.`}${saved}`,
      };
    },
  };
}
