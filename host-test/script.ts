/**
 * Action scripts for the differential: the same steps, as data, run against the playground's
 * worker host (Node) and inside the real host (Bun). Both sides record a trace in one shape;
 * `normalizeTrace` then replaces the things that must differ (session ids, entry ids) with stable
 * names so the two traces can be compared for equality.
 */
import '../domain/zodSetup';
import * as z from 'zod/mini';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

const ApprovalModeSchema = z.enum(['always-ask', 'write', 'yolo']);
const PolicySchema = z.enum(['allow', 'prompt', 'deny']);

const ToolStepSchema = z.strictObject({
  /**
   * Tool arguments. An `expectedRevision` placeholder is filled in per host: "$current" and
   * "$previous" are the desk's revision now and before its last change; "$latest" and
   * "$previousResult" the revisions the last two tool results carried (the lessons' "$latest"
   * and "$previous"); "$offBranch" the revision of the newest seed desk entry off the branch.
   */
  tool: z.record(z.string(), z.unknown()),
  /** The registered tool to call (default: seed_desk); an own extension's tool by its name. */
  name: z.optional(z.string()),
  /** The answer to the host's approval prompt, if one appears (default: approve). */
  approve: z.optional(z.boolean()),
});

/** Leaf moves that append nothing; both hosts tell the extension (`session_tree`). */
const MoveSchema = z.enum(['back', 'before-last-reservation']);

/** What happens while a command's dialog waits. */
const MeanwhileSchema = z.union([
  ToolStepSchema,
  /** Another client runs `/seeds reserve <id> <packets>` and confirms at once. */
  z.strictObject({ reserve: z.strictObject({ id: z.string(), packets: z.number() }) }),
  /** A session-tree move of the leaf. */
  z.strictObject({ move: MoveSchema }),
]);

export const StepSchema = z.union([
  z.strictObject({
    command: z.string(),
    /** The answer to the confirmation dialog (default: confirm). */
    confirm: z.optional(z.boolean()),
    meanwhile: z.optional(MeanwhileSchema),
  }),
  ToolStepSchema,
  z.strictObject({ say: z.string() }),
  /** Remember the current leaf under a name. */
  z.strictObject({ mark: z.string() }),
  /** Move the leaf to a remembered point (a session-tree move: the extension hears `session_tree`). */
  z.strictObject({ leaf: z.string() }),
  z.strictObject({ move: MoveSchema }),
  /**
   * Append an invalid snapshot (99 basil of 8) as a seed desk entry; `then-valid`: then a valid one
   * as its child (nothing reserved, agent off), the leaf on it.
   */
  z.strictObject({ corrupt: z.union([z.literal(true), z.literal('then-valid')]) }),
  /**
   * A scripted agent (domain/agents) started afresh, stepped `calls` times (to its end when absent);
   * each call is a seed_desk call as a tool step makes it (approval approved).
   */
  z.strictObject({ agent: z.enum(['careful', 'careless']), calls: z.optional(z.number()) }),
  /** The started agent's run goes on to its end. */
  z.strictObject({ agentContinue: z.literal(true) }),
  /** `policy` null: no `tools.approval.seed_desk` entry at all. */
  z.strictObject({ approval: z.strictObject({ mode: ApprovalModeSchema, policy: z.nullable(PolicySchema) }) }),
  z.strictObject({ policy: z.nullable(PolicySchema) }),
  z.strictObject({ approvalMode: ApprovalModeSchema }),
  /** The host without (true) or with (false) an interactive UI from here on. */
  z.strictObject({ headless: z.boolean() }),
  /** Close the session and open it again from storage (headless or not, as the host is now). */
  z.strictObject({ reopen: z.literal(true) }),
  z.strictObject({ newSession: z.literal(true) }),
  /**
   * Another tab (another host on the same session): it opens the session, moves before the last
   * reservation on its branch, runs `command` and confirms its dialog.
   */
  z.strictObject({ twinTab: z.strictObject({ command: z.string() }) }),
  /**
   * A page action that reaches no host (a panel opened, a question answered, the editor's draft):
   * still a step, traced and compared, so it is never dropped. `read`: what the panel shows that a
   * host holds too — `journal`, the seed desk lines of the session's file (null while the host has
   * written no file); `other-branch`, the desk here and on the branch of the newest seed desk
   * entry off this branch, each rebuilt from that branch alone.
   */
  z.strictObject({ pageOnly: z.string(), read: z.optional(z.enum(['journal', 'other-branch'])) }),
  /**
   * "Run my version": the edited files in place of the running extension, on the same session.
   * `files`: the page's drafts (path → text) it compiles; `variant`: the same edits bundled by
   * scripts/break-it-variants.mjs (host-test/out/variants/<variant>.js), which the real host loads.
   */
  z.strictObject({ extension: z.literal('edited'), variant: z.string(), files: z.record(z.string(), z.string()) }),
  /** "Back to the shipped extension". */
  z.strictObject({ extension: z.literal('shipped') }),
  /** The next write to the session's storage fails (once). */
  z.strictObject({ failNextWrite: z.literal(true) }),
  // Own extensions (issue 37, ownSteps.ts): the session moves OMP's session controls make.
  /** OMP's /fork (`AgentSession.fork`): the whole session into a new one; the page's Fork. */
  z.strictObject({ fork: z.literal(true) }),
  /** OMP's /branch (`AgentSession.branch`) from the newest user message with this text on the branch. */
  z.strictObject({ branch: z.string() }),
  /** Switch to the session that was open at this mark (`AgentSession.switchSession`). */
  z.strictObject({ switchTo: z.string() }),
  /**
   * A scripted model's turn on this user message: one tool call (`call`) and then a closing text,
   * or the closing text alone (ownSteps.ts: `CLOSING`).
   */
  z.strictObject({ turn: z.string(), call: z.optional(z.strictObject({ name: z.string(), args: z.record(z.string(), z.unknown()) })) }),
]);
export type Step = z.infer<typeof StepSchema>;
export type ToolStep = z.infer<typeof ToolStepSchema>;
export type Meanwhile = z.infer<typeof MeanwhileSchema>;
export type Move = z.infer<typeof MoveSchema>;

