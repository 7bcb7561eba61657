/**
 * Runs under Bun only. Loads the real OMP host (installed in host-test/.omp by scripts/test-host.mjs)
 * and opens sessions with the built extension, driven by a scripted UI or headless — the loading
 * recipe of the shared host notes (§8): createAgentSession + initializeExtensions.
 *
 * The host is imported by resolved path at run time, so the playground's type check never needs
 * it installed; the interfaces below are the narrow part of its API this harness calls.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { HostEntry } from '../extension/host';

declare global {
  // Bun's own resolver: it knows the host package's `exports` map ("import" condition only).
  const Bun: { resolveSync(specifier: string, from: string): string };
}

export const OMP_DIR = fileURLToPath(new URL('./.omp', import.meta.url));
export const EXTENSION_FILE = fileURLToPath(new URL('../extension/dist/seed-desk.js', import.meta.url));

export type ApprovalMode = 'always-ask' | 'write' | 'yolo';
export type UserPolicy = 'allow' | 'prompt' | 'deny';

interface HostSettings {
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
  ensureOnDisk(): Promise<void>;
  flush(): Promise<void>;
}

export interface HostToolResult {
  content: { type: string; text?: string }[];
  details: unknown;
  isError?: boolean;
}

interface HostTool {
  execute(toolCallId: string, params: unknown): Promise<HostToolResult>;
  /** An omptype schema: callable, with the JSON Schema it sends to the model. */
  readonly parameters: { toJsonSchema(): unknown };
}

interface AgentSession {
  readonly sessionManager: HostSessionManager;
  prompt(text: string): Promise<unknown>;
  getToolByName(name: string): HostTool | undefined;
  navigateTree(targetId: string, options: { summarize?: boolean }): Promise<{ cancelled: boolean }>;
  dispose(): Promise<void>;
  readonly extensionRunner?: { getUIContext(): { notify(message: string, type?: string): void } };
}

interface HostEventBus {
  on(channel: string, handler: (data: unknown) => void): () => void;
}

interface Sdk {
  createAgentSession(options: Record<string, unknown>): Promise<{ session: AgentSession }>;
  SessionManager: {
    create(cwd: string, sessionDir?: string): HostSessionManager;
    open(filePath: string, sessionDir?: string): Promise<HostSessionManager>;
  };
  Settings: { isolated(overrides?: Record<string, unknown>): HostSettings };
}

interface Runtime {
  initializeExtensions(session: AgentSession, options: Record<string, unknown>): Promise<void>;
}

/** pi-ai's argument check, run by the agent loop before `execute` (a direct execute skips it). */
type ValidateToolArguments = (tool: unknown, toolCall: { type: 'toolCall'; id: string; name: string; arguments: unknown }) => unknown;

interface Loaded {
  sdk: Sdk;
  runtime: Runtime;
  EventBus: new () => HostEventBus;
  validateToolArguments: ValidateToolArguments;
  factory: unknown;
}

let loaded: Promise<Loaded> | undefined;

async function importFromOmp(specifier: string): Promise<Record<string, unknown>> {
  return (await import(Bun.resolveSync(specifier, OMP_DIR))) as Record<string, unknown>;
}

/** The host modules and the extension's default export, imported once per process. */
export function loadHost(): Promise<Loaded> {
  loaded ??= (async () => {
    const [sdk, runtime, bus, validation, extension] = await Promise.all([
      importFromOmp('@oh-my-pi/pi-coding-agent'),
      importFromOmp('@oh-my-pi/pi-coding-agent/modes/runtime-init'),
      importFromOmp('@oh-my-pi/pi-coding-agent/utils/event-bus'),
      importFromOmp('@oh-my-pi/pi-ai/utils/validation'),
      import(EXTENSION_FILE) as Promise<{ default?: unknown }>,
    ]);
    if (typeof extension.default !== 'function') throw new Error(`${EXTENSION_FILE} has no default export function`);
    return {
      sdk: sdk as unknown as Sdk,
      runtime: runtime as unknown as Runtime,
      EventBus: bus['EventBus'] as Loaded['EventBus'],
      validateToolArguments: validation['validateToolArguments'] as ValidateToolArguments,
      factory: extension.default,
    };
  })();
  return loaded;
}

/** What the scripted UI saw, in order. */
export interface UiLog {
  notes: { type: string; message: string }[];
  statuses: (string | undefined)[];
  confirms: { title: string; message: string }[];
  selects: string[];
}

export interface ScriptedAnswers {
  /** Answers `ctx.ui.confirm`; may act on the session first (the race: another change lands). */
  confirm: (title: string) => Promise<boolean> | boolean;
  /** Answers the host's approval prompt ("Approve" or "Deny"). */
  select: (title: string) => string;
}

export interface OpenOptions {
  /** A directory of this run's own (cwd, agent dir, sessions). */
  dir: string;
  /** Open this session file instead of creating a new session. */
  file?: string;
  /** No UI context at all: the host's no-op UI, `ctx.hasUI` false (print mode). */
  headless?: boolean;
  approvalMode?: ApprovalMode;
  /** Load the extension the way an installed one loads: from `<agentDir>/extensions/`, by discovery. */
  discover?: boolean;
}

export interface Harness {
  readonly session: AgentSession;
  readonly sm: HostSessionManager;
  readonly ui: UiLog;
  readonly events: unknown[];
  readonly runtimeErrors: unknown[];
  answers: ScriptedAnswers;
  settings: HostSettings;
  /** Run a slash command the way the user types it. */
  command(line: string): Promise<void>;
  /** The seed_desk tool through the host's wrapper (approval gate included). */
  tool(args: unknown): Promise<HostToolResult>;
  /** The registered tool itself, as the host holds it. */
  hostTool(): HostTool;
  /** The host's argument check for a seed_desk call: the arguments it would run with, or a throw. */
  validate(args: unknown): Promise<unknown>;
  /** Seed desk entries in file order, whatever branch they are on. */
  deskEntries(): HostEntry[];
  /** Notes added by the last action. */
  notesSince(mark: number): { type: string; message: string }[];
  close(): Promise<void>;
}

