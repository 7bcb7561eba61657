// `.js` and relative, as in schema.ts: the lesson compiler loads this module from vite.config.ts.
import '../../domain/zodSetup.js';
import * as z from 'zod/mini';
import { FIXTURE_IDS } from '../../domain/fixture.js';
import { REFUSAL_CODES } from '../../domain/refusal.js';
import { APPROVAL_DECISIONS, APPROVAL_MODES, APPROVAL_TIERS } from '../../extension/ompApi.js';

/**
 * A step's goal, as data: an ordered list of parts, each one condition read from the facts since
 * the step began (what the learner did) or from what the page shows now. The checker
 * (`goals.ts`) reports the first unmet part as the "not yet" reason: its `unmet` text, or the
 * first of its `when` cases that holds (a likelier mistake, named in the step's own words), or a
 * default sentence made from the condition. lessons/README.md lists the vocabulary for teachers.
 *
 * Facts are matched from the step's start; a part's `as` names the earliest fact it matched, and a
 * later condition's `after`/`before` orders against it. `latest: true` looks only at the newest
 * fact of that kind (the newest reopen, the newest call with that `op`).
 */

const Count = z.union([z.number(), z.strictObject({ atLeast: z.optional(z.number()), atMost: z.optional(z.number()) })]);
export type Count = z.infer<typeof Count>;

const Item = z.enum(FIXTURE_IDS as [string, ...string[]]);
const ItemOrAny = z.union([Item, z.literal('any')]);

/** A change to the desk: exactly one of reserve/release (an item, or `any`) or grant. */
const Change = z.strictObject({
  reserve: z.optional(ItemOrAny),
  release: z.optional(ItemOrAny),
  grant: z.optional(z.enum(['on', 'off'])),
  packets: z.optional(z.number()),
});
export type ChangeMatch = z.infer<typeof Change>;

/** Compared with the revision the page shows now, or with the revision of a fact a part named (`as`). */
const RevisionMatch = z.union([z.enum(['current', 'not-current']), z.strictObject({ sameAs: z.string() }), z.strictObject({ differentFrom: z.string() })]);
export type RevisionMatch = z.infer<typeof RevisionMatch>;

/**
 * How a fact is placed: after/before a named fact, only the newest of its kind, the UI switch when
 * it happened, the extension the host ran when it happened (`edited`: the learner's version), how many.
 * `text`: the extension's text then, the shipped one (the shipped extension, or "Run my version" of
 * unchanged files) or changed; `editedFrom` (the edited one only): what the learner's text had been
 * changed from, an edited version that ran before (their own change to it, even back to the
 * shipped line) or the shipped files (a first edit, or what "Discard my edits" put back).
 */
const factPlacement = {
  after: z.optional(z.string()),
  before: z.optional(z.string()),
  latest: z.optional(z.boolean()),
  ui: z.optional(z.enum(['headless', 'interactive'])),
  extension: z.optional(z.enum(['shipped', 'edited', 'own'])),
  text: z.optional(z.enum(['as-shipped', 'changed'])),
  editedFrom: z.optional(z.enum(['an-edit', 'shipped'])),
  count: z.optional(Count),
};

/** Who made a seed_desk call: you (by hand), a scripted agent's run, a real model's turn. */
export const TOOL_CALLERS = ['you', 'careful', 'careless', 'model'] as const;

/** Seed desk entries in the journal before and after the attempt: a refusal leaves them equal. */
const Wrote = z.enum(['nothing', 'something']);

export const OUTCOME_KINDS = ['answered', 'said', 'committed', 'cancelled', 'refused', 'failed', 'meanwhile', 'moved', 'reopened', 'new-session', 'forked', 'from-another-tab', 'corrupted', 'own-ran'] as const;
export const OUTCOME_PATHS = ['line', 'dialog', 'tool', 'compare', 'meanwhile', 'another-tab'] as const;

