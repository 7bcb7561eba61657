import '$domain/zodSetup';
import * as z from 'zod/mini';
import { FIXTURE_IDS } from '$domain/fixture';
import { REFUSAL_CODES } from '$domain/refusal';
import { APPROVAL_DECISIONS, APPROVAL_MODES, APPROVAL_TIERS } from '../../../extension/ompApi';
import { STORE_FAULTS, TOPICS } from './vocabularies';
import { GraphColumnsSchema } from './graphColumns';

/**
 * The worker protocol. Both ends parse what they receive with these schemas (zod/mini keeps the
 * main-thread bundle small). One user action is one request; its answer carries the result and
 * what changed (the view when it differs, and updates to the topics the page watches), so the
 * page never asks again after an answer.
 */

const RefusalCodeSchema = z.enum(REFUSAL_CODES);

/** A human change as the extension reported it; `packets` stays the typed text when it is not a whole number. */
export const DeskChangeSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('reservation'), action: z.enum(['reserve', 'release']), id: z.string(), packets: z.union([z.number(), z.string()]) }),
  z.object({ kind: z.literal('grant'), enabled: z.boolean() }),
]);
export type DeskChange = z.infer<typeof DeskChangeSchema>;

const DeskRowSchema = z.object({
  id: z.enum(FIXTURE_IDS),
  name: z.string(),
  family: z.string(),
  packets: z.number(),
  reserved: z.number(),
  available: z.number(),
});

const BranchItemSchema = z.object({
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
  z.object({ kind: z.literal('notification'), seq: z.number(), level: z.enum(['info', 'warning', 'error']), text: z.string() }),
]);
export type EventLogItem = z.infer<typeof EventLogItemSchema>;

export const ApprovalPolicySchema = z.enum(APPROVAL_DECISIONS);
/** The host's approval policy for `seed_desk`: what `tools.approval.seed_desk` says. */
export type ApprovalPolicy = z.infer<typeof ApprovalPolicySchema>;

/** The host's `tools.approvalMode`: the highest tier that runs without a prompt. */
export const ApprovalModeSchema = z.enum(APPROVAL_MODES);
export type ApprovalModeView = z.infer<typeof ApprovalModeSchema>;

/** How the host resolved approval for one call (`resolveApproval`'s answer). */
export const ApprovalResolutionSchema = z.object({
  policy: ApprovalPolicySchema,
  tier: z.enum(APPROVAL_TIERS),
  source: z.enum(['tool', 'user', 'mode']),
});
export type ApprovalResolutionView = z.infer<typeof ApprovalResolutionSchema>;

/**
 * Why the leaf is not on the last appended entry (where a reopen puts it): this tab moved it
 * without appending (`navigated`), and/or another tab appended the last entry (`foreignEntryId`).
 */
export const LeafBehindSchema = z.object({ navigated: z.boolean(), foreignEntryId: z.nullable(z.string()) });
export type LeafBehind = z.infer<typeof LeafBehindSchema>;

/** `details` of a seed_desk result: what a host exposing structured details shows, beyond the text. */
export const ToolDetailsSchema = z.object({
  ok: z.boolean(),
  scope: z.enum(['discover', 'query', 'inspect', 'act', 'seed_desk']),
  revision: z.optional(z.string()),
  agentEnabled: z.optional(z.boolean()),
  code: z.optional(RefusalCodeSchema),
  data: z.optional(z.unknown()),
});
export type ToolDetailsView = z.infer<typeof ToolDetailsSchema>;

export const ToolCallOutcomeSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('result'),
    callId: z.string(),
    /** Which gate answered: the host's schema check, the host's approval, or the domain. */
    stage: z.enum(['schema', 'approval', 'domain']),
    isError: z.boolean(),
    text: z.string(),
    details: z.nullable(ToolDetailsSchema),
    /** The host's approval resolution, when the call got past the schema check. */
    approval: z.optional(ApprovalResolutionSchema),
  }),
  z.object({ kind: z.literal('approval'), callId: z.string(), prompt: z.string(), approval: z.optional(ApprovalResolutionSchema) }),
  z.object({ kind: z.literal('failed'), text: z.string() }),
]);
export type ToolCallOutcome = z.infer<typeof ToolCallOutcomeSchema>;

/** The extension the worker's host runs (issue 23): `extension/seed-desk.ts` as shipped, or the learner's edited version. */
export const ExtensionKindSchema = z.enum(['shipped', 'edited']);
export type ExtensionKind = z.infer<typeof ExtensionKindSchema>;

