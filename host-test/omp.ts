/**
 * Runs under Bun only. Opens sessions of the real OMP host with the built extension, driven by a
 * scripted UI or headless — the loading recipe of the shared host notes (§8): createAgentSession +
 * initializeExtensions.
 */
import { copyFileSync, mkdirSync, rmSync } from 'node:fs';
import { loopCall } from './loopCall';
import { EXTENSION_FILE, importFactory, loadHost, sharedRegistry } from './ompLoad';
import type { AgentSession, CommandRun, ExtensionFactory, Harness, OpenOptions, ScriptedAnswers, UiLog } from './ompTypes';

export type { ApprovalMode, CommandRun, Harness, HostToolResult, LoopCall, UserPolicy } from './ompTypes';
export { loadHost } from './ompLoad';

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
  const sm = options.sessionManager ?? (options.file ? await sdk.SessionManager.open(options.file) : sdk.SessionManager.create(cwd, sessionsDir));
  // Set, not passed as overrides: an override shadows every later `set` (a check changes them).
  const settings = sdk.Settings.isolated({});
  if (options.approvalMode) settings.set('tools.approvalMode', options.approvalMode);
  if (options.policy) settings.set('tools.approval', { seed_desk: options.policy });
  for (const [path, value] of Object.entries(options.settings ?? {})) settings.set(path, value);
  const bus = new EventBus();
  const events: unknown[] = [];
  const ui: UiLog = { notes: [], statuses: [], statusByKey: new Map(), confirms: [], selects: [], requests: [], said: [] };
  bus.on('workbook:seed-desk:changed', (data) => {
    events.push(data);
    ui.said.push({ event: 'workbook:seed-desk:changed', payload: data });
  });
  const commandRuns: CommandRun[] = [];
  let model: { readonly calls: readonly unknown[] } | null = null;
  if (options.mockModel) {
    mock.registerMockApi();
    model = mock.createMockModel({ handler: typeof options.mockModel === 'function' ? options.mockModel : { content: ['ok'] } });
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
    modelRegistry: options.model?.registry ?? (await sharedRegistry()),
    ...(model ? { model } : options.model ? { model: options.model.model } : {}),
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
      ui.requests.push({ kind: 'confirm', title, message });
      return harness.answers.confirm(title);
    },
    // An option is a string or { label } (OMP's getExtensionUISelectOptionLabel).
    select: async (title: string, options: readonly unknown[] = []) => {
      const labels = options.map((option) => (typeof option === 'object' && option !== null && 'label' in option ? String(option.label) : String(option)));
      ui.selects.push(title);
      ui.requests.push({ kind: 'select', title, options: labels });
      return harness.answers.select(title, labels);
    },
    input: async (title: string) => {
      ui.requests.push({ kind: 'input', title });
      return harness.answers.input?.(title);
    },
    editor: async (title: string, prefill?: string) => {
      ui.requests.push({ kind: 'editor', title, prefill: prefill ?? '' });
      return harness.answers.input?.(title);
    },
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
    call: (args, name) => loopCall(harness, args, name),
    hostTool(name = 'seed_desk') {
      const tool = session.getToolByName(name);
      if (!tool) throw new Error(`the host has no ${name} tool`);
      return tool;
    },
    async validate(args, name = 'seed_desk') {
      const { validateToolArguments } = await loadHost();
      return validateToolArguments(harness.hostTool(name), { type: 'toolCall', id: 'call_validate', name, arguments: structuredClone(args) });
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
