/**
 * The narrow part of the real OMP host's API the harness calls (the host is imported by resolved
 * path at run time, so the playground's type check never needs it installed), and the harness's
 * own shapes.
 */
import type { HostEntry } from '../extension/ompApi';
import type { AskedView, Said } from './script';

declare global {
  // Bun's own resolver: it knows the host package's `exports` map ("import" condition only).
  const Bun: { resolveSync(specifier: string, from: string): string };
}

export type ApprovalMode = 'always-ask' | 'write' | 'yolo';
export type UserPolicy = 'allow' | 'prompt' | 'deny';

export interface HostSettings {
  set(path: string, value: unknown): void;
}

export interface HostSessionManager {
  getSessionId(): string;
  getSessionFile(): string | undefined;
  getLeafId(): string | null;
  getBranch(fromId?: string): HostEntry[];
  getEntries(): HostEntry[];
  branch(entryId: string): void;
  resetLeaf(): void;
  appendCustomEntry(customType: string, data?: unknown): string;
  appendMessage(message: Record<string, unknown>): string;
  flush(): Promise<void>;
  /** The messages the host replays to a model from the leaf (a toolCall without its result is dropped). */
  buildSessionContext(): { messages: readonly unknown[] };
  /** Every store failure the manager latches (its writes never throw to the caller). */
  onPersistenceError(callback: (error: Error) => void): () => void;
}

export interface HostToolResult {
  content: { type: string; text?: string }[];
  details: unknown;
  isError?: boolean;
}

export interface HostTool {
  execute(toolCallId: string, params: unknown): Promise<HostToolResult>;
  /** An omptype schema: callable, with the JSON Schema it sends to the model. */
  readonly parameters: { toJsonSchema(): unknown };
}

export interface AgentSession {
  readonly sessionManager: HostSessionManager;
  prompt(text: string): Promise<unknown>;
  newSession(options?: Record<string, unknown>): Promise<boolean>;
  /** /fork: the session copied into a new one (false: cancelled, or no file to fork). */
  fork(): Promise<boolean>;
  /** /branch from a user message: a new session holding the path before it. */
  branch(entryId: string): Promise<{ cancelled: boolean }>;
  switchSession(sessionPath: string): Promise<boolean>;
  /** The host's system prompt, as its parts (a turn's before_agent_start may replace it for that turn). */
  readonly systemPrompt: readonly string[];
  readonly isStreaming: boolean;
  readonly messages: readonly { role: string }[];
  readonly modelRegistry: { authStorage: { setRuntimeApiKey(provider: string, key: string): void } };
  getToolByName(name: string): HostTool | undefined;
  navigateTree(targetId: string, options: { summarize?: boolean }): Promise<{ cancelled: boolean }>;
  dispose(): Promise<void>;
  readonly extensionRunner?: { getUIContext(): Record<string, unknown> };
}

export interface HostEventBus {
  on(channel: string, handler: (data: unknown) => void): () => void;
}

export interface Sdk {
  createAgentSession(options: Record<string, unknown>): Promise<{ session: AgentSession }>;
  SessionManager: {
    create(cwd: string, sessionDir?: string): HostSessionManager;
    open(filePath: string, sessionDir?: string): Promise<HostSessionManager>;
  };
  Settings: { isolated(overrides?: Record<string, unknown>): HostSettings };
}

export interface Runtime {
  initializeExtensions(session: AgentSession, options: Record<string, unknown>): Promise<void>;
}

/** pi-ai's argument check, run by the agent loop before `execute` (a direct execute skips it). */
export type ValidateToolArguments = (tool: unknown, toolCall: { type: 'toolCall'; id: string; name: string; arguments: unknown }) => unknown;

/** pi-ai's mock provider: a model whose replies are scripted; `calls` lists every request it got. */
export interface MockModule {
  registerMockApi(): void;
  createMockModel(options: Record<string, unknown>): { readonly calls: readonly unknown[] };
}

export interface Loaded {
  sdk: Sdk;
  runtime: Runtime;
  EventBus: new () => HostEventBus;
  validateToolArguments: ValidateToolArguments;
  mock: MockModule;
  factory: ExtensionFactory;
}

export type ExtensionFactory = (pi: Record<string, unknown>) => unknown;

/** A scripted reply of pi-ai's mock model, given the request (its system prompt and messages). */
export interface MockReplyContext {
  readonly systemPrompt?: unknown;
  readonly messages: readonly { readonly role: string }[];
}
export type MockReply = (context: MockReplyContext) => { content: unknown[] };