/** A compile error (or a load failure, `file` null) in the learner's files: line and column are 1-based, 0 when unknown. */
export const CompileProblemSchema = z.object({ file: z.nullable(z.string()), line: z.number(), column: z.number(), text: z.string() });
export type CompileProblem = z.infer<typeof CompileProblemSchema>;

/** What "Run my version" (or its restore after a reload) came to: the extension now running, or why nothing changed. */
export const EditRunSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('running'), extension: ExtensionKindSchema, compileMs: z.nullable(z.number()) }),
  z.object({ kind: z.literal('rejected'), problems: z.array(CompileProblemSchema) }),
]);
export type EditRun = z.infer<typeof EditRunSchema>;

/** The learner's files, path → text (only the ones that differ from the shipped source). */
const EditedFilesSchema = z.record(z.string(), z.string());

export const HostViewSchema = z.object({
  sessionId: z.string(),
  entryCount: z.number(),
  leafId: z.nullable(z.string()),
  revision: z.string(),
  corrupt: z.nullable(z.object({ entryId: z.string(), problem: z.string() })),
  rows: z.array(DeskRowSchema),
  agentEnabled: z.boolean(),
  status: z.string(),
  interactive: z.boolean(),
  writeFailure: z.nullable(z.string()),
  notice: z.nullable(z.string()),
  transientLeaf: z.boolean(),
  /** Non-null exactly when `transientLeaf`: what put the leaf off the last appended entry. */
  leafBehind: z.nullable(LeafBehindSchema),
  /** The user's `tools.approval.seed_desk`; null when not set (the host's default). */
  approvalPolicy: z.nullable(ApprovalPolicySchema),
  approvalMode: ApprovalModeSchema,
  /** The host's persistence gate: a real host writes the session file only once an assistant message exists. */
  hostFileWritten: z.boolean(),
  pendingApproval: z.nullable(z.object({ callId: z.string(), prompt: z.string() })),
  seedDeskEntryCount: z.number(),
  /** Which extension the host runs: the shipped module or the learner's edited version (the page marks what that one says). Absent: shipped. */
  extension: z.optional(ExtensionKindSchema),
  /** An edited version ran before this page loaded and waits for the page to run it again (`restoreEdited`). */
  editedWaiting: z.optional(z.boolean()),
});
export type HostView = z.infer<typeof HostViewSchema>;

/** A desk query's answer as data: the revision it was read at and the rows it listed. */
export const QueryAnswerSchema = z.object({
  revision: z.string(),
  rows: z.array(z.object({ id: z.string(), available: z.number(), reserved: z.number() })),
});
export type QueryAnswer = z.infer<typeof QueryAnswerSchema>;

/**
 * What a line (or a dialog's answer) came to, as the host observed it: `text` is what the
 * extension said through `notify` (or the host's own words), the rest is data from the command's
 * structured outcome, which checkpoints read instead of the text.
 */
export const LineOutcomeSchema = z.discriminatedUnion('kind', [
  /** `query`: what the answer listed, as data (checkpoints read this, never the text). */
  z.object({ kind: z.literal('answer'), text: z.string(), query: QueryAnswerSchema }),
  z.object({ kind: z.literal('said'), text: z.string() }),
  z.object({ kind: z.literal('usage'), text: z.string() }),
  /** `change`: what was asked, once the extension understood the arguments. */
  z.object({ kind: z.literal('refused'), code: RefusalCodeSchema, text: z.string(), change: z.nullable(DeskChangeSchema) }),
  z.object({ kind: z.literal('failed'), text: z.string() }),
  /** The extension stopped at `ctx.ui.confirm`: the page shows the dialog and answers it by id. */
  z.object({ kind: z.literal('confirm'), dialogId: z.string(), title: z.string(), message: z.string(), text: z.string() }),
  z.object({ kind: z.literal('cancelled'), text: z.string(), change: DeskChangeSchema }),
  z.object({ kind: z.literal('committed'), text: z.string(), change: DeskChangeSchema, revision: z.string() }),
  /** The extension finished without an outcome this page knows: what it said is all there is. */
  z.object({ kind: z.literal('notice'), text: z.string() }),
  /** The extension's code threw: shown as the host reports an extension error; nothing was appended by the host. */
  z.object({ kind: z.literal('error'), text: z.string() }),
]);
export type LineOutcome = z.infer<typeof LineOutcomeSchema>;