export const ScriptSchema = z.strictObject({
  name: z.string(),
  about: z.string(),
  steps: z.array(StepSchema),
  /** A label per step (a lesson's step id), shown in the trace. */
  labels: z.optional(z.array(z.string())),
  /** What the script leaves out, and why (a lesson action the real host cannot express). */
  omitted: z.optional(z.array(z.string())),
  /** An own extension (a repository path) loaded alone in place of the Seed Desk (ownScripts.ts). */
  extension: z.optional(z.string()),
  /**
   * The answers to the UI requests the extension makes (confirm, select, input), in order: a
   * boolean for a confirm, a string for a select's option or an input's text, null to cancel.
   */
  answers: z.optional(z.array(z.union([z.boolean(), z.string(), z.null()]))),
});
export type Script = z.infer<typeof ScriptSchema>;

export function loadScripts(): Script[] {
  const file = fileURLToPath(new URL('./scripts.json', import.meta.url));
  return z.array(ScriptSchema).parse(JSON.parse(readFileSync(file, 'utf8')));
}

/** A notify (its level and text) or an event on `pi.events` (its channel and payload), in the order they happened. */
export type Said = { readonly notify: string; readonly text: string } | { readonly event: string; readonly payload: unknown };

export type Outcome =
  /**
   * A slash command: `result` is the kind the `/seeds` handler returned (the worker reads it; the
   * real host ignores it, the harness records it), `error` when the handler threw.
   */
  | { readonly kind: 'command'; readonly result: string; readonly code?: string; readonly revision?: string; readonly change?: unknown }
  | { readonly kind: 'tool'; readonly prompt: string | null; readonly isError: boolean; readonly text: string; readonly details: unknown }
  /** A leaf move outside a dialog: whether there was somewhere to move to. */
  | { readonly kind: 'move'; readonly moved: boolean }
  /** A reopen: whether the host found the session to open again (false: it started a new one). */
  | { readonly kind: 'reopened'; readonly found: boolean }
  /** Which extension runs after an `extension` step. */
  | { readonly kind: 'extension'; readonly running: 'edited' | 'shipped' }
  /** A `pageOnly` step's `read` (see StepSchema). */
  | { readonly kind: 'journal'; readonly seedDeskLines: number; readonly inFile: number | null }
  | { readonly kind: 'other-branch'; readonly here: unknown; readonly other: unknown }
  /** A `failNextWrite`: whether there was a session file whose next write could fail. */
  | { readonly kind: 'fault'; readonly armed: boolean }
  /** A scripted model's turn: its tool calls' results, and what was added to the host's system prompt for it. */
  | { readonly kind: 'turn'; readonly calls: readonly { readonly isError: boolean; readonly text: string }[]; readonly systemPromptAdded: string }
  /** A scripted agent's calls in this step, and its summary once it has finished. */
  | { readonly kind: 'agent'; readonly calls: readonly Outcome[]; readonly summary: string | null }
  | { readonly kind: 'none' };