const Outcome = z.strictObject({
  kind: z.enum(OUTCOME_KINDS),
  /** Where it came from: the Command line, a dialog's answer, a seed_desk call, the compare panel, a Meanwhile button, another tab. */
  path: z.optional(z.enum(OUTCOME_PATHS)),
  code: z.optional(z.enum(REFUSAL_CODES)),
  change: z.optional(Change),
  wrote: z.optional(Wrote),
  /** answered: the revision the answer was read at (a seed_desk result: its revision). */
  revision: z.optional(RevisionMatch),
  /** answered: `some` rows (a desk), `none` (a family with no items), or exactly these ids. */
  rows: z.optional(z.union([z.enum(['some', 'none']), z.array(Item)])),
  /** reopened: whether the reopen moved the leaf; why it stood off the last appended entry before. */
  leafMoved: z.optional(z.boolean()),
  behind: z.optional(z.enum(['navigated', 'another-tab'])),
  /** corrupted: whether a valid snapshot was appended after the invalid one. */
  validAfter: z.optional(z.boolean()),
  /** answered: the reserved packets the answer listed, per item (what the extension said, which may differ from the page's desk). */
  reserved: z.optional(z.partialRecord(Item, Count)),
  /** A dialog's answer: whether a Meanwhile action landed while that dialog waited. */
  raced: z.optional(z.boolean()),
  ...factPlacement,
});
export type OutcomeMatch = z.infer<typeof Outcome>;

const Tool = z.strictObject({
  op: z.optional(z.string()),
  /** The arguments sent, compared key by key (only the keys given). */
  args: z.optional(z.record(z.string(), z.unknown())),
  /** A call whose arguments differ from these in at least one of the keys given (asked for something else). */
  argsOtherThan: z.optional(z.record(z.string(), z.unknown())),
  /** Who made it: one of these (absent: anyone). */
  by: z.optional(z.array(z.enum(TOOL_CALLERS)).check(z.minLength(1))),
  /** What the same caller did next: a query, another call, or nothing yet. */
  then: z.optional(z.enum(['query', 'other', 'nothing'])),
  /** The seed desk's own answer (`details`): ok, its scope, its refusal code. */
  ok: z.optional(z.boolean()),
  scope: z.optional(z.string()),
  code: z.optional(z.enum(REFUSAL_CODES)),
  /** The grant the desk judged it under (its answer's `agentEnabled`): an act that went through with `false` had no grant. */
  agentEnabled: z.optional(z.boolean()),
  /** Which gate stopped it before the desk: the host's schema check, its approval, a failed write; `none` = the desk answered. */
  stopped: z.optional(z.enum(['schema', 'approval', 'failed', 'none'])),
  /** How the host resolved approval for it. */
  approval: z.optional(
    z.strictObject({ policy: z.optional(z.enum(APPROVAL_DECISIONS)), source: z.optional(z.enum(['tool', 'user', 'mode'])), tier: z.optional(z.enum(APPROVAL_TIERS)) }),
  ),
  /** The revision the result reports. */
  revision: z.optional(RevisionMatch),
  /** A query's answer: `some` items, `none` (a family with no items), or exactly these ids (its `details.data.items`). */
  items: z.optional(z.union([z.enum(['some', 'none']), z.array(Item)])),
  /** The result's text ends with `revision: <the revision its details carry>` (what a model is sure to get). */
  revisionInText: z.optional(z.boolean()),
  /**
   * Where the `expectedRevision` it sent came from: a query earlier in the step, the newest
   * successful query before it (`last-query`; `not-last-query`: any other revision, or none), an
   * older revision of this session, the compared branch, the current one; `{ sameAs }`: the
   * revision the fact an earlier part named reported.
   */
  expectedRevision: z.optional(z.union([z.enum(['queried', 'last-query', 'not-last-query', 'stale', 'other-branch', 'current']), z.strictObject({ sameAs: z.string() })])),
  wrote: z.optional(Wrote),
  ...factPlacement,
});
export type ToolMatch = z.infer<typeof Tool>;