export const SessionSummarySchema = z.object({
  id: z.string(),
  title: z.nullable(z.string()),
  parentSession: z.nullable(z.string()),
  createdAt: z.string(),
  entryCount: z.number(),
  current: z.boolean(),
});
export type SessionSummary = z.infer<typeof SessionSummarySchema>;

const LineNoteSchema = z.object({ line: z.number(), reason: z.string() });

export const ImportReportSchema = z.discriminatedUnion('ok', [
  z.object({
    ok: z.literal(true),
    sessionId: z.string(),
    entries: z.number(),
    migratedFrom: z.nullable(z.union([z.literal(1), z.literal(2)])),
    hadTitleSlot: z.boolean(),
    skipped: z.array(LineNoteSchema),
    skippedCount: z.number(),
    warnings: z.array(LineNoteSchema),
    warningCount: z.number(),
  }),
  // `existingSessionId`: the file is a session this playground already holds (a share link opens it).
  z.object({ ok: z.literal(false), line: z.number(), message: z.string(), existingSessionId: z.optional(z.string()) }),
]);
export type ImportReport = z.infer<typeof ImportReportSchema>;

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

/** What changed since the page last heard: the view only when it differs, and the watched topics that moved. */
export const ChangesSchema = z.object({ view: z.optional(HostViewSchema), updates: z.array(TopicUpdateSchema) });
export type Changes = z.infer<typeof ChangesSchema>;

export const RequestBodySchema = z.discriminatedUnion('type', [
  /** The page's first message: it opens the session and starts the watches the first screen needs. */
  z.object({ type: z.literal('hello'), watch: z.array(WatchSchema) }),
  z.object({ type: z.literal('line'), text: z.string(), headless: z.optional(z.boolean()) }),
  z.object({ type: z.literal('toolCall'), args: z.string(), skipSchema: z.boolean() }),
  z.object({ type: z.literal('answerApproval'), callId: z.string(), approved: z.boolean() }),
  z.object({ type: z.literal('setApprovalPolicy'), policy: z.nullable(ApprovalPolicySchema) }),
  z.object({ type: z.literal('setApprovalMode'), mode: ApprovalModeSchema }),
  /** `then: 'valid'`: a valid snapshot appended after the invalid one (the leaf on it). */
  z.object({ type: z.literal('corruptDemo'), then: z.optional(z.literal('valid')) }),
  /** The page's answer to the dialog the extension asked (`confirm` outcome). */
  z.object({ type: z.literal('answerDialog'), dialogId: z.string(), confirmed: z.boolean() }),
  z.object({ type: z.literal('meanwhileReserve'), id: z.string(), packets: z.number() }),
  z.object({ type: z.literal('stepBack') }),
  z.object({ type: z.literal('navigate'), target: EntryTargetSchema }),
  z.object({ type: z.literal('reopen') }),
  z.object({ type: z.literal('setInteractive'), interactive: z.boolean() }),
  z.object({ type: z.literal('injectFault'), fault: z.nullable(z.enum(STORE_FAULTS)) }),
  z.object({ type: z.literal('watch'), watch: WatchSchema }),
  z.object({ type: z.literal('unwatch'), topic: z.enum(TOPICS) }),
  z.object({ type: z.literal('newSession'), fresh: z.optional(z.boolean()) }),
  z.object({ type: z.literal('switchSession'), sessionId: z.string() }),
  /** A new session holding the path to `entryId` (the leaf when absent), as the host's `createBranchedSession`. */
  z.object({ type: z.literal('forkSession'), entryId: z.optional(z.string()) }),
  z.object({ type: z.literal('exportSession') }),
  z.object({ type: z.literal('importSession'), file: z.custom<Blob>((value) => value instanceof Blob) }),
  /** Compile the learner's files in the worker and run them instead of the shipped extension (progress `load`: its code starts). */
  z.object({ type: z.literal('runEdited'), files: EditedFilesSchema }),
  /** Run the stored edited version again after a reload (`view.editedWaiting`). */
  z.object({ type: z.literal('restoreEdited') }),
  /** Back to the shipped extension; the stored edits are kept, no longer run on reload. */
  z.object({ type: z.literal('useShipped') }),
  /** The stored edited files, for the editor after a reload. */
  z.object({ type: z.literal('storedEdits') }),
  /** The learner's files bundled as one self-contained ES module (npm code included), for download. */
  z.object({ type: z.literal('downloadEdited'), files: EditedFilesSchema }),
]);
export type RequestBody = z.infer<typeof RequestBodySchema>;
export type RequestType = RequestBody['type'];