const DEFAULT_ANSWERS: ScriptedAnswers = { confirm: () => true, select: () => 'Approve' };

export async function openSession(options: OpenOptions): Promise<Harness> {
  const { sdk, runtime, EventBus, factory } = await loadHost();
  const cwd = `${options.dir}/cwd`;
  const agentDir = `${options.dir}/agent`;
  const sessionsDir = `${options.dir}/sessions`;
  for (const dir of [cwd, agentDir, sessionsDir]) mkdirSync(dir, { recursive: true });

  // Discovery reads the process-wide agent dir (PI_CODING_AGENT_DIR), not the `agentDir` option;
  // scripts/test-host.mjs points it (and HOME) into host-test/out so no run touches ~/.omp.
  const installed = options.discover ? installForDiscovery() : null;
  const sm = options.file ? await sdk.SessionManager.open(options.file) : sdk.SessionManager.create(cwd, sessionsDir);
  const settings = sdk.Settings.isolated(options.approvalMode ? { 'tools.approvalMode': options.approvalMode } : {});
  const bus = new EventBus();
  const events: unknown[] = [];
  bus.on('workbook:seed-desk:changed', (data) => events.push(data));
  const { session } = await sdk.createAgentSession({
    cwd,
    agentDir,
    sessionManager: sm,
    settings,
    ...(options.discover ? { disableExtensionDiscovery: false } : { extensions: [factory], disableExtensionDiscovery: true }),
    enableMCP: false,
    enableLsp: false,
    skipPythonPreflight: true,
    hasUI: false,
    eventBus: bus,
  });
  // Loaded now; later sessions must not find it (they are given the factory instead).
  if (installed) rmSync(installed);

  const ui: UiLog = { notes: [], statuses: [], confirms: [], selects: [] };
  const runtimeErrors: unknown[] = [];
  const harness: Harness = {
    session,
    sm,
    ui,
    events,
    runtimeErrors,
    answers: DEFAULT_ANSWERS,
    settings,
    async command(line) {
      await session.prompt(line);
    },
    async tool(args) {
      return harness.hostTool().execute(`call_${crypto.randomUUID().slice(0, 8)}`, args);
    },
    hostTool() {
      const tool = session.getToolByName('seed_desk');
      if (!tool) throw new Error('the host has no seed_desk tool');
      return tool;
    },
    async validate(args) {
      const { validateToolArguments } = await loadHost();
      return validateToolArguments(harness.hostTool(), { type: 'toolCall', id: 'call_validate', name: 'seed_desk', arguments: structuredClone(args) });
    },
    deskEntries: () => sm.getEntries().filter((entry) => entry.type === 'custom' && entry['customType'] === 'seed-desk-state-v1'),
    notesSince: (mark) => ui.notes.slice(mark),
    async close() {
      await session.dispose();
    },
  };

  const record = {
    notify: (message: string, type = 'info') => ui.notes.push({ type, message }),
  };
  const uiContext = {
    confirm: async (title: string, message: string) => {
      ui.confirms.push({ title, message });
      return harness.answers.confirm(title);
    },
    select: async (title: string) => {
      ui.selects.push(title);
      return harness.answers.select(title);
    },
    input: async () => undefined,
    editor: async () => undefined,
    notify: record.notify,
    setStatus: (_key: string, text: string | undefined) => ui.statuses.push(text),
    onTerminalInput: () => () => {},
    setWorkingMessage() {},
    setWidget() {},
    setFooter() {},
    setHeader() {},
    setTitle() {},
    setEditorText() {},
    pasteToEditor() {},
    getEditorText: () => '',
    addAutocompleteProvider() {},
    setEditorComponent() {},
    getAllThemes: async () => [],
    getTheme: async () => undefined,
    setTheme: async () => ({ success: false }),
    getToolsExpanded: () => false,
    setToolsExpanded() {},
  };
  await runtime.initializeExtensions(session, {
    ...(options.headless ? {} : { uiContext }),
    mode: options.headless ? 'print' : 'rpc',
    reportRuntimeError: (error: unknown) => runtimeErrors.push(error),
    reportSendError: (_action: string, error: unknown) => runtimeErrors.push(error),
  });
  if (options.headless) {
    // The host's own no-op UI drops every notice. To SEE what a headless user would not, wrap its
    // notify in place: the object stays the same, so the host still reports `hasUI` false.
    const noOp = session.extensionRunner?.getUIContext();
    if (!noOp) throw new Error('the session has no extension runner');
    noOp.notify = record.notify;
  }
  return harness;
}

function installForDiscovery(): string {
  const agentDir = process.env['PI_CODING_AGENT_DIR'];
  if (!agentDir) throw new Error('PI_CODING_AGENT_DIR is not set: run this through npm run test:host');
  mkdirSync(`${agentDir}/extensions`, { recursive: true });
  const target = `${agentDir}/extensions/seed-desk.js`;
  copyFileSync(EXTENSION_FILE, target);
  return target;
}

/** Make the session's file exist now (the host otherwise waits for the first assistant message). */
export async function persist(harness: Harness): Promise<string> {
  await harness.sm.ensureOnDisk();
  await harness.sm.flush();
  const file = harness.sm.getSessionFile();
  if (!file) throw new Error('the session has no file');
  return file;
}
