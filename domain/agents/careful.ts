import type { RefusalCode } from '../refusal';
import {
  QUERY_ARGS,
  TARGET_ID,
  TARGET_PACKETS,
  queryItems,
  refusalCodeOf,
  reserveArgs,
  type AgentObservation,
  type AgentStep,
  type ScriptedAgent,
} from './scriptedAgent';

/** The careful agent acts at most this many times in one run, whatever the desk says. */
const CAREFUL_MAX_ACTS = 2;

type Waiting = 'query' | 'act' | 'finished';

function refusalMessage(observation: AgentObservation): string | undefined {
  const data = observation.details?.data;
  if (typeof data !== 'object' || data === null) return undefined;
  const message = (data as Record<string, unknown>)['message'];
  return typeof message === 'string' ? message : undefined;
}

/** Why an act was refused and what the agent does about it, said before it queries again. */
function refusalThought(code: RefusalCode | undefined, usedRevision: string, observation: AgentObservation): string {
  const then = 'I will query the desk again before deciding anything else.';
  switch (code) {
    case 'stale-revision':
      return (
        `My reservation was refused as stale-revision: I decided on revision ${usedRevision}, but the desk changed after that query, ` +
        `so nothing was reserved. I will not send ${usedRevision} again; ${then}`
      );
    case 'agent-disabled':
      return (
        'My reservation was refused as agent-disabled: the human has not switched the agent on for this branch, so I may not reserve. ' +
        `Only the human can change that, and repeating the call would not. ${then}`
      );
    case 'insufficient-availability':
      return `My reservation was refused as insufficient-availability: no ${TARGET_ID} packet is free any more. ${then}`;
    case 'corrupt-state':
      return `My reservation was refused as corrupt-state: a stored seed desk entry on this branch is invalid, so the branch cannot be trusted. ${then}`;
    case undefined:
      return `My reservation was refused without a code I recognise (${observation.text.split('\n')[0] ?? ''}). ${then}`;
    default: {
      const message = refusalMessage(observation);
      return `My reservation was refused as ${code}${message ? ` (${message})` : ''}. Sending the same call again would not fix that. ${then}`;
    }
  }
}

/**
 * The agent that follows the lesson's request: read first, act only on what it read, with the
 * exact revision it read, and treat every refusal as information (explain it, look again, decide
 * again). It never repeats a revision, acts at most twice, and stops at once if the host blocks a call.
 */