export const RequestSchema = z.object({ id: z.number(), body: RequestBodySchema });

/**
 * What a request the page has waited on for a while is waiting for in the worker: requests of
 * this tab ahead of it (`queue`), the writer lease another tab holds (`lease`), IndexedDB
 * (`store`), its own work (`work`), or nothing any more (`done`: its answer is on its way).
 */
export const REQUEST_WAITS = ['queue', 'lease', 'store', 'work', 'done'] as const;
export type RequestWait = (typeof REQUEST_WAITS)[number];
/** The page asks what request `probe` waits for; the worker answers at once, outside its queue. */
export const ProbeSchema = z.object({ probe: z.number() });
export type Request = z.infer<typeof RequestSchema>;

/** What each request answers with (besides what changed). */
export const ResultSchemas = {
  hello: z.null(),
  line: LineOutcomeSchema,
  toolCall: ToolCallOutcomeSchema,
  answerApproval: ToolCallOutcomeSchema,
  setApprovalPolicy: z.null(),
  setApprovalMode: z.null(),
  corruptDemo: LineOutcomeSchema,
  answerDialog: LineOutcomeSchema,
  meanwhileReserve: LineOutcomeSchema,
  stepBack: z.null(),
  navigate: z.null(),
  reopen: z.null(),
  setInteractive: z.null(),
  injectFault: z.null(),
  watch: z.null(),
  unwatch: z.null(),
  newSession: z.null(),
  switchSession: z.null(),
  forkSession: z.null(),
  exportSession: z.object({ fileName: z.string(), jsonl: z.string() }),
  importSession: ImportReportSchema,
  runEdited: EditRunSchema,
  restoreEdited: EditRunSchema,
  useShipped: z.null(),
  storedEdits: z.nullable(z.object({ files: EditedFilesSchema, active: z.boolean() })),
  downloadEdited: z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('bundle'), fileName: z.string(), code: z.string() }),
    z.object({ kind: z.literal('rejected'), problems: z.array(CompileProblemSchema) }),
  ]),
} satisfies Record<RequestType, z.ZodMiniType>;

export type ResultOf<T extends RequestType> = z.infer<(typeof ResultSchemas)[T]>;

/**
 * Everything the worker posts. An answer carries its result and what changed; a push carries what
 * changed when no request of this page caused it (another tab appended, the sessions changed,
 * storage was lost). The page's state always equals the sum of what it received.
 */
export const WorkerMessageSchema = z.union([
  z.object({ kind: z.literal('response'), id: z.number(), ok: z.literal(true), result: z.unknown(), changes: ChangesSchema }),
  z.object({ kind: z.literal('response'), id: z.number(), ok: z.literal(false), error: z.string(), changes: z.nullable(ChangesSchema) }),
  /** `rest`: what an answer left for right after it (a session's graph after an import or a switch). */
  z.object({ kind: z.literal('push'), changes: ChangesSchema, reason: z.enum(['foreign', 'sessions', 'lost', 'rest']) }),
  z.object({ kind: z.literal('progress'), id: z.number(), phase: z.string(), done: z.number(), total: z.number() }),
  /** Something the page should say while the worker cannot answer yet (a blocked open). */
  z.object({ kind: z.literal('notice'), text: z.string() }),
  /** The answer to a probe: what request `id` waits for now. */
  z.object({ kind: z.literal('waiting'), id: z.number(), on: z.enum(REQUEST_WAITS) }),
]);
export type WorkerMessage = z.infer<typeof WorkerMessageSchema>;

/** The event the host emits after every seed desk change; the name lives in the domain so the real extension shares it. */
export { SEED_DESK_CHANGED_EVENT as CHANGED_EVENT } from '$domain/seedDeskNames';

/** What tabs tell each other over the BroadcastChannel; parsed on receipt like any outside input. */
export const BROADCAST_CHANNEL = 'seed-desk-journal';
export const BroadcastSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('appended'), sessionId: z.string(), entries: z.array(z.unknown()) }),
  z.object({ type: z.literal('sessions-changed') }),
]);
export type Broadcast = z.infer<typeof BroadcastSchema>;
