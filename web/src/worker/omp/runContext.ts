import { NOTIFY_LEVELS, type ExtensionContext, type HostUI } from '../../../../extension/ompApi';
import { answerWithoutAsking, valueOfAnswer, type UiRequest, type UiRequestBody } from '../../protocol/uiRequests';
import { withRefusals } from './apiRefusals';
import type { CustomMessageFields } from './customMessage';
import type { PageUi } from './pageUi';
import type { PageModel } from '../../protocol/messages';
import type { AgentFacts } from './agentFacts';
import type { Invocation, Notice } from './invocation';
import type { ManagedTimers } from './managedTimers';
import type { RunPolicy } from './runPolicy';
import { sessionReads } from './sessionReads';
import type { SessionJournal } from '$domain/journal/journal';

/** What the runtime needs from the host around it. */
export interface HostServices {
  /** The open session's journal (it changes on switch, fork, import, reopen). */
  currentJournal(): SessionJournal;
  /** `appendEntry`: synchronous, as in the real host; the store is written right behind. */
  appendCustom(customType: string, data: unknown): void;
  /** `sendMessage`: a `custom_message` entry under the leaf, as synchronous as `appendCustom`. */
  appendCustomMessage(message: CustomMessageFields): void;
  hasUI(): boolean;
  setStatus(key: string, text: string | undefined): void;
  /** The agent side as far as the worker knows it: the run going on, the real model and system prompt last used. */
  readonly agent: AgentFacts;
  /** Widgets and the Command box's text, as the extension set them (pageUi.ts). */
  readonly pageUi: PageUi;
  /** Every notify, for the event log (the invocation keeps its own too). */
  notified(notice: Notice): void;
  /** Every `pi.events.emit`, for the event log. */
  emitted(channel: string, data: unknown): void;
  /** A command's session controls, made within its run (`commandSessions.ts`); absent where the host has none. */
  readonly sessionControls?: ((run: Invocation) => SessionControls) | null;
}

/** OMP's `ExtensionCommandContext` session controls the page makes (each answers whether an extension cancelled it). */
export interface SessionControls {
  newSession(options?: { parentSession?: string; setup?: (sessionManager: unknown) => Promise<void> }): Promise<{ cancelled: boolean }>;
  branch(entryId: string): Promise<{ cancelled: boolean }>;
  navigateTree(targetId: string, options?: { summarize?: boolean }): Promise<{ cancelled: boolean }>;
  switchSession(sessionPath: string): Promise<{ cancelled: boolean }>;
}

/**
 * How `ctx.ui` requests are answered: `page` asks the learner (the request stops the run until the
 * page answers); `confirm-at-once` is a second client that has already said yes (the race's other
 * action); `cancel` answers no at once (a request the page does not offer, from a tool).
 */
export type DialogAnswerer = 'page' | 'confirm-at-once' | 'cancel';

/** What a run's `ctx` is made from: the host, the run it belongs to, who answers its dialogs, and whether it is a command's. */
export interface ContextParts {
  readonly host: HostServices;
  readonly policy: RunPolicy | null;
  readonly invocation: Invocation;
  readonly answerer: DialogAnswerer;
  /** A command handler's ctx carries OMP's session controls (ExtensionCommandContext). */
  readonly command: boolean;
  /** The extension's managed timers (`ctx.setTimeout`, `setInterval`, `clearTimer`). */
  readonly timers?: ManagedTimers;
}

/**
 * `ctx.model`: the fields of OMP's `Model` (pi-catalog `types.ts`) that the page knows of the real
 * model it asked, a fresh copy each read; undefined when it has asked none, as OMP's is without a model.
 */
function sessionModel(model: PageModel | undefined) {
  return model === undefined ? undefined : { id: model.id, name: model.id, api: model.api, provider: model.provider };
}

/** OMP's `getExtensionUISelectOptionLabel`: an option is a string or `{ label, description }`; the label is shown and returned. */
function optionLabel(option: unknown): string {
  if (typeof option === 'object' && option !== null && 'label' in option) return String(option.label);
  return String(option);
}

/**
 * A fresh `ctx` for one run of extension code. What works is built here; every other member of
 * OMP's context, its `ui` and its session manager throws its sentence from the API table
 * (apiSupport.ts) when called, so nothing an extension asks for silently does nothing.
 */