/**
 * Issue 37's lesson: a line the learner's own extension ended, read against its custom entries of
 * `type` (each one's `data.text` is a note). `says`: the line's text names the active branch's
 * note (and no other note), or names a note that lies only off the branch. `firstAfter`: the line
 * is the first one after a move in the tree or a reopen, with nothing appended between, so what it
 * says is what the extension rebuilt. `otherNote`: off the branch lies a different note.
 */
const Note = z.strictObject({
  type: z.string(),
  says: z.enum(['this-branch', 'another-branch']),
  firstAfter: z.optional(z.enum(['moved', 'reopened'])),
  otherNote: z.optional(z.boolean()),
  /** Whether the line appended entries: `nothing` is a read (`/note`), `something` a write (`/note <text>`). */
  wrote: z.optional(Wrote),
  ...factPlacement,
});
export type NoteMatch = z.infer<typeof Note>;

const Dialog = z.strictObject({
  /** `none`: still waiting. */
  answered: z.optional(z.enum(['confirm', 'cancel', 'none'])),
  about: z.optional(Change),
  ...factPlacement,
});
export type DialogMatch = z.infer<typeof Dialog>;

const Numbers = z.strictObject({ reserved: z.optional(z.union([Count, z.literal('all')])), available: z.optional(Count) });
/** Numbers per item (`every`: each item). */
const DeskNumbers = z.partialRecord(z.union([Item, z.literal('every')]), Numbers);

const State = {
  /** The desk's numbers now, per item (`every`: each item). */
  desk: z.optional(DeskNumbers),
  grant: z.optional(z.enum(['on', 'off'])),
  /** Where the leaf stands: off the last appended entry (transient) or not; at the session's root. */
  leaf: z.optional(z.strictObject({ transient: z.optional(z.boolean()), at: z.optional(z.literal('root')) })),
  /** The active branch: the entry the revision names, what follows it, which role comes first. */
  branch: z.optional(
    z.strictObject({
      /** `newest`: the entry is the newest seed desk entry on the branch (the desk read the branch again after appending). */
      current: z.optional(z.strictObject({ role: z.optional(z.string()), sentToModel: z.optional(z.boolean()), newest: z.optional(z.boolean()) })),
      nothingAfter: z.optional(z.array(z.string())),
      order: z.optional(z.tuple([z.string(), z.string()])),
    }),
  ),
  /** Seed desk entries: in the journal, on this branch, or on other branches. */
  entries: z.optional(z.strictObject({ type: z.literal('seed-desk'), where: z.optional(z.enum(['journal', 'branch', 'elsewhere'])), count: Count })),
  /** Branches holding seed desk entries, as far as the page can tell: this one, plus one when entries lie off it. */
  branches: z.optional(Count),
  approval: z.optional(
    z.strictObject({
      mode: z.optional(z.enum(APPROVAL_MODES)),
      policy: z.optional(z.enum([...APPROVAL_DECISIONS, 'not-set'])),
      interactive: z.optional(z.boolean()),
      pending: z.optional(z.boolean()),
    }),
  ),
  /** The Journal panel: its filter, the "Host file" note, a latched storage failure. */
  journal: z.optional(
    z.strictObject({
      filter: z.optional(z.union([z.literal('set'), z.strictObject({ contains: z.string() })])),
      hostFile: z.optional(z.enum(['written', 'not-written'])),
      writeFailure: z.optional(z.boolean()),
      /** At least one line is shown, each a seed desk state entry whose data has exactly these keys. */
      snapshotKeys: z.optional(z.array(z.string())),
    }),
  ),
  /** The newest host event on `channel` carries the current revision. */
  event: z.optional(z.strictObject({ channel: z.string(), revision: z.literal('current') })),
  status: z.optional(z.strictObject({ shows: z.literal('revision') })),
  /** The compare panel: shown, taken at the current revision, against another branch; `here`/`there`: each side's numbers. */
  comparison: z.optional(
    z.strictObject({
      shown: z.optional(z.boolean()),
      current: z.optional(z.boolean()),
      otherBranch: z.optional(z.boolean()),
      here: z.optional(DeskNumbers),
      there: z.optional(DeskNumbers),
    }),
  ),
  /** Which extension the worker runs: the one that ships, the learner's edited version ("Break it"), or their own (issue 37). */
  extension: z.optional(z.enum(['shipped', 'edited', 'own'])),
  /** The page's desk finds this branch corrupt (true) or readable (false). A goal with `corruptBranch: true` is judged on a corrupt branch. */
  corruptBranch: z.optional(z.boolean()),
  /** The closing question's answer (the newest). */
  closing: z.optional(z.enum(['answered', 'yes', 'no'])),
  /** The step's own question (its `question:`): answered at all, or with this answer (the newest in the step). */
  question: z.optional(z.enum(['answered', 'yes', 'no'])),
  /** A named check (`namedChecks.ts`), only where arithmetic is the point. */
  check: z.optional(z.strictObject({ name: z.string(), item: z.optional(Item) })),
};

