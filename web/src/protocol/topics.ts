import '$domain/zodSetup';
import * as z from 'zod/mini';
import { FIXTURE_IDS } from '$domain/fixture';
import { NOTIFY_LEVELS } from '../../../extension/ompApi';
import { GraphColumnsSchema } from './graphColumns';
import { sameType } from './sameType';
import { TOPICS } from './vocabularies';

/**
 * What a panel can watch, and the updates the worker sends for it: each topic's watch and its
 * update, declared once per topic (the topic names themselves in `vocabularies.ts`).
 */

export const DeskRowSchema = z.object({
  id: z.enum(FIXTURE_IDS),
  name: z.string(),
  family: z.string(),
  packets: z.number(),
  reserved: z.number(),
  available: z.number(),
});

export const BranchItemSchema = z.object({
  id: z.string(),
  type: z.string(),
  role: z.string(),
  text: z.string(),
  label: z.nullable(z.string()),
  revision: z.nullable(z.string()),
  /** Whether the host would replay this entry to the model (messages yes; custom state entries and labels no). */
  modelVisible: z.boolean(),
});
export type BranchItem = z.infer<typeof BranchItemSchema>;

export const EventLogItemSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('event'), seq: z.number(), channel: z.string(), payload: z.string() }),
  z.object({ kind: z.literal('notification'), seq: z.number(), level: z.enum(NOTIFY_LEVELS), text: z.string() }),
]);
export type EventLogItem = z.infer<typeof EventLogItemSchema>;

/**
 * Why the leaf is not on the last appended entry (where a reopen puts it): this tab moved it
 * without appending (`navigated`), and/or another tab appended the last entry (`foreignEntryId`).
 */
export const LeafBehindSchema = z.object({ navigated: z.boolean(), foreignEntryId: z.nullable(z.string()) });
export type LeafBehind = z.infer<typeof LeafBehindSchema>;

export const SessionSummarySchema = z.object({
  id: z.string(),
  title: z.nullable(z.string()),
  parentSession: z.nullable(z.string()),
  createdAt: z.string(),
  entryCount: z.number(),
  current: z.boolean(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

export const TreeFilterSchema = z.enum(['all', 'conversation', 'seed-desk']);
export type TreeFilter = z.infer<typeof TreeFilterSchema>;

const SideSchema = z.object({
  tipId: z.nullable(z.string()),
  revision: z.string(),
  ok: z.boolean(),
  agentEnabled: z.boolean(),
  rows: z.array(DeskRowSchema),
  corruptEntryId: z.optional(z.string()),
  problem: z.optional(z.string()),
});

const SinceEntrySchema = z.object({ id: z.string(), type: z.string(), role: z.string(), text: z.string(), isSeedDesk: z.boolean() });

export const ComparisonSchema = z.object({
  left: SideSchema,
  right: SideSchema,
  forkPointId: z.nullable(z.string()),
  leftSince: z.array(SinceEntrySchema),
  rightSince: z.array(SinceEntrySchema),
  differences: z.array(z.object({ id: z.string(), left: z.number(), right: z.number() })),
  grantDiffers: z.boolean(),
  combinedReserved: z.array(z.object({ id: z.string(), reserved: z.number(), packets: z.number() })),
});
export type ComparisonView = z.infer<typeof ComparisonSchema>;

/**
 * Which entry a tree action means. The page names the node it shows (`id`); a lesson's
 * "Do it for me" names what it is looking for, and the worker, which holds the journal, finds it.
 */
export const EntryTargetSchema = z.discriminatedUnion('by', [
  z.object({ by: z.literal('id'), id: z.string() }),
  /** The first entry, in the tree's order (top to bottom), whose display text contains `text`. */
  z.object({ by: z.literal('text'), text: z.string() }),
  /** The parent of the latest seed desk entry on the current branch. */
  z.object({ by: z.literal('before-last-reservation') }),
  /** The newest seed desk entry that is not on the current branch. */
  z.object({ by: z.literal('newest-off-branch') }),
]);
export type EntryTarget = z.infer<typeof EntryTargetSchema>;

/**
 * What a panel watches while it is shown. The worker answers a watch at once and then sends only
 * what changed, inside the answer to whatever request changed it (or in a push, when another tab did).
 */
export const WatchSchema = z.discriminatedUnion('topic', [
  /** The active branch as the conversation shows it (its last entries). */
  z.object({ topic: z.literal('conversation') }),
  /** The host's events and notifications. */
  z.object({ topic: z.literal('events') }),
  /** The journal file's lines containing `filter`. */
  z.object({ topic: z.literal('journal'), filter: z.string() }),
  /** The session graph, with filtered-out entries collapsed into the edges. */
  z.object({ topic: z.literal('graph'), filter: TreeFilterSchema }),
  z.object({ topic: z.literal('sessions') }),
  /** The current branch beside another one, found by `other`. */
  z.object({ topic: z.literal('compare'), other: EntryTargetSchema }),
]);
export type Watch = z.infer<typeof WatchSchema>;
export type Topic = Watch['topic'];
sameType<Topic, (typeof TOPICS)[number]>(true);

const ModeSchema = z.enum(['replace', 'append']);

/** A change to one watched topic. `append`: add to what the page holds; `replace`: the whole value. */
export const TopicUpdateSchema = z.discriminatedUnion('topic', [
  z.object({ topic: z.literal('conversation'), mode: ModeSchema, items: z.array(BranchItemSchema) }),
  z.object({ topic: z.literal('events'), mode: ModeSchema, items: z.array(EventLogItemSchema) }),
  z.object({ topic: z.literal('journal'), mode: ModeSchema, filter: z.string(), lineCount: z.number(), matchCount: z.number(), lines: z.array(z.string()) }),
  /** The rows from `from` on (as columns) replace what the page holds from there (0: all of them; see `spliceGraphRows`). */
  z.object({ topic: z.literal('graph'), filter: TreeFilterSchema, from: z.number(), rows: GraphColumnsSchema, leafId: z.nullable(z.string()) }),
  z.object({ topic: z.literal('sessions'), sessions: z.array(SessionSummarySchema) }),
  /** `comparison` null: the compared entry is gone (another session) or was never found (`missing`). */
  z.object({ topic: z.literal('compare'), otherId: z.nullable(z.string()), comparison: z.nullable(ComparisonSchema), missing: z.nullable(z.string()) }),
]);
export type TopicUpdate = z.infer<typeof TopicUpdateSchema>;

