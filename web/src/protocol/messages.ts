import '$domain/zodSetup';
import * as z from 'zod/mini';
import { STORE_FAULTS, TOPICS } from './vocabularies';
import { EditedVersionSchema, ExtensionKindSchema, LineOutcomeSchema } from './outcomes';
import { ApprovalModeSchema, ApprovalPolicySchema, ToolCallOutcomeSchema } from './toolCall';
import { UiAnswerSchema } from './uiRequests';
import { ModelCallRefSchema, ModelMessageSchema, ModelRecordSchema, ModelToolSchema } from './modelTurn';
import { DeskRowSchema, EntryTargetSchema, LeafBehindSchema, TopicUpdateSchema, WatchSchema } from './topics';

export * from './outcomes';
export * from './toolCall';
export * from './uiRequests';
export * from './topics';
export * from './modelTurn';

/**
 * The worker protocol. Both ends parse what they receive with these schemas (zod/mini keeps the
 * main-thread bundle small). One user action is one request; its answer carries the result and
 * what changed (the view when it differs, and updates to the topics the page watches), so the
 * page never asks again after an answer.
 */

/** A compile error (or a load failure, `file` null) in the learner's files: line and column are 1-based, 0 when unknown. */
export const CompileProblemSchema = z.object({ file: z.nullable(z.string()), line: z.number(), column: z.number(), text: z.string() });
export type CompileProblem = z.infer<typeof CompileProblemSchema>;

/** What "Run my version" (or its restore after a reload) came to: the extension now running, or why nothing changed. */
export const EditRunSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('running'), extension: z.union([ExtensionKindSchema, z.literal('own')]), compileMs: z.nullable(z.number()) }),
  z.object({ kind: z.literal('rejected'), problems: z.array(CompileProblemSchema) }),
]);
export type EditRun = z.infer<typeof EditRunSchema>;

/** What the editor's text was changed from, when "Run my version" sends it. */
export const EDITED_FROM = ['last-run', 'shipped', 'restore'] as const;
export type EditedFrom = (typeof EDITED_FROM)[number];

/** The learner's files, path → text (only the ones that differ from the shipped source). */
const EditedFilesSchema = z.record(z.string(), z.string());

/** A real model as the worker hears of it: its provider preset, id and API; never its address or key (they stay in the page). */
export const PageModelSchema = z.object({ provider: z.string(), id: z.string(), api: z.string() });
export type PageModel = z.infer<typeof PageModelSchema>;

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
  /** When the edited one runs: what its text is and what it was changed from (issue 36). */
  editedVersion: z.optional(EditedVersionSchema),
  /** An edited version ran before this page loaded and waits for the page to run it again (`restoreEdited`). */
  editedWaiting: z.optional(z.boolean()),
  /** Issue 37: the learner's own extension runs, alone, on its own session (Seed Desk is not loaded; `extension` names the one it replaced). */
  own: z.optional(z.boolean()),
  /** The learner's own extension ran before this page loaded and waits for the page to run it again (`restoreOwn`). */
  ownWaiting: z.optional(z.boolean()),
  /** `ctx.ui.setWidget`: string-array widgets by key, shown above the Command box. Absent: none. */
  widgets: z.optional(z.array(z.object({ key: z.string(), lines: z.array(z.string()) }))),
  /** The extension's last `setEditorText` / `pasteToEditor`: the page applies each `seq` once to the Command box. Absent: none yet. */
  editorText: z.optional(z.object({ seq: z.number(), text: z.string(), paste: z.boolean() })),
});
export type HostView = z.infer<typeof HostViewSchema>;

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

/** What changed since the page last heard: the view only when it differs, and the watched topics that moved. */
export const ChangesSchema = z.object({ view: z.optional(HostViewSchema), updates: z.array(TopicUpdateSchema) });
export type Changes = z.infer<typeof ChangesSchema>;

