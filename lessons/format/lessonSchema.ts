// Relative imports with `.js`, not `$domain`: the lesson compiler (scripts/lesson-plugin.mjs) loads
// this module in Node too, outside Vite's aliases, and Vite's config loader wants file extensions.
import '../../domain/zodSetup.js';
import * as z from 'zod/mini';
import { APPROVAL_DECISIONS, APPROVAL_MODES } from '../../extension/ompApi.js';
import { GoalSchema, type Goal } from './goalSchema.js';

/**
 * Lessons are content: `lessons/<NN-lesson>/lesson.md` and one markdown file per step, compiled
 * at build time (scripts/lesson-plugin.mjs) and validated here. The page receives the compiled
 * lesson as JSON and never parses it again: it imports only the types of this module.
 *
 * An action is one thing "Do it for me" does, through the same page paths a learner uses
 * (command line, dialog buttons, tool panel, tree, sessions). Placeholders in tool arguments:
 * "$latest" is the revision from the latest tool result; "$previous" the one before.
 */
export const LessonActionSchema = z.discriminatedUnion('do', [
  z.strictObject({ do: z.literal('line'), text: z.string() }),
  z.strictObject({ do: z.literal('confirm') }),
  z.strictObject({ do: z.literal('cancel') }),
  /** While a dialog waits: another action, on a seed the race is not about (marigold-french). */
  z.strictObject({ do: z.literal('meanwhile-reserve') }),
  /** While a dialog waits: a session-tree move of the leaf to its parent. */
  z.strictObject({ do: z.literal('meanwhile-step-back') }),
  /** Outside any dialog: the leaf steps back to its parent (no append). */
  z.strictObject({ do: z.literal('step-back') }),
  /** The Refusals panel's demo entry: an invalid snapshot appended on purpose. */
  z.strictObject({ do: z.literal('corrupt-demo') }),
  /** The same invalid snapshot, then a valid one after it (the leaf on the valid one). */
  z.strictObject({ do: z.literal('corrupt-then-valid') }),
  z.strictObject({ do: z.literal('tool'), args: z.record(z.string(), z.unknown()) }),
  z.strictObject({ do: z.literal('approve') }),
  z.strictObject({ do: z.literal('deny') }),
  /** The user's `tools.approval.seed_desk`; null is "not set". */
  z.strictObject({ do: z.literal('policy'), value: z.nullable(z.enum(APPROVAL_DECISIONS)) }),
  z.strictObject({ do: z.literal('approval-mode'), value: z.enum(APPROVAL_MODES) }),
  z.strictObject({ do: z.literal('interactive'), value: z.boolean() }),
  z.strictObject({ do: z.literal('filter-journal'), text: z.string() }),
  z.strictObject({ do: z.literal('reopen') }),
  /** Branch from the first tree row whose text contains `text` (host rules apply). */
  z.strictObject({ do: z.literal('branch-from'), text: z.string() }),
  /** Branch from the parent of the latest seed desk entry on the current branch. */
  z.strictObject({ do: z.literal('branch-before-last-reservation') }),
  /** Compare with the newest seed desk entry that is not on the current branch. */
  z.strictObject({ do: z.literal('compare-with-other-branch') }),
  z.strictObject({ do: z.literal('try-other-revision') }),
  // `fresh`: the session a new host process starts (a lesson's start), unwritten until its first assistant message; without it, OMP's `/new`, written at once.
  z.strictObject({ do: z.literal('new-session'), fresh: z.optional(z.literal(true)) }),
  z.strictObject({ do: z.literal('twin-tab') }),
  z.strictObject({ do: z.literal('fail-next-write') }),
  z.strictObject({ do: z.literal('closing-answer'), value: z.enum(['yes', 'no']) }),
  /** The step's own question (its `question:`), answered with Yes or No. */
  z.strictObject({ do: z.literal('answer'), value: z.enum(['yes', 'no']) }),
  /**
   * The Agents tab: a scripted agent started afresh and stepped `calls` times (to its end when
   * absent), each call through the same host path as the tool panel.
   */
  z.strictObject({ do: z.literal('run-agent'), agent: z.enum(['careful', 'careless']), calls: z.optional(z.int().check(z.positive())) }),
  /** The Agents tab's "Run to end": the agent's run so far goes on to its end. */
  z.strictObject({ do: z.literal('continue-agent') }),
  /** The Code tab's editor: in `file`, the text `find` (once) becomes `replace` ("Break it"'s prepared edits). */
  z.strictObject({ do: z.literal('apply-edit'), file: z.string(), find: z.string(), replace: z.string() }),
  /** "Run my version": the edited files compiled in the worker and run in place of the shipped extension. */
  z.strictObject({ do: z.literal('run-edited') }),
  /** "Back to the shipped extension". */
  z.strictObject({ do: z.literal('shipped-extension') }),
  /** "Discard my edits": the editor shows the shipped files again (nothing runs; a wrong attempt's shortcut). */
  z.strictObject({ do: z.literal('discard-edits') }),
  /** "Your own extension" (issue 37): its files begin again from one of the starts the workspace offers (nothing runs yet). */
  z.strictObject({ do: z.literal('own-files'), from: z.string() }),
  /** The own extension's editor: in `my-extension.ts`, the text `find` (once) becomes `replace`. */
  z.strictObject({ do: z.literal('own-edit'), find: z.string(), replace: z.string() }),
  /** The own workspace's "Run my version": the learner's files run alone, on the own extension's session. */
  z.strictObject({ do: z.literal('run-own') }),
]);
export type LessonAction = z.infer<typeof LessonActionSchema>;

