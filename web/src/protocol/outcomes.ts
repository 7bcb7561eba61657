import '$domain/zodSetup';
import * as z from 'zod/mini';
import { RESERVATION_ACTIONS, type HumanChange } from '$domain/humanChange';
import { REFUSAL_CODES } from '$domain/refusal';
import { sameType } from './sameType';
import { UiRequestSchema, type UiRequest } from './uiRequests';
import type { DeepReadonly } from './deepReadonly';

/**
 * How a line (or the answer to what the extension asked) came to an end, as the host observed
 * it: the one vocabulary the Command output, the confirmation machine and the goal facts derive
 * theirs from.
 */

export const RefusalCodeSchema = z.enum(REFUSAL_CODES);

/** The extension the worker's host runs (issue 23): `extension/seed-desk.ts` as shipped, or the learner's edited version. */
export const ExtensionKindSchema = z.enum(['shipped', 'edited']);
export type ExtensionKind = z.infer<typeof ExtensionKindSchema>;

/**
 * What the worker knows of the edited version it runs (issue 36), as data for the goals and the
 * marks: `text`, whether its files read as the shipped ones or differ; `editedFrom`, what the
 * learner's text was changed from: an edited version that ran before (their own change to it,
 * even one that types the shipped line back), or the shipped files (a first edit, or the text
 * "Discard my edits" put back, run unchanged).
 */
export const EditedVersionSchema = z.object({ text: z.enum(['as-shipped', 'changed']), editedFrom: z.enum(['an-edit', 'shipped']) });
export type EditedVersion = z.infer<typeof EditedVersionSchema>;

/** A human change as the extension reported it (the domain's `HumanChange`); `packets` stays the typed text when it is not a whole number. */
export const DeskChangeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('reservation'), action: z.enum(RESERVATION_ACTIONS), id: z.string(), packets: z.union([z.number(), z.string()]) }),
  z.object({ kind: z.literal('grant'), enabled: z.boolean() }),
]);
export type DeskChange = z.infer<typeof DeskChangeSchema>;
sameType<DeepReadonly<DeskChange>, HumanChange>(true);

/** A desk query's answer as data: the revision it was read at and the rows it listed. */
export const QueryAnswerSchema = z.object({
  revision: z.string(),
  rows: z.array(z.object({ id: z.string(), available: z.number(), reserved: z.number() })),
});
export type QueryAnswer = z.infer<typeof QueryAnswerSchema>;

/** Seed desk entries in the journal before the run (or this leg of it) and after it: the worker counts, the page reads. */
export const EntryCountsSchema = z.object({ before: z.number(), after: z.number() });
export type EntryCounts = z.infer<typeof EntryCountsSchema>;

/**
 * Issue 37's lesson: what the custom entries held when the learner's own extension ended a run,
 * as data (a goal compares what the extension said with it, never the reverse): how many entries
 * the run appended; per custom type, the newest entry's `data` on the active branch; and the
 * `data` of that type's entries that lie off it.
 */
export const CustomEntriesSchema = z.object({
  appended: z.number(),
  onBranch: z.record(z.string(), z.unknown()),
  offBranch: z.record(z.string(), z.array(z.unknown())),
});
export type CustomEntries = z.infer<typeof CustomEntriesSchema>;

/**
 * What every outcome carries beside how the run ended: which extension ran it, and the seed desk
 * entries before and after. The page reads these facts from the answer, not from its desk (which
 * another tab or a later answer may already have changed). Spread into each variant, so an answer
 * is parsed by one discriminated union.
 */
const RUN = {
  by: ExtensionKindSchema,
  version: z.optional(EditedVersionSchema),
  deskEntries: EntryCountsSchema,
  /** Issue 37: the learner's own extension ran it (Seed Desk was not loaded; `by` then names the Seed Desk it replaced). */
  own: z.optional(z.literal(true)),
  /** With `own`: the custom entries as the run left them. */
  custom: z.optional(CustomEntriesSchema),
};

