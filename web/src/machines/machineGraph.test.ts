/**
 * The chart's graph comes from the machine definition: these tests compare it with the
 * confirmation machine's own state nodes, and with a tiny ad-hoc machine to show it is generic.
 */
import { describe, expect, it } from 'vitest';
import { and, createMachine, fromPromise, not, setup } from 'xstate';
import { confirmationMachine } from './confirmation';
import { machineGraph, type MachineGraph } from './machineGraph';

function stateOf(graph: MachineGraph, id: string) {
  const state = graph.states.find((candidate) => candidate.id === id);
  if (!state) throw new Error(`no state ${id} in the graph`);
  return state;
}

describe('machineGraph(confirmationMachine)', () => {
  const graph = machineGraph(confirmationMachine);

  it('has exactly the machine’s states, in definition order, and its initial state', () => {
    expect(graph.states.map((state) => state.id)).toEqual(Object.keys(confirmationMachine.root.states));
    expect(graph.initial).toBe(confirmationMachine.root.initial.target[0]?.key);
    expect(graph.initial).toBe('idle');
  });

  it('idle: the extension opening a dialog → open; DISMISS stays idle', () => {
    expect(stateOf(graph, 'idle').transitions).toEqual([
      { event: 'OPENED', target: 'open' },
      { event: 'DISMISS', target: 'idle' },
    ]);
  });

  it('open: CONFIRM → committing, CANCEL → cancelling (both answer the dialog)', () => {
    expect(stateOf(graph, 'open').transitions).toEqual([
      { event: 'CONFIRM', target: 'committing' },
      { event: 'CANCEL', target: 'cancelling' },
    ]);
  });

  /** Confirm and Cancel both wait for the page to report how the extension's run ended: that decides the state. */
  const answerResults = [
    { event: 'SETTLED', target: 'open', guard: 'askedAgain' },
    { event: 'SETTLED', target: 'committed', guard: 'wasCommitted' },
    { event: 'SETTLED', target: 'refused', guard: 'wasRefused' },
    { event: 'SETTLED', target: 'cancelled', guard: 'wasCancelled' },
    { event: 'SETTLED', target: 'failed', guard: 'didFail' },
    { event: 'SETTLED', target: 'answered' },
    { event: 'FAILED', target: 'failed' },
  ];

  it('committing: SETTLED, guarded where the machine guards it (the last candidate unguarded), and FAILED → failed', () => {
    expect(stateOf(graph, 'committing').transitions).toEqual(answerResults);
  });

  it('cancelling: the same transitions as committing (a cancelled run may still end otherwise)', () => {
    expect(stateOf(graph, 'cancelling').transitions).toEqual(answerResults);
  });

  it('no invoked actor appears: every transition is an event the page sends', () => {
    const events = graph.states.flatMap((state) => state.transitions.map((transition) => transition.event));
    expect(new Set(events)).toEqual(new Set(['OPENED', 'DISMISS', 'CONFIRM', 'CANCEL', 'SETTLED', 'FAILED']));
  });

  it('every settled state accepts the next dialog (OPENED → open) and DISMISS → idle, nothing else', () => {
    for (const id of ['committed', 'refused', 'cancelled', 'answered', 'failed']) {
      expect(stateOf(graph, id).transitions, id).toEqual([
        { event: 'OPENED', target: 'open' },
        { event: 'DISMISS', target: 'idle' },
      ]);
    }
  });

  it('every target is one of the states, and every state but the initial one is reachable', () => {
    const ids = new Set(graph.states.map((state) => state.id));
    const targets = graph.states.flatMap((state) => state.transitions.map((transition) => transition.target));
    for (const target of targets) expect(ids).toContain(target);
    for (const id of ids) if (id !== graph.initial) expect(targets).toContain(id);
  });

  it('matches the events each state node accepts (and nothing else)', () => {
    for (const state of graph.states) {
      const node = confirmationMachine.root.states[state.id];
      const own = node?.ownEvents.filter((event) => !event.startsWith('xstate.')) ?? [];
      const drawn = [...new Set(state.transitions.map((transition) => transition.event))];
      expect(drawn).toEqual(own);
    }
  });
});

describe('machineGraph of other machines', () => {
  it('a tiny ad-hoc machine gives its own graph (nothing is hard-coded)', () => {
    const lamp = createMachine({
      id: 'lamp',
      initial: 'off',
      states: {
        off: { on: { FLIP: 'on', BREAK: 'broken' } },
        on: { on: { FLIP: { target: 'off', guard: 'hasPower' }, NUDGE: {} } },
        broken: {},
      },
    });
    expect(machineGraph(lamp)).toEqual({
      initial: 'off',
      states: [
        {
          id: 'off',
          transitions: [
            { event: 'FLIP', target: 'on' },
            { event: 'BREAK', target: 'broken' },
          ],
        },
        {
          id: 'on',
          transitions: [
            { event: 'FLIP', target: 'off', guard: 'hasPower' },
            // Targetless: handled in place.
            { event: 'NUDGE', target: 'on' },
          ],
        },
        { id: 'broken', transitions: [] },
      ],
    });
  });

  it('names invokes by their src, delays, always, nested states and combined guards', () => {
    const machine = setup({
      actors: { load: fromPromise(async () => 1) },
      guards: { ready: () => true, quiet: () => true },
    }).createMachine({
      initial: 'waiting',
      states: {
        waiting: { after: { 500: 'loading' }, always: { target: 'done', guard: and(['ready', not('quiet')]) } },
        loading: {
          invoke: { src: 'load', onDone: 'done', onError: { target: 'waiting', guard: 'ready' } },
          initial: 'first',
          states: { first: { on: { NEXT: 'second' } }, second: { on: { BACK: '#retry' } } },
        },
        done: { id: 'retry', type: 'final' },
      },
    });
    const graph = machineGraph(machine);
    expect(graph.initial).toBe('waiting');
    expect(graph.states.map((state) => state.id)).toEqual(['waiting', 'loading', 'loading.first', 'loading.second', 'done']);
    expect(stateOf(graph, 'waiting').transitions).toEqual([
      { event: 'after 500 ms', target: 'loading' },
      { event: 'always', target: 'done', guard: 'and(ready, not(quiet))' },
    ]);
    expect(stateOf(graph, 'loading').transitions).toEqual([
      { event: 'done: load', target: 'done' },
      { event: 'error: load', target: 'waiting', guard: 'ready' },
    ]);
    expect(stateOf(graph, 'loading.first').transitions).toEqual([{ event: 'NEXT', target: 'loading.second' }]);
    expect(stateOf(graph, 'loading.second').transitions).toEqual([{ event: 'BACK', target: 'done' }]);
  });
});
