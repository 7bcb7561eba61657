import '$domain/zodSetup';
import * as z from 'zod/mini';
import { APPROVAL_DECISIONS, APPROVAL_MODES } from '../protocol/hostFacts';

/**
 * Lessons are data. An action is one thing "Do it for me" does, through the same page paths a
 * learner uses (command line, dialog buttons, tool panel, tree, sessions). Placeholders in tool
 * arguments: "$latest" is the revision from the latest tool result; "$previous" the one before.
 */
export const LessonActionSchema = z.discriminatedUnion('do', [
  z.object({ do: z.literal('line'), text: z.string() }),
  z.object({ do: z.literal('confirm') }),
  z.object({ do: z.literal('cancel') }),
  /** While a dialog waits: another action, on a seed the race is not about (marigold-french). */
  z.object({ do: z.literal('meanwhile-reserve') }),
  /** While a dialog waits: a session-tree move of the leaf to its parent. */
  z.object({ do: z.literal('meanwhile-step-back') }),
  /** Outside any dialog: the leaf steps back to its parent (no append). */
  z.object({ do: z.literal('step-back') }),
  /** The Refusals panel's demo entry: an invalid snapshot appended on purpose. */
  z.object({ do: z.literal('corrupt-demo') }),
  z.object({ do: z.literal('tool'), args: z.record(z.string(), z.unknown()) }),
  z.object({ do: z.literal('approve') }),
  z.object({ do: z.literal('deny') }),
  /** The user's `tools.approval.seed_desk`; null is "not set". */
  z.object({ do: z.literal('policy'), value: z.nullable(z.enum(APPROVAL_DECISIONS)) }),
  z.object({ do: z.literal('approval-mode'), value: z.enum(APPROVAL_MODES) }),
  z.object({ do: z.literal('interactive'), value: z.boolean() }),
  z.object({ do: z.literal('filter-journal'), text: z.string() }),
  z.object({ do: z.literal('reopen') }),
  /** Branch from the first tree row whose text contains `text` (host rules apply). */
  z.object({ do: z.literal('branch-from'), text: z.string() }),
  /** Branch from the parent of the latest seed desk entry on the current branch. */
  z.object({ do: z.literal('branch-before-last-reservation') }),
  /** Compare with the newest seed desk entry that is not on the current branch. */
  z.object({ do: z.literal('compare-with-other-branch') }),
  z.object({ do: z.literal('try-other-revision') }),
  z.object({ do: z.literal('new-session') }),
  z.object({ do: z.literal('twin-tab') }),
  z.object({ do: z.literal('fail-next-write') }),
  z.object({ do: z.literal('closing-answer'), value: z.enum(['yes', 'no']) }),
]);
export type LessonAction = z.infer<typeof LessonActionSchema>;

export const LessonStepSchema = z.object({
  /** Stable id, used by the checkpoint registry and in tests. */
  id: z.string(),
  title: z.string(),
  /** What to do, in the playground's own words (may contain `code` in backticks). */
  instruction: z.string(),
  /** Why it matters: one or two sentences shown under the instruction. */
  why: z.string(),
  /** The commands or clicks expected, shown as a hint. */
  expected: z.string(),
  /** Key into the checkpoint registry. */
  checkpoint: z.string(),
  doItForMe: z.array(LessonActionSchema),
});
export type LessonStep = z.infer<typeof LessonStepSchema>;

export const LessonSchema = z.object({
  id: z.string(),
  title: z.string(),
  summary: z.string(),
  /** Reset brings the playground to this start: a new session, optionally prepared by these actions. */
  setup: z.array(LessonActionSchema),
  steps: z.array(LessonStepSchema),
});
export type Lesson = z.infer<typeof LessonSchema>;
