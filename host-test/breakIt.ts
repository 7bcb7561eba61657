/**
 * The "Break it" lesson's race, on one side of the differential: the extension without the re-read
 * after the dialog (the lesson's prepared edit, bundled by scripts/break-it-variants.mjs into
 * out/variants/) against the shipped one. Reserve 2 basil; ask for 2 bean; while the dialog waits,
 * move the leaf back across the basil entry; confirm. The shipped extension refuses it as stale;
 * the broken one commits it on a desk the human never saw. Both hosts report this shape.
 */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BREAK_REREAD_STEP = 'break-reread';
export const VARIANT_FILE = fileURLToPath(new URL(`./out/variants/${BREAK_REREAD_STEP}.js`, import.meta.url));
export const PLAYGROUND_RESULT = fileURLToPath(new URL('./out/diff/break-it.playground.json', import.meta.url));

/** What one extension did in the race. */
export interface RaceResult {
  readonly outcome: string;
  readonly code: string | null;
  /** The data of the newest seed desk entry on the branch after the race. */
  readonly desk: unknown;
  /** Seed desk entries in the session after the race. */
  readonly deskEntries: number;
}

export interface BreakItResult {
  readonly shipped: RaceResult;
  readonly broken: RaceResult;
}

export const variantBuilt = (): boolean => existsSync(VARIANT_FILE);