export function createCarefulAgent(): ScriptedAgent {
  let waiting: Waiting = 'query';
  let lastCall: Record<string, unknown> = QUERY_ARGS;
  let acts = 0;
  const usedRevisions: string[] = [];
  /** The refusal that sent the agent back to query; decided on once the query answers. */
  let pendingRefusal: { readonly code: RefusalCode | undefined } | undefined;
  const refusedCodes: string[] = [];

  const call = (args: Record<string, unknown>, thought: string, next: Exclude<Waiting, 'finished'>): AgentStep => {
    waiting = next;
    lastCall = args;
    return { kind: 'call', args, thought };
  };
  const done = (summary: string): AgentStep => {
    waiting = 'finished';
    return { kind: 'done', summary };
  };

  const history = (): string =>
    refusedCodes.length === 0 ? '' : ` Earlier refusals in this run: ${refusedCodes.join(', ')}.`;

  function blocked(last: AgentObservation): AgentStep {
    const op = typeof lastCall['op'] === 'string' ? lastCall['op'] : 'seed_desk';
    return done(
      `I stopped: the host blocked my ${op} call before the seed desk could answer ("${last.text.split('\n')[0] ?? ''}"). ` +
        `That call changed nothing, and I am not retrying it; whether to allow it is your decision.${history()}`,
    );
  }

  function afterQuery(last: AgentObservation): AgentStep {
    const refusal = pendingRefusal;
    pendingRefusal = undefined;
    const details = last.details;
    if (!details) return blocked(last);
    if (!details.ok) {
      if (details.code === 'corrupt-state') {
        return done(
          'I stopped without changing anything: the seed desk reports corrupt-state on this branch (a stored desk entry is invalid). ' +
            `Please go back to an earlier point in the conversation whose desk state is valid; I will not act on this branch.${history()}`,
        );
      }
      return done(`I stopped: my query was refused (${details.code ?? 'no code'}), so I have no current view to act on.${history()}`);
    }

    const items = queryItems(details);
    const bean = items?.find((item) => item.id === TARGET_ID);
    const revision = details.revision;
    const view = bean ? `${bean.available} available, ${bean.reserved} reserved` : 'not listed';

    if (refusal) {
      if (refusal.code === 'agent-disabled') {
        return done(
          `I did not reserve anything. The seed desk refused my reservation as agent-disabled: the agent is not switched on for this branch. ` +
            `If you want me to reserve, you can run /seeds agent on and confirm it, then ask me again; I will not try to get around it. ` +
            `The current query shows ${TARGET_ID} ${view} at revision ${revision ?? '(none)'}.`,
        );
      }
      if (refusal.code === 'insufficient-availability') {
        return done(`I did not reserve anything: no ${TARGET_ID} packet was left for me. The current query shows ${view}.${history()}`);
      }
      if (refusal.code !== 'stale-revision') {
        return done(
          `I stopped after a ${refusal.code ?? 'unrecognised'} refusal: my request was the problem, and repeating it would be refused again. ` +
            `The current query shows ${TARGET_ID} ${view}.${history()}`,
        );
      }
      // stale-revision: the fresh query is exactly what was needed; decide again below.
    }

    if (!bean) return done(`I did not act: the query did not list ${TARGET_ID}.${history()}`);
    if (bean.available < TARGET_PACKETS) {
      return done(
        `I did not reserve anything: the query at revision ${revision ?? '(none)'} shows ${TARGET_ID} with ${view}, so there is none to take.${history()}`,
      );
    }
    if (revision === undefined) return done(`I did not act: the query gave no revision, and I only act on an exact revision.${history()}`);
    if (acts >= CAREFUL_MAX_ACTS) {
      return done(
        `I gave up after ${acts} reservation attempts, each refused (${refusedCodes.join(', ')}). The desk keeps changing under me; ` +
          `the latest query shows ${TARGET_ID} ${view} at revision ${revision}. Tell me if you still want one reserved.`,
      );
    }
    if (usedRevisions.includes(revision)) {
      return done(`I stopped: the desk is still at revision ${revision}, which I already acted on once, and I do not repeat an act.${history()}`);
    }

    acts += 1;
    usedRevisions.push(revision);
    const thought = refusal
      ? `Fresh query: ${TARGET_ID} has ${view} at revision ${revision}, which I have not used. Deciding again: one packet is still free, ` +
        `so I reserve ${TARGET_PACKETS} with exactly ${revision} (attempt ${acts} of at most ${CAREFUL_MAX_ACTS}).`
      : `The query shows ${TARGET_ID} with ${view} at revision ${revision}. At least one is free, so I reserve ${TARGET_PACKETS}, ` +
        `sending exactly that revision.`;
    return call(reserveArgs(revision), thought, 'act');
  }

  function afterAct(last: AgentObservation): AgentStep {
    const details = last.details;
    if (!details) return blocked(last);
    const used = usedRevisions.at(-1) ?? '(none)';
    if (details.ok) {
      const item = (details.data as { item?: { available?: number; reserved?: number } } | undefined)?.item;
      const now = item ? ` ${TARGET_ID} now shows ${item.available} available, ${item.reserved} reserved.` : '';
      const retried = refusedCodes.length > 0 ? ` The first try was refused (${refusedCodes.join(', ')}); I queried again and acted on the fresh revision.` : '';
      return done(`Reserved ${TARGET_PACKETS} ${TARGET_ID} packet. The desk is now at revision ${details.revision ?? '(not given)'}.${now}${retried}`);
    }
    const code = refusalCodeOf(last);
    refusedCodes.push(code ?? 'unknown');
    pendingRefusal = { code };
    return call(QUERY_ARGS, refusalThought(code, used, last), 'query');
  }

  return {
    name: 'careful',
    goal:
      `Reserve ${TARGET_PACKETS} ${TARGET_ID} packet only if a fresh query shows one free, using that query's exact revision; ` +
      'after any refusal, explain it and query again before deciding; never retry blindly.',
    start() {
      return call(
        QUERY_ARGS,
        `Before deciding anything I read the desk: I need to know whether ${TARGET_ID} has a free packet and which revision that view belongs to.`,
        'query',
      );
    },
    next(last) {
      if (waiting === 'finished') return { kind: 'done', summary: 'I have already finished.' };
      if (last.isError) return blocked(last);
      return waiting === 'query' ? afterQuery(last) : afterAct(last);
    },
  };
}