export const CONDITION_KEYS = ['outcome', 'tool', 'dialog', 'note', ...Object.keys(State), 'not', 'all', 'any'] as const;

const exactlyOne = z.refine((value: unknown) => CONDITION_KEYS.filter((key) => (value as Record<string, unknown>)[key] !== undefined).length === 1, {
  message: `name exactly one condition: ${CONDITION_KEYS.join(', ')}`,
});

const baseShape = { outcome: z.optional(Outcome), tool: z.optional(Tool), dialog: z.optional(Dialog), note: z.optional(Note), ...State };
type BaseCondition = z.infer<ReturnType<typeof z.strictObject<typeof baseShape>>>;

/** One condition: a fact or a state to find, or `not`/`all`/`any` of others. */
export type Condition = BaseCondition & { not?: Condition | undefined; all?: Condition[] | undefined; any?: Condition[] | undefined };

const ConditionObject = z.strictObject({
  ...baseShape,
  get not(): z.ZodMiniOptional<z.ZodMiniType<Condition>> {
    return z.optional(ConditionSchema);
  },
  get all(): z.ZodMiniOptional<z.ZodMiniArray<z.ZodMiniType<Condition>>> {
    return z.optional(z.array(ConditionSchema));
  },
  get any(): z.ZodMiniOptional<z.ZodMiniArray<z.ZodMiniType<Condition>>> {
    return z.optional(z.array(ConditionSchema));
  },
});

// Lazy: the object's shape refers back to this schema, so it is checked only once both exist.
export const ConditionSchema: z.ZodMiniType<Condition> = z.lazy(() => ConditionObject.check(exactlyOne));

const combinators = { not: z.optional(ConditionSchema), all: z.optional(z.array(ConditionSchema)), any: z.optional(z.array(ConditionSchema)) };

/** A likelier mistake, checked when its part is unmet: the condition, and what to say when it holds. */
export const WhenSchema = z.strictObject({ ...baseShape, ...combinators, say: z.string().check(z.minLength(1)) }).check(exactlyOne);
export type When = z.infer<typeof WhenSchema>;

export const GoalPartSchema = z
  .strictObject({
    ...baseShape,
    ...combinators,
    /** The "not yet" reason when this part is the first unmet one (`{item.reserved}`, `{code}`… are filled in). */
    unmet: z.optional(z.string().check(z.minLength(1))),
    when: z.optional(z.array(WhenSchema)),
    /** Names the earliest fact this part matched, for a later part's `after`, `before` or `sameAs`. */
    as: z.optional(z.string()),
  })
  .check(exactlyOne);
export type GoalPart = z.infer<typeof GoalPartSchema>;

/** The placeholders a reason (`unmet`, `say`) may use besides `{<item>.reserved|available|packets}` (goalWords.ts fills them). */
export const PLACEHOLDERS = ['revision', 'deskEntries', 'filter', 'code', 'op', 'id', 'before', 'after', 'here', 'there', 'combined', 'packets'] as const;

export const GoalSchema = z.array(GoalPartSchema).check(z.minLength(1));
export type Goal = z.infer<typeof GoalSchema>;
