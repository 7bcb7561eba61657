/**
 * The desk's machine line lists the confirmation machine's states from plain data, before XState
 * loads: these tests hold that data to the machine itself, so the line cannot drift from it.
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { LineOutcomeSchema, type RunEndKind } from '../protocol/messages';
import { confirmationMachine } from './confirmation';
import { BUSY_STATES, CONFIRMATION_INITIAL, CONFIRMATION_STATE_NAMES, confirmationStates, isBusy, SETTLES_IN } from './confirmationStates';

/**
 * The run-end kinds the protocol's schema lists, read from the schema itself (a union
 * discriminated on `kind`): what the worker may send.
 */
function runEndKindsOfSchema(): string[] {
  const kinds = LineOutcomeSchema._zod.propValues?.['kind'];
  if (!kinds) throw new Error('the line outcome is no longer discriminated on kind');
  return [...kinds].map(String);
}

describe('the confirmation machine’s states as plain data', () => {
  it('the line’s states are the machine’s top-level states, in definition order', () => {
    expect(CONFIRMATION_STATE_NAMES).toEqual(Object.keys(confirmationMachine.root.states));
    expect(CONFIRMATION_STATE_NAMES).toEqual(['idle', 'open', 'committing', 'cancelling', 'committed', 'refused', 'cancelled', 'answered', 'failed']);
  });

  it('the line’s initial state is the machine’s', () => {
    expect(confirmationMachine.root.initial.target[0]?.key).toBe(CONFIRMATION_INITIAL);
  });

  it('the machine is built from this very states config', () => {
    for (const name of CONFIRMATION_STATE_NAMES) expect(confirmationMachine.root.states[name]?.config).toBe(confirmationStates[name]);
  });

  it('the plain-data module does not import XState (it is in the first screen)', async () => {
    const { readFileSync } = await import('node:fs');
    const source = readFileSync(new URL('./confirmationStates.ts', import.meta.url), 'utf8');
    expect(source).not.toMatch(/from\s+['"]xstate/);
  });
});

describe('busy states', () => {
  it('BUSY_STATES is exactly open, committing and cancelling', () => {
    expect(BUSY_STATES).toEqual(new Set(['open', 'committing', 'cancelling']));
  });

  it('BUSY_STATES are the states the machine tags busy, and no other state has a tag', () => {
    for (const name of CONFIRMATION_STATE_NAMES) {
      const tags = [...(confirmationMachine.root.states[name]?.tags ?? [])];
      expect(tags, name).toEqual(BUSY_STATES.has(name) ? ['busy'] : []);
    }
  });

  it('isBusy answers for the busy states only: not for settled states, unknown names or no state at all', () => {
    expect(CONFIRMATION_STATE_NAMES.filter((name) => isBusy(name))).toEqual(['open', 'committing', 'cancelling']);
    expect(isBusy(undefined)).toBe(false);
    expect(isBusy('')).toBe(false);
    expect(isBusy('busy')).toBe(false);
    expect(isBusy('Open')).toBe(false);
  });
});

describe('SETTLES_IN: where each way a run ends leaves the dialog', () => {
  it('has an entry for every run-end kind the protocol lists, and no other', () => {
    expectTypeOf<keyof typeof SETTLES_IN>().toEqualTypeOf<RunEndKind>();
    const kinds = runEndKindsOfSchema();
    expect(kinds.length).toBeGreaterThan(0);
    expect(Object.keys(SETTLES_IN).toSorted()).toEqual(kinds.toSorted());
  });

  it('places each kind in a state of the machine: asked reopens the dialog, the rest settle in a state that is not busy', () => {
    for (const [kind, state] of Object.entries(SETTLES_IN)) {
      expect(CONFIRMATION_STATE_NAMES, kind).toContain(state);
      expect(isBusy(state), kind).toBe(kind === 'asked');
    }
    expect(SETTLES_IN).toEqual({
      asked: 'open',
      committed: 'committed',
      refused: 'refused',
      cancelled: 'cancelled',
      failed: 'failed',
      error: 'failed',
      answer: 'answered',
      said: 'answered',
      usage: 'answered',
      notice: 'answered',
    });
  });

  it('every settled state (all but idle and the busy ones) is where some run end lands', () => {
    const landing = new Set(Object.values(SETTLES_IN));
    for (const name of CONFIRMATION_STATE_NAMES) if (name !== 'idle' && !BUSY_STATES.has(name)) expect(landing, name).toContain(name);
  });
});