/** What a session change (New, a switch, a fork, a move in the tree) came to. */
export const SESSION_CHANGES = ['new-session', 'switched', 'forked', 'moved', 'cancelled'] as const;
/** `leafId`: the leaf after the change (a move's target, as the goals note it). */
export const SessionChangeSchema = z.object({ did: z.enum(SESSION_CHANGES), leafId: z.nullable(z.string()) });
export type SessionChange = z.infer<typeof SessionChangeSchema>;

/**
 * What a line, or an answer to what the extension asked, came to: `text` is what the extension
 * said through `notify` (or the host's own words), the rest is data from the command's structured
 * outcome, which goals read instead of the text.
 */
export const LineOutcomeSchema = z.discriminatedUnion('kind', [
  /** `query`: what the answer listed, as data (goals read this, never the text). */
  z.object({ kind: z.literal('answer'), text: z.string(), query: QueryAnswerSchema, ...RUN }),
  z.object({ kind: z.literal('said'), text: z.string(), ...RUN }),
  z.object({ kind: z.literal('usage'), text: z.string(), ...RUN }),
  /** `change`: what was asked, once the extension understood the arguments. */
  z.object({ kind: z.literal('refused'), code: RefusalCodeSchema, text: z.string(), change: z.nullable(DeskChangeSchema), ...RUN }),
  z.object({ kind: z.literal('failed'), text: z.string(), ...RUN }),
  /**
   * The extension waits on the UI (`ctx.ui.confirm`, `select`, `input`): the page shows the
   * request and answers it by id. `revision`: the branch's revision when it asked.
   */
  z.object({ kind: z.literal('asked'), request: UiRequestSchema, text: z.string(), revision: z.string(), ...RUN }),
  z.object({ kind: z.literal('cancelled'), text: z.string(), change: DeskChangeSchema, ...RUN }),
  z.object({ kind: z.literal('committed'), text: z.string(), change: DeskChangeSchema, revision: z.string(), ...RUN }),
  /**
   * The extension finished without an outcome this page knows: what it said is all there is.
   * `sessionChange`: the run was a session change an extension's before-event handler took part
   * in (its dialog, its words, its cancel), and this is what the change came to.
   */
  z.object({ kind: z.literal('notice'), text: z.string(), sessionChange: z.optional(SessionChangeSchema), ...RUN }),
  /** The extension's code threw: shown as the host reports an extension error; nothing was appended by the host. */
  z.object({ kind: z.literal('error'), text: z.string(), ...RUN }),
]);
export type LineOutcome = z.infer<typeof LineOutcomeSchema>;

/** A run's end before the host adds who ran it and what it appended (`commands.reported` adds them). */
export type RunEnd = LineOutcome extends infer O ? (O extends LineOutcome ? Omit<O, keyof typeof RUN> : never) : never;
export type RunEndKind = LineOutcome['kind'];

/**
 * Who said a kind's text: the extension (the page marks it when the learner's edited version
 * runs) or the host in its own words. Declared for every kind: a new kind without an entry does
 * not compile.
 */
export const SAID_BY = {
  answer: 'extension',
  said: 'host',
  usage: 'extension',
  refused: 'extension',
  failed: 'host',
  asked: 'extension',
  cancelled: 'extension',
  committed: 'extension',
  notice: 'extension',
  error: 'extension',
} as const satisfies Record<RunEndKind, 'extension' | 'host'>;

/** An outcome that asks for a confirmation: the dialog the lesson is about. */
export type ConfirmAsked = Extract<LineOutcome, { kind: 'asked' }> & { readonly request: Extract<UiRequest, { kind: 'confirm' }> };

export function isConfirmAsked(outcome: DeepReadonly<LineOutcome>): outcome is DeepReadonly<ConfirmAsked> {
  return outcome.kind === 'asked' && outcome.request.kind === 'confirm';
}
