/**
 * The part of the real OMP host's extension API this extension uses, declared here so the
 * playground type-checks without installing the host (its package is 650 MB and needs Bun).
 * Shapes follow `@oh-my-pi/pi-coding-agent` 18.2.3 `src/extensibility/extensions/types.ts`;
 * each is the narrowest view of the host's type that the extension relies on.
 */

// The host's approval vocabulary (OMP `tools/approval.ts`), declared once for the extension, the
// worker's host, the protocol, the lessons and the views. Plain constants.

/** Tiers rank read < write < exec; a tool that declares none counts as exec. */
export const APPROVAL_TIERS = ['read', 'write', 'exec'] as const;
export type ApprovalTier = (typeof APPROVAL_TIERS)[number];

/** `tools.approvalMode`: the highest tier that runs without a prompt. */
export const APPROVAL_MODES = ['always-ask', 'write', 'yolo'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

/** The host's default mode (`tools.approvalMode` schema default). */
export const DEFAULT_APPROVAL_MODE: ApprovalMode = 'yolo';

/** A policy (the user's `tools.approval.<tool>`, or a tool's own) and the resolution's answer. */
export const APPROVAL_DECISIONS = ['allow', 'prompt', 'deny'] as const;
export type ApprovalDecision = (typeof APPROVAL_DECISIONS)[number];

/** One session entry as `getBranch()` returns it: the tree keys plus whatever its type carries. */
export interface HostEntry {
  readonly type: string;
  readonly id: string;
  readonly parentId: string | null;
  readonly timestamp: string;
  readonly [key: string]: unknown;
}

export interface HostSessionManager {
  getSessionId(): string;
  /** Root to leaf, header excluded; `[]` when the leaf is null. */
  getBranch(fromId?: string): HostEntry[];
  /** Every entry of the session in file order, all branches (the extension never needs it: see deskState.ts). */
  getEntries(): HostEntry[];
}

/** `ui.notify`'s levels. */
export const NOTIFY_LEVELS = ['info', 'warning', 'error'] as const;
export type NotifyLevel = (typeof NOTIFY_LEVELS)[number];

/** Where `resolveApproval` found its answer: the tool's own policy, the user's setting, or the approval mode. */
export const APPROVAL_SOURCES = ['tool', 'user', 'mode'] as const;
export type ApprovalSource = (typeof APPROVAL_SOURCES)[number];

export interface HostUI {
  /** Resolves false on cancel, and always false in the host's no-op (headless) UI. */
  confirm(title: string, message: string): Promise<boolean>;
  /** The chosen option, or undefined (cancelled, or the no-op UI). */
  select(title: string, options: string[]): Promise<string | undefined>;
  /** The text typed, or undefined (cancelled, or the no-op UI). */
  input(title: string, placeholder?: string): Promise<string | undefined>;
  notify(message: string, type?: NotifyLevel): void;
  /** `undefined` clears the key. */
  setStatus(key: string, text: string | undefined): void;
}

export interface ExtensionContext {
  readonly ui: HostUI;
  /** False in print/json mode and when the session was started without a UI context. */
  readonly hasUI: boolean;
  readonly sessionManager: HostSessionManager;
}

export interface TextContent {
  type: 'text';
  text: string;
}

export interface AgentToolResult<TDetails> {
  content: TextContent[];
  details: TDetails;
}

/** The schema value the host's tool registry accepts; opaque to the extension. */
export type HostSchema = object;

export interface ToolDefinition<TDetails> {
  name: string;
  label: string;
  description: string;
  parameters: HostSchema;
  /** OMP-new approval tier; the host's default for a tool without one is "exec". */
  approval?: ApprovalTier;
  /** OMP-new argument order (5.7 had `onUpdate, ctx, signal`). */
  execute(toolCallId: string, params: unknown, signal: AbortSignal | undefined, onUpdate: unknown, ctx: ExtensionContext): Promise<AgentToolResult<TDetails>>;
}

export interface CommandDefinition {
  description?: string;
  /**
   * `args` is the raw text after `/name `, or "" (the host does not trim it). The host declares
   * `Promise<void>` and ignores what the promise resolves to; `unknown` lets a handler return facts.
   */
  handler(args: string, ctx: ExtensionContext): Promise<unknown>;
}

export interface EventBus {
  emit(channel: string, data: unknown): void;
}

/** Session events after which the branch (and so the desk) may be a different one. */
export type BranchChangingEvent = 'session_start' | 'session_switch' | 'session_branch' | 'session_tree';

export interface ExtensionAPI {
  /** The host's TypeBox shim; `Unsafe` wraps a plain JSON Schema and validates calls against it. */
  readonly typebox: { readonly Type: { Unsafe(schema: Record<string, unknown>): HostSchema } };
  readonly events: EventBus;
  on(event: BranchChangingEvent, handler: (event: unknown, ctx: ExtensionContext) => void): void;
  registerCommand(name: string, command: CommandDefinition): void;
  registerTool<TDetails>(tool: ToolDefinition<TDetails>): void;
  /** Appends a `custom` entry under the current leaf. The host keeps `data` itself: pass a copy. */
  appendEntry(customType: string, data?: unknown): void;
}