/** What the scripted UI saw, in order. */
export interface UiLog {
  notes: { type: string; message: string }[];
  statuses: (string | undefined)[];
  /** `setStatus` by key, as the host's status bar keeps them (a key set again keeps its place). */
  statusByKey: Map<string, string>;
  confirms: { title: string; message: string }[];
  selects: string[];
  /** Every confirm, select and input, in order, with its message or options. */
  requests: AskedView[];
  /** Every notify and every event on the seed desk channel, in the order they happened. */
  said: Said[];
}

export interface ScriptedAnswers {
  /** Answers `ctx.ui.confirm`; may act on the session first (the race: another change lands). */
  confirm: (title: string) => Promise<boolean> | boolean;
  /** Answers the host's approval prompt ("Approve" or "Deny"), or an extension's select (undefined: cancelled). */
  select: (title: string, options: readonly string[]) => string | undefined;
  /** Answers an extension's input (undefined: cancelled); none by default. */
  input?: (title: string) => string | undefined;
}

export interface OpenOptions {
  /** A directory of this run's own (cwd, agent dir, sessions). */
  dir: string;
  /** Open this session file instead of creating a new session. */
  file?: string;
  /** No UI context at all: the host's no-op UI, `ctx.hasUI` false (print mode). */
  headless?: boolean;
  approvalMode?: ApprovalMode;
  /** The user's `tools.approval.seed_desk`. */
  policy?: UserPolicy | null;
  /** Load the extension the way an installed one loads: from `<agentDir>/extensions/`, by discovery. */
  discover?: boolean;
  /** Give the session pi-ai's mock model (it answers "ok"), so a turn that starts is seen, not refused for want of a model. */
  mockModel?: boolean | MockReply;
  /** Run on this session manager (the same session in memory) instead of opening one: an extension swapped in. */
  sessionManager?: HostSessionManager;
  /** Load this built module instead of extension/dist/seed-desk.js (a "Break it" variant). */
  extensionFile?: string;
  /** A model of this registry (a registry of the check's own: its models.yml, its discovery). */
  model?: { readonly registry: unknown; readonly model: unknown };
  /** Host settings `set` before the session starts (e.g. `tools.xdev`). */
  settings?: Record<string, unknown>;
  /** More inline extensions, loaded after the seed desk. */
  extraExtensions?: ExtensionFactory[];
}

/** What one run of a command handler came to, as the harness saw it (the host itself drops the value). */
export type CommandRun = { readonly name: string; readonly ok: true; readonly value: unknown } | { readonly name: string; readonly ok: false; readonly error: string };

/** A seed_desk call as the agent loop makes it: argument check, approval, execute, and the two messages it records. */
export interface LoopCall {
  /** The approval prompt shown, if one was. */
  readonly prompt: string | null;
  readonly isError: boolean;
  readonly text: string;
  /** The result's details; null for an error (the page shows none). */
  readonly details: unknown;
}

export interface Harness {
  readonly session: AgentSession;
  readonly sm: HostSessionManager;
  readonly ui: UiLog;
  readonly events: unknown[];
  readonly runtimeErrors: unknown[];
  /** Every command handler's resolved value (or throw), in order. */
  readonly commandRuns: CommandRun[];
  /** The mock model's requests, when the session has one. */
  readonly modelCalls: readonly unknown[] | null;
  readonly headless: boolean;
  answers: ScriptedAnswers;
  settings: HostSettings;
  /** Run a slash command the way the user types it; what `session.prompt` resolved to. */
  command(line: string): Promise<unknown>;
  /** The seed_desk tool through the host's wrapper (approval gate included). */
  tool(args: unknown): Promise<HostToolResult>;
  /**
   * seed_desk as the agent loop calls it: pi-ai's argument check (an error result if it throws),
   * then the wrapper (approval, execute; a throw becomes an error result with the bare message),
   * recorded as the loop records it: the assistant message with the toolCall, then the toolResult.
   */
  call(args: unknown, name?: string): Promise<LoopCall>;
  /** The registered tool itself (seed_desk unless named), as the host holds it. */
  hostTool(name?: string): HostTool;
  /** The host's argument check for a call (of seed_desk unless named): the arguments it would run with, or a throw. */
  validate(args: unknown, name?: string): Promise<unknown>;
  /**
   * Take the UI away (print mode) or give it back: the host decides `hasUI` when its mode
   * initializes the extensions, so this initializes them again, as a mode switch does (the
   * extensions hear `session_start` again).
   */
  setHeadless(headless: boolean): Promise<void>;
  /** The status line, keys joined as the playground's status bar joins them. */
  status(): string;
  /** Seed desk entries in file order, whatever branch they are on. */
  deskEntries(): HostEntry[];
  /** Notes added by the last action. */
  notesSince(mark: number): { type: string; message: string }[];
  close(): Promise<void>;
}
