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
import type { Said } from './script';

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
  newSession(options?: Record<string, unknown>): Promise<boolean>;
  readonly isStreaming: boolean;
  readonly messages: readonly { role: string }[];
  readonly modelRegistry: { authStorage: { setRuntimeApiKey(provider: string, key: string): void } };
  getToolByName(name: string): HostTool | undefined;
  navigateTree(targetId: string, options: { summarize?: boolean }): Promise<{ cancelled: boolean }>;
  dispose(): Promise<void>;
  readonly extensionRunner?: { getUIContext(): Record<string, unknown> };
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

/** pi-ai's mock provider: a model whose replies are scripted; `calls` lists every request it got. */
interface MockModule {
  registerMockApi(): void;
  createMockModel(options: Record<string, unknown>): { readonly calls: readonly unknown[] };
}

interface Loaded {
  sdk: Sdk;
  runtime: Runtime;
  EventBus: new () => HostEventBus;
  validateToolArguments: ValidateToolArguments;
  mock: MockModule;
  factory: ExtensionFactory;
}

type ExtensionFactory = (pi: Record<string, unknown>) => unknown;

let loaded: Promise<Loaded> | undefined;

async function importFromOmp(specifier: string): Promise<Record<string, unknown>> {
  return (await import(Bun.resolveSync(specifier, OMP_DIR))) as Record<string, unknown>;
}

/** The host modules and the extension's default export, imported once per process. */
export function loadHost(): Promise<Loaded> {
  loaded ??= (async () => {
    const [sdk, runtime, bus, validation, mock, extension] = await Promise.all([
      importFromOmp('@oh-my-pi/pi-coding-agent'),
      importFromOmp('@oh-my-pi/pi-coding-agent/modes/runtime-init'),
      importFromOmp('@oh-my-pi/pi-coding-agent/utils/event-bus'),
      importFromOmp('@oh-my-pi/pi-ai/utils/validation'),
      importFromOmp('@oh-my-pi/pi-ai/providers/mock'),
      import(EXTENSION_FILE) as Promise<{ default?: unknown }>,
    ]);
    if (typeof extension.default !== 'function') throw new Error(`${EXTENSION_FILE} has no default export function`);
    return {
      sdk: sdk as unknown as Sdk,
      runtime: runtime as unknown as Runtime,
      EventBus: bus['EventBus'] as Loaded['EventBus'],
      validateToolArguments: validation['validateToolArguments'] as ValidateToolArguments,
      mock: mock as unknown as MockModule,
      factory: extension.default as ExtensionFactory,
    };
  })();
  return loaded;
}

/** A built extension module's default export. */
async function importFactory(file: string): Promise<ExtensionFactory> {
  const module = (await import(file)) as { default?: unknown };
  if (typeof module.default !== 'function') throw new Error(`${file} has no default export function`);
  return module.default as ExtensionFactory;
}

let registry: Promise<unknown> | undefined;
/** One model registry for every session of the run (each session would otherwise build one and probe local model servers). */
function sharedRegistry(): Promise<unknown> {
  registry ??= (async () => {
    const [models, sdkModule, dirs] = await Promise.all([
      importFromOmp('@oh-my-pi/pi-coding-agent/config/model-registry'),
      importFromOmp('@oh-my-pi/pi-coding-agent/sdk'),
      importFromOmp('@oh-my-pi/pi-utils/dirs'),
    ]);
    const { sdk } = await loadHost();
    const agentDir = process.env['PI_CODING_AGENT_DIR'];
    if (!agentDir) throw new Error('PI_CODING_AGENT_DIR is not set: run this through npm run test:host');
    const ModelRegistry = models['ModelRegistry'] as new (auth: unknown, modelsPath: string, options: Record<string, unknown>) => unknown;
    const auth = await (sdkModule['discoverAuthStorage'] as (dir: string) => Promise<unknown>)(agentDir);
    return new ModelRegistry(auth, `${agentDir}/models.yml`, { settings: sdk.Settings.isolated({}), cacheDbPath: (dirs['getModelDbPath'] as (dir: string) => string)(agentDir) });
  })();
  return registry;
}

