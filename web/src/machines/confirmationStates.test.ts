/**
 * The desk's machine line lists the confirmation machine's states from plain data, before XState
 * loads: these tests hold that data to the machine itself, so the line cannot drift from it.
 */
import { describe, expect, it } from 'vitest';
import { confirmationMachine } from './confirmation';
import { CONFIRMATION_INITIAL, CONFIRMATION_STATE_NAMES, confirmationStates } from './confirmationStates';

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
