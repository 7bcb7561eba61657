import type { AnyStateMachine, AnyStateNode } from 'xstate';

/**
 * A state machine as a plain graph, read from the machine definition itself (never from a list
 * of names kept beside it), so a chart drawn from it cannot drift from the machine.
 */
export interface MachineGraph {
  /** The key of the machine's initial state. */
  initial: string;
  /** The states in definition order; nested states follow their parent as "parent.child". */
  states: MachineGraphState[];
}

export interface MachineGraphState {
  /** The state's key (for nested states, the dotted path from the root: "parent.child"). */
  id: string;
  /** Outgoing transitions in definition order: `on` first, then invoke results, delays, `always`. */
  transitions: MachineGraphTransition[];
}

export interface MachineGraphTransition {
  /**
   * The event as a reader would name it: the event type from `on` ("CONFIRM"), "done: <src>" /
   * "error: <src>" for an invoked actor's onDone / onError, "after <delay>", or "always".
   */
  event: string;
  /** The target state's id (as in `states`); a targetless transition names its own state. */
  target: string;
  /** The guard's name when the transition is guarded ("isChangeToConfirm", "not(isEmpty)"). */
  guard?: string;
}

/** Reads the graph of a machine: `machine.root.states`, each state node's transitions, recursively. */
export function machineGraph(machine: AnyStateMachine): MachineGraph {
  const root = machine.root;
  const states: MachineGraphState[] = [];
  const walk = (node: AnyStateNode): void => {
    for (const child of Object.values(node.states)) {
      states.push({ id: stateId(child), transitions: transitionsOf(child) });
      walk(child);
    }
  };
  walk(root);
  const initial = root.initial.target[0];
  return { initial: initial ? stateId(initial) : '', states };
}

/** The dotted path of a state node from the root: the state key for a top-level state. */
function stateId(node: AnyStateNode): string {
  return node.path.join('.');
}

function transitionsOf(node: AnyStateNode): MachineGraphTransition[] {
  const labels = eventLabels(node);
  const result: MachineGraphTransition[] = [];
  // `transitions` holds the `on` events, the state's own onDone, the invoke onDone/onError/onSnapshot
  // and the delayed transitions, in that order, each event's candidates in definition order.
  for (const [descriptor, candidates] of node.transitions) {
    for (const transition of candidates) result.push(edge(node, labels.get(descriptor) ?? descriptor, transition));
  }
  for (const transition of node.always ?? []) result.push(edge(node, 'always', transition));
  return result;
}

function edge(node: AnyStateNode, event: string, transition: { target?: readonly AnyStateNode[] | undefined; guard?: unknown }): MachineGraphTransition {
  const targets = transition.target?.length ? transition.target.map(stateId) : [stateId(node)];
  const guard = transition.guard === undefined ? undefined : guardName(transition.guard);
  return guard === undefined ? { event, target: targets.join(', ') } : { event, target: targets.join(', '), guard };
}

/** Readable names for the internal event types XState generates for invokes and delays. */
function eventLabels(node: AnyStateNode): Map<string, string> {
  const labels = new Map<string, string>();
  labels.set(`xstate.done.state.${node.id}`, 'done');
  for (const invoke of node.invoke) {
    // A named actor is referenced by its key in `setup({ actors })`; inline logic gets a generated
    // `xstate.invoke.…` name, for which the invoke id (explicit or generated) reads better.
    const name = typeof invoke.src === 'string' && !invoke.src.startsWith('xstate.invoke.') ? invoke.src : invoke.id;
    labels.set(`xstate.done.actor.${invoke.id}`, `done: ${name}`);
    labels.set(`xstate.error.actor.${invoke.id}`, `error: ${name}`);
    labels.set(`xstate.snapshot.${invoke.id}`, `snapshot: ${name}`);
  }
  for (const delayed of node.after) {
    labels.set(delayed.eventType, `after ${typeof delayed.delay === 'number' ? `${delayed.delay} ms` : delayed.delay}`);
  }
  return labels;
}

/** A guard as written: a named guard's name, `{ type }`'s type, and/or/not/stateIn spelled out. */
function guardName(guard: unknown): string {
  if (typeof guard === 'string') return guard;
  if (typeof guard === 'function') {
    const fn = guard as { name: string; guards?: unknown; stateValue?: unknown };
    if (Array.isArray(fn.guards) && (fn.name === 'and' || fn.name === 'or' || fn.name === 'not')) {
      return `${fn.name}(${fn.guards.map(guardName).join(', ')})`;
    }
    if (fn.name === 'stateIn' && fn.stateValue !== undefined) return `stateIn(${JSON.stringify(fn.stateValue)})`;
    return fn.name || 'inline guard';
  }
  if (typeof guard === 'object' && guard !== null && typeof (guard as { type?: unknown }).type === 'string') {
    return (guard as { type: string }).type;
  }
  return 'guard';
}