export function runContext({ host, policy, invocation, answerer, command, timers }: ContextParts): ExtensionContext {
  const hasUI = host.hasUI();
  // Every request goes one way: the page is asked (the run waits), or the host answers at once.
  const ask = (body: UiRequestBody): Promise<boolean | string | undefined> => {
    // Random, so a request a replaced worker asked can never name one this worker asks.
    const request = { ...body, id: `request-${crypto.randomUUID()}` } as UiRequest;
    // The host's no-op UI (no interactive UI) answers at once: confirm false, select and input undefined.
    if (!hasUI || answerer !== 'page') return Promise.resolve(valueOfAnswer(answerWithoutAsking(request, answerer === 'confirm-at-once' && hasUI)));
    return new Promise((resume) => invocation.ask({ request, resume }));
  };
  const ui: HostUI = withRefusals('ctx.ui', {
    confirm: async (title: string, message: string) => (await ask({ kind: 'confirm', title: String(title), message: String(message) })) === true,
    select: async (title: string, options: readonly unknown[]) => {
      const chosen = await ask({ kind: 'select', title: String(title), options: Array.isArray(options) ? options.map(optionLabel) : [] });
      return typeof chosen === 'string' ? chosen : undefined;
    },
    input: async (title: string, placeholder?: string) => {
      const typed = await ask({ kind: 'input', title: String(title), placeholder: placeholder === undefined ? null : String(placeholder) });
      return typeof typed === 'string' ? typed : undefined;
    },
    notify: (message: string, type: unknown = 'info') => {
      const text = String(message);
      // Edited code may pass any level: one the host does not know is shown as info, not sent on unchecked.
      const level = NOTIFY_LEVELS.find((known) => known === type) ?? 'info';
      const notice: Notice = { level, text: policy?.notice(text) ?? text, shown: hasUI };
      invocation.notices.push(notice);
      host.notified(notice);
    },
    setStatus: (key: string, text: string | undefined) => host.setStatus(key, text),
    editor: async (title: string, prefill?: string) => {
      const typed = await ask({ kind: 'editor', title: String(title), prefill: prefill === undefined ? '' : String(prefill) });
      return typeof typed === 'string' ? typed : undefined;
    },
    // OMP's no-op UI (no interactive UI) ignores these, and answers "" for the editor's text.
    setWidget: (key: string, content: unknown) => (hasUI ? host.pageUi.setWidget(key, content) : undefined),
    setEditorText: (text: string) => (hasUI ? host.pageUi.setEditorText(text) : undefined),
    pasteToEditor: (text: string) => (hasUI ? host.pageUi.pasteToEditor(text) : undefined),
    getEditorText: () => (hasUI ? host.pageUi.getEditorText() : ''),
    // What OMP's RPC mode (rpc-mode.ts) and its no-UI host (runner.ts `noOpUIContext`) do with these: nothing; tools never expanded.
    setWorkingMessage: () => undefined,
    addAutocompleteProvider: () => undefined,
    getToolsExpanded: () => false,
    setToolsExpanded: () => undefined,
  });
  const ctx = withRefusals('ctx', {
    ui,
    hasUI,
    // The page answers dialogs as a client does in OMP's RPC mode; without UI it is a print-mode host.
    mode: hasUI ? 'rpc' : 'print',
    sessionManager: sessionReads(() => host.currentJournal()),
    // OMP's ctx.model is a getter over the session's model (runner.ts): read when the code reads it.
    get model() {
      return sessionModel(host.agent.model);
    },
    isProjectTrusted: () => true,
    // OMP: not streaming. The page's agent run goes from the page's start of a request (or a scripted agent's run) to its end.
    isIdle: () => host.agent.run === null,
    // OMP counts queued steering and follow-up messages; the page queues none.
    hasPendingMessages: () => false,
    // The parts of the system prompt the page last sent a real model, a fresh copy ([] before one).
    getSystemPrompt: () => [...host.agent.systemPrompt],
    // OMP answers null when it runs no async job manager; the page runs no background jobs.
    getAsyncJobSnapshot: () => null,
    ...(timers ? { setInterval: timers.setInterval.bind(timers), setTimeout: timers.setTimeout.bind(timers), clearTimer: timers.clear.bind(timers) } : {}),
  });
  if (!command) return ctx;
  // The session controls are a command's own (OMP: "only safe in user-initiated commands").
  const controls = host.sessionControls?.(invocation);
  return withRefusals('commandCtx', controls ? Object.assign(ctx, controls) : ctx);
}