export const RequestBodySchema = z.discriminatedUnion('type', [
  /** The page's first message: it opens the session and starts the watches the first screen needs. */
  z.object({ type: z.literal('hello'), watch: z.array(WatchSchema) }),
  z.object({ type: z.literal('line'), text: z.string(), headless: z.optional(z.boolean()) }),
  /** `call`: a real model's call, already recorded in its assistant message (`modelMessage`); absent, the host records one. */
  z.object({ type: z.literal('toolCall'), args: z.string(), skipSchema: z.boolean(), call: z.optional(ModelCallRefSchema) }),
  /** A real model's turn: the learner's request or an assistant message, appended as the host's message entry. */
  z.object({ type: z.literal('modelMessage'), message: ModelMessageSchema }),
  /** The tools the running extension registered, as a model is offered them. */
  z.object({ type: z.literal('modelTools') }),
  /** An agent run starts (a real model's request, a scripted agent's first step): the host fires `input`, `before_agent_start`, `agent_start`, `turn_start`. */
  // `model`: the real model the page asks (issue 37: the extension's `ctx.model`); a scripted agent's run has none.
  z.object({ type: z.literal('agentStart'), prompt: z.string(), systemPrompt: z.string(), model: z.optional(PageModelSchema) }),
  /** The run ends: the host closes its turn and fires `agent_end`; `summary`: a scripted agent's last words. */
  z.object({ type: z.literal('agentEnd'), summary: z.optional(z.string()) }),
  z.object({ type: z.literal('answerApproval'), callId: z.string(), approved: z.boolean() }),
  z.object({ type: z.literal('setApprovalPolicy'), policy: z.nullable(ApprovalPolicySchema) }),
  z.object({ type: z.literal('setApprovalMode'), mode: ApprovalModeSchema }),
  /** `then: 'valid'`: a valid snapshot appended after the invalid one (the leaf on it). */
  z.object({ type: z.literal('corruptDemo'), then: z.optional(z.literal('valid')) }),
  /** The page's answer to what the extension asked (an `asked` outcome), under the request's id. */
  z.object({ type: z.literal('answerUi'), answer: UiAnswerSchema }),
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
  /**
   * `from`: what the editor's text was changed from: the version that ran last (`last-run`), the
   * shipped files (none ran yet, or "Discard my edits"), or none: a step's own version run again
   * by "Reset this step" (`restore`). Absent: `last-run`.
   */
  z.object({ type: z.literal('runEdited'), files: EditedFilesSchema, from: z.optional(z.enum(EDITED_FROM)) }),
  /** Run the stored edited version again after a reload (`view.editedWaiting`). */
  z.object({ type: z.literal('restoreEdited') }),
  /** Back to the shipped extension; the stored edits are kept, no longer run on reload. */
  z.object({ type: z.literal('useShipped') }),
  /** The stored edited files, for the editor after a reload. */
  z.object({ type: z.literal('storedEdits') }),
  /** The learner's files bundled as one self-contained ES module (npm code included), for download. */
  z.object({ type: z.literal('downloadEdited'), files: EditedFilesSchema }),
  /**
   * Issue 37: the learner's own extension (`start`: what they began from, the template or an OMP
   * example) compiled and run as the only extension, on a session of its own; Seed Desk's session
   * stays as it was. The same request runs a changed version on that session.
   */
  z.object({ type: z.literal('runOwn'), files: EditedFilesSchema, start: z.string() }),
  /** Run the stored own extension again after a reload (`view.ownWaiting`). */
  z.object({ type: z.literal('restoreOwn') }),
  /** Back to Seed Desk and the session it ran on; the own extension's files and session are kept. */
  z.object({ type: z.literal('leaveOwn') }),
  /** The own extension's stored files (and what they began from), for the workspace after a reload. */
  z.object({ type: z.literal('storedOwn') }),
  /** The own extension as one ES module, default export the factory, for the real OMP. */
  z.object({ type: z.literal('downloadOwn'), files: EditedFilesSchema }),
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

/** A download: one module and its file name, or why it does not compile. */
const DownloadSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('bundle'), fileName: z.string(), code: z.string() }),
  z.object({ kind: z.literal('rejected'), problems: z.array(CompileProblemSchema) }),
]);

/** What each request answers with (besides what changed). */
export const ResultSchemas = {
  hello: z.null(),
  line: LineOutcomeSchema,
  toolCall: ToolCallOutcomeSchema,
  answerApproval: ToolCallOutcomeSchema,
  modelMessage: ModelRecordSchema,
  modelTools: z.array(ModelToolSchema),
  /** The prompt and system prompt as the extension left them; `handled`: an `input` handler took the prompt, so no model is asked. */
  agentStart: z.discriminatedUnion('kind', [z.object({ kind: z.literal('started'), prompt: z.string(), systemPrompt: z.string() }), z.object({ kind: z.literal('handled') })]),
  agentEnd: z.null(),
  setApprovalPolicy: z.null(),
  setApprovalMode: z.null(),
  corruptDemo: LineOutcomeSchema,
  answerUi: LineOutcomeSchema,
  meanwhileReserve: LineOutcomeSchema,
  /** The leaf it moved to. */
  stepBack: z.object({ leafId: z.nullable(z.string()) }),
  /** Null: the change was made and no extension spoke; else what its before-event came to (a dialog it opened, a cancel: sessionChanges.ts). */
  navigate: z.nullable(LineOutcomeSchema),
  reopen: z.null(),
  setInteractive: z.null(),
  injectFault: z.null(),
  watch: z.null(),
  unwatch: z.null(),
  newSession: z.nullable(LineOutcomeSchema),
  switchSession: z.nullable(LineOutcomeSchema),
  forkSession: z.nullable(LineOutcomeSchema),
  exportSession: z.object({ fileName: z.string(), jsonl: z.string() }),
  importSession: ImportReportSchema,
  runEdited: EditRunSchema,
  restoreEdited: EditRunSchema,
  useShipped: z.null(),
  storedEdits: z.nullable(z.object({ files: EditedFilesSchema, active: z.boolean() })),
  downloadEdited: DownloadSchema,
  runOwn: EditRunSchema,
  restoreOwn: EditRunSchema,
  leaveOwn: z.null(),
  storedOwn: z.nullable(z.object({ files: EditedFilesSchema, start: z.string(), active: z.boolean() })),
  downloadOwn: DownloadSchema,
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