/** What the scripted UI saw, in order. */
export interface UiLog {
  notes: { type: string; message: string }[];
  statuses: (string | undefined)[];
  /** `setStatus` by key, as the host's status bar keeps them (a key set again keeps its place). */
  statusByKey: Map<string, string>;
  confirms: { title: string; message: string }[];
  selects: string[];
  /** Every notify and every event on the seed desk channel, in the order they happened. */
  said: Said[];
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
  /** The user's `tools.approval.seed_desk`. */
  policy?: UserPolicy | null;
  /** Load the extension the way an installed one loads: from `<agentDir>/extensions/`, by discovery. */
  discover?: boolean;
  /** Give the session pi-ai's mock model (it answers "ok"), so a turn that starts is seen, not refused for want of a model. */
  mockModel?: boolean;
  /** Load this built module instead of extension/dist/seed-desk.js (a "Break it" variant). */
  extensionFile?: string;
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
  call(args: unknown): Promise<LoopCall>;
  /** The registered tool itself, as the host holds it. */
  hostTool(): HostTool;
  /** The host's argument check for a seed_desk call: the arguments it would run with, or a throw. */
  validate(args: unknown): Promise<unknown>;
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

const DEFAULT_ANSWERS: ScriptedAnswers = { confirm: () => true, select: () => 'Approve' };

/** The factory, with each registered command's handler observed (the value it resolves to, or its throw). */
function observed(factory: ExtensionFactory, runs: CommandRun[]): ExtensionFactory {
  return (pi) => {
    const view = new Proxy(pi, {
      get(target, key) {
        if (key === 'registerCommand') {
          return (name: string, command: { handler: (args: string, ctx: unknown) => unknown }) =>
            (target['registerCommand'] as (name: string, command: unknown) => void)(name, {
              ...command,
              handler: async (args: string, ctx: unknown) => {
                try {
                  const value = await command.handler(args, ctx);
                  runs.push({ name, ok: true, value });
                  return value;
                } catch (error) {
                  runs.push({ name, ok: false, error: error instanceof Error ? error.message : String(error) });
                  throw error;
                }
              },
            });
        }
        const value = Reflect.get(target, key, target) as unknown;
        return typeof value === 'function' ? (value as (...args: unknown[]) => unknown).bind(target) : value;
      },
    });
    return factory(view);
  };
}

export async function openSession(options: OpenOptions): Promise<Harness> {
  const { sdk, runtime, EventBus, factory: shipped, mock } = await loadHost();
  const factory = options.extensionFile ? await importFactory(options.extensionFile) : shipped;
  const cwd = `${options.dir}/cwd`;
  const agentDir = `${options.dir}/agent`;
  const sessionsDir = `${options.dir}/sessions`;
  for (const dir of [cwd, agentDir, sessionsDir]) mkdirSync(dir, { recursive: true });

  // Discovery reads the process-wide agent dir (PI_CODING_AGENT_DIR), not the `agentDir` option;
  // scripts/test-host.mjs points it (and HOME) into host-test/out so no run touches ~/.omp.
  const installed = options.discover ? installForDiscovery() : null;
  const sm = options.file ? await sdk.SessionManager.open(options.file) : sdk.SessionManager.create(cwd, sessionsDir);
  // Set, not passed as overrides: an override shadows every later `set` (a check changes them).
  const settings = sdk.Settings.isolated({});
  if (options.approvalMode) settings.set('tools.approvalMode', options.approvalMode);
  if (options.policy) settings.set('tools.approval', { seed_desk: options.policy });
  const bus = new EventBus();
  const events: unknown[] = [];
  const ui: UiLog = { notes: [], statuses: [], statusByKey: new Map(), confirms: [], selects: [], said: [] };
  bus.on('workbook:seed-desk:changed', (data) => {
    events.push(data);
    ui.said.push({ event: 'workbook:seed-desk:changed', payload: data });
  });
  const commandRuns: CommandRun[] = [];
  let model: { readonly calls: readonly unknown[] } | null = null;
  if (options.mockModel) {
    mock.registerMockApi();
    model = mock.createMockModel({ handler: { content: ['ok'] } });
  }
  const { session } = await sdk.createAgentSession({
    cwd,
    agentDir,
    sessionManager: sm,
    settings,
    ...(options.discover
      ? { disableExtensionDiscovery: false }
      : { extensions: [observed(factory, commandRuns), ...(options.extraExtensions ?? []).map((extra) => observed(extra, commandRuns))], disableExtensionDiscovery: true }),
    enableMCP: false,
    enableLsp: false,
    skipPythonPreflight: true,
    hasUI: false,
    eventBus: bus,
    modelRegistry: await sharedRegistry(),
    ...(model ? { model } : {}),
  });
  if (model) session.modelRegistry.authStorage.setRuntimeApiKey('mock', 'key');
  // Loaded now; later sessions must not find it (they are given the factory instead).
  if (installed) rmSync(installed);

  const runtimeErrors: unknown[] = [];
  let headless = options.headless === true;
  const record = {
    notify: (message: string, type = 'info') => {
      ui.notes.push({ type, message });
      ui.said.push({ notify: type, text: message });
    },
    setStatus: (key: string, text: string | undefined) => {
      ui.statuses.push(text);
      if (text === undefined) ui.statusByKey.delete(key);
      else ui.statusByKey.set(key, text);
    },
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
    setStatus: record.setStatus,
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
  const initialize = async () => {
    await runtime.initializeExtensions(session, {
      ...(headless ? {} : { uiContext }),
      mode: headless ? 'print' : 'rpc',
      reportRuntimeError: (error: unknown) => runtimeErrors.push(error),
      reportSendError: (_action: string, error: unknown) => runtimeErrors.push(error),
    });
  };
  // Before the first initialization the runner holds the host's no-op UI (its default).
  const noOpUi = uiContextOf(session);
  if (headless) watchNoOpUi(noOpUi, record);
  await initialize();

  const harness: Harness = {
    session,
    sm,
    ui,
    events,
    runtimeErrors,
    commandRuns,
    modelCalls: model ? model.calls : null,
    get headless() {
      return headless;
    },
    answers: DEFAULT_ANSWERS,
    settings,
    async command(line) {
      return session.prompt(line);
    },
    async tool(args) {
      return harness.hostTool().execute(`call_${crypto.randomUUID().slice(0, 8)}`, args);
    },
    async call(args) {
      const id = `call_${crypto.randomUUID().slice(0, 8)}`;
      const now = Date.now();
      sm.appendMessage({
        role: 'assistant',
        content: [{ type: 'toolCall', id, name: 'seed_desk', arguments: args }],
        api: 'mock',
        provider: 'harness',
        model: 'scripted',
        usage: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, cost: { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, total: 0 } },
        stopReason: 'toolUse',
        timestamp: now,
      });
      const prompts = ui.selects.length;
      let outcome: { isError: boolean; content: { type: string; text?: string }[]; details: unknown };
      let validated: unknown;
      let valid = true;
      try {
        validated = await harness.validate(args);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        outcome = { isError: true, content: [{ type: 'text', text: message }], details: { isError: true, error: message } };
        valid = false;
      }
      if (valid) {
        try {
          const result = await harness.hostTool().execute(id, validated);
          outcome = { isError: result.isError === true, content: result.content, details: result.details };
        } catch (error) {
          // agent-loop.ts: a throw from execute becomes the bare message, empty details.
          outcome = { isError: true, content: [{ type: 'text', text: error instanceof Error ? error.message : String(error) }], details: {} };
        }
      }
      const result = outcome!;
      sm.appendMessage({ role: 'toolResult', toolCallId: id, toolName: 'seed_desk', content: result.content, details: result.details, isError: result.isError, timestamp: Date.now() });
      const text = result.content.map((part) => part.text ?? '').join('\n');
      return { prompt: ui.selects.length > prompts ? (ui.selects.at(-1) ?? null) : null, isError: result.isError, text, details: result.isError ? null : (result.details ?? null) };
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
    async setHeadless(next) {
      if (next === headless) return;
      headless = next;
      if (headless) watchNoOpUi(noOpUi, record);
      await initialize();
    },
    status: () => [...ui.statusByKey.values()].join(' · '),
    deskEntries: () => sm.getEntries().filter((entry) => entry.type === 'custom' && entry['customType'] === 'seed-desk-state-v1'),
    notesSince: (mark) => ui.notes.slice(mark),
    async close() {
      await session.dispose();
    },
  };
  return harness;
}

/**
 * The host's own no-op UI drops every notice and status. To SEE what a headless user would not,
 * wrap its notify and setStatus in place: the object stays the same, so the host still reports
 * `hasUI` false. (It is one object for the whole process: the last headless session wraps it.)
 */
function watchNoOpUi(noOp: Record<string, unknown>, record: { notify: (message: string, type?: string) => void; setStatus: (key: string, text: string | undefined) => void }): void {
  noOp['notify'] = record.notify;
  noOp['setStatus'] = record.setStatus;
}

function uiContextOf(session: AgentSession): Record<string, unknown> {
  const runner = session.extensionRunner;
  if (!runner) throw new Error('the session has no extension runner');
  return runner.getUIContext();
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