const Text = z.string().check(z.trim(), z.minLength(1));
const Actions = z.array(LessonActionSchema);

/** A known-wrong attempt: from the step's start, these actions must NOT tick, and the "not yet" reason must contain `hint`. */
export const WrongAttemptSchema = z.strictObject({
  /** What the learner did wrong, for the test's name. */
  name: Text,
  try: Actions.check(z.minLength(1)),
  hint: Text,
});
export type WrongAttempt = z.infer<typeof WrongAttemptSchema>;

/** A step file's frontmatter (`lessons/<lesson>/<NN-step>.md`); instruction, why and expected come from its body. */
export const StepFrontmatterSchema = z.strictObject({
  /** Stable: progress is stored by step id, and a step address names its position, not its id. */
  id: z.string().check(z.regex(/^[a-z0-9][a-z0-9-]*$/, 'an id is lower-case letters, digits and dashes')),
  title: Text,
  /** The Tools tab the step opens when it becomes current (views/workspace/tabs.ts). */
  tab: z.optional(z.string()),
  /** Controls or regions to outline while the step is current (views/workspace/controls.ts, layout.ts). */
  outline: z._default(z.array(z.string()), []),
  /** The named region of the extension's source the step is about (`// #region <name>`); the Code tab opens on it. */
  code: z.optional(z.strictObject({ region: z.string() })),
  /** A Yes/No question shown below the step (answered with the `answer` action); the explanation opens once answered. */
  question: z.optional(z.strictObject({ ask: Text, answer: z.enum(['yes', 'no']), explain: Text })),
  /** The step offers "Ask a real model" when one is connected (the Agents tab's Real model), and says where to connect one when not. */
  realModel: z.optional(z.literal(true)),
  /** What "Do it for me" does; replayed by the tests and the demos, it must tick. */
  solution: Actions.check(z.minLength(1)),
  wrong: z.array(WrongAttemptSchema).check(z.minLength(1, 'every step needs at least one wrong attempt that must not tick')),
  goal: GoalSchema,
});

/**
 * A step as the page shows it: the frontmatter without its goal (fetched with the checker, at the
 * learner's first action) and its wrong attempts (tests only), and the body's texts.
 */
export const LessonStepSchema = z.strictObject({
  ...z.omit(StepFrontmatterSchema, { wrong: true, goal: true }).shape,
  /** What to do, in the playground's own words (may contain `code` in backticks; paragraphs split by a blank line). */
  instruction: Text,
  /** Why it matters (the body's `## Why`). */
  why: Text,
  /** What the learner should see (the body's `## Expected`). */
  expected: Text,
});
export type LessonStep = z.infer<typeof LessonStepSchema>;

export const LessonFrontmatterSchema = z.strictObject({
  id: z.string().check(z.regex(/^[a-z0-9][a-z0-9-]*$/, 'an id is lower-case letters, digits and dashes')),
  title: Text,
  summary: Text,
  /** Reset brings the playground to this start: a new session, then these actions. */
  setup: z._default(Actions, []),
  /** The lesson works in "Your own extension" (issue 37): its Code tab is the own workspace, and choosing it keeps the own extension. */
  own: z.optional(z.literal(true)),
});

export const LessonSchema = z.strictObject({ ...LessonFrontmatterSchema.shape, steps: z.array(LessonStepSchema).check(z.minLength(1)) });
export type Lesson = z.infer<typeof LessonSchema>;

/** A lesson's goals by step id (`virtual:lesson-goals/<id>`). */
export type LessonGoals = Readonly<Record<string, Goal>>;

/** What tests, the demos and host-test load (scripts/lessons.mjs): every step with its goal, its wrong attempts and its file. */
export type CompiledStep = LessonStep & { readonly goal: Goal; readonly wrong: readonly WrongAttempt[]; readonly file: string };
export type CompiledLesson = Omit<Lesson, 'steps'> & { readonly steps: readonly CompiledStep[]; readonly folder: string };

/** `virtual:lessons-index`: what the first screen needs to list the lessons and count progress. */
export interface LessonIndexEntry {
  readonly id: string;
  readonly title: string;
  /** Step ids, in order (progress is stored by step id). */
  readonly steps: readonly string[];
  /** The lesson works in "Your own extension". */
  readonly own?: true;
}