export interface DeskView {
  readonly revision: string;
  readonly ok: boolean;
  readonly agentEnabled: boolean | null;
  readonly quantities: unknown;
}

export interface StepTrace {
  readonly step: string;
  /** The confirmation dialog the step's own command asked, if any. */
  readonly dialog: { readonly title: string; readonly message: string } | null;
  /** Every notify and event during the step, in order (the meanwhile action's included). */
  readonly said: readonly Said[];
  readonly outcome: Outcome;
  /** What the `meanwhile` action of a command step did while the dialog was open. */
  readonly meanwhile?: Outcome;
  /** The extension's status line (`ctx.ui.setStatus`) after the step. */
  readonly status: string;
  /** The types of the entries the step appended, in order (`custom:<customType>`, `message:<role>`). */
  readonly appended: readonly string[];
  readonly desk: DeskView;
  /** The `data` of every seed desk entry on the current branch, root to leaf. */
  readonly branchDesk: readonly unknown[];
  /**
   * Whether the host's session file exists after the step (real: on disk; page: its "Host file"
   * note, written once the session holds an assistant message).
   */
  readonly hostFile: boolean;
  /** Whether a failed write is latched after the step (real: the session manager's flush() rejects; page: its storage alert). */
  readonly writeFailure: boolean;
  /** What only the page shows (its own notices: reopen, new session, the corrupt demo). Not compared. */
  readonly pageOnly?: readonly string[];
  /** Own extensions only (ownSteps.ts): the open session, the UI requests of the step, the custom entries on the branch. */
  readonly own?: OwnView;
}

/** A UI request as the extension made it: its kind, title, and message or options. */
export type AskedView =
  | { readonly kind: 'confirm'; readonly title: string; readonly message: string }
  | { readonly kind: 'select'; readonly title: string; readonly options: readonly string[] }
  | { readonly kind: 'input'; readonly title: string }
  | { readonly kind: 'editor'; readonly title: string; readonly prefill: string };

export interface OwnView {
  readonly session: string;
  readonly asked: readonly AskedView[];
  readonly custom: readonly { readonly id: string; readonly customType: string; readonly data: unknown }[];
}

export interface Trace {
  readonly script: string;
  readonly omitted: readonly string[];
  readonly steps: StepTrace[];
}

/**
 * Entry types the real host writes for its own settings (the thinking level when a session
 * starts, the service tier on a new one). The playground does not model them; they never touch
 * the desk. Left out of `appended` on both sides.
 */
export const HOST_BOOKKEEPING = new Set(['thinking_level_change', 'service_tier_change', 'model_change']);

/** `custom:<customType>`, `message:<role>`, or the bare type; null for host bookkeeping. */
export function appendedName(entry: { readonly type?: unknown; readonly [key: string]: unknown }): string | null {
  const type = typeof entry.type === 'string' ? entry.type : '(no type)';
  if (HOST_BOOKKEEPING.has(type)) return null;
  if (type === 'custom') return `custom:${String(entry['customType'])}`;
  if (type === 'message') return `message:${String((entry['message'] as { role?: unknown } | undefined)?.role)}`;
  return type;
}

/** The valid snapshot `corrupt: "then-valid"` appends after the invalid one (web/src/worker/demos.ts). */
export const VALID_AFTER_CORRUPT = { version: 1, agentEnabled: false, quantities: {} } as const;

/**
 * Replace each session id with SID (then SID2, …, in the order given) and each seed desk entry id
 * with desk#N (N counting seed desk entries in the order given), everywhere in the trace.
 */
export function normalizeTrace(trace: Trace, sessionIds: readonly string[], deskEntryIds: readonly string[], entryIds: readonly string[] = []): Trace {
  // Session ids first: an 8-character entry id could occur inside one, never the reverse.
  let json = JSON.stringify(trace);
  sessionIds.forEach((id, index) => {
    json = json.split(id).join(index === 0 ? 'SID' : `SID${index + 1}`);
  });
  deskEntryIds.forEach((id, index) => {
    json = json.split(id).join(`desk#${index + 1}`);
  });
  // An own extension's trace: every entry by its order (entry#N), as an extension may show an id.
  entryIds.forEach((id, index) => {
    json = json.split(id).join(`entry#${index + 1}`);
  });
  return JSON.parse(json) as Trace;
}

export function describeStep(step: Step, label?: string): string {
  return label ? `[${label}] ${JSON.stringify(step)}` : JSON.stringify(step);
}
