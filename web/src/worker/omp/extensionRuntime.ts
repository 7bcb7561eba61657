import { NOTIFY_LEVELS, type BranchChangingEvent, type CommandDefinition, type ExtensionAPI, type ExtensionContext, type HostEntry, type HostUI, type NotifyLevel, type ToolDefinition } from '../../../../extension/ompApi';
import type { SessionJournal } from '$domain/journal/journal';
import { EventBus } from './eventBus';
import { messageOf, type RunPolicy, type SettleLimit } from './runPolicy';
import { answerWithoutAsking, valueOfAnswer, type UiAnswer, type UiRequest, type UiRequestBody } from '../../protocol/uiRequests';

/** An extension module's default export, as the host loads it. */
export type ExtensionFactory = (pi: ExtensionAPI) => void | Promise<void>;

/** What the runtime needs from the host around it. */
export interface HostServices {
  /** The open session's journal (it changes on switch, fork, import, reopen). */
  currentJournal(): SessionJournal;
  /** `appendEntry`: synchronous, as in the real host; the store is written right behind. */
  appendCustom(customType: string, data: unknown): void;
  hasUI(): boolean;
  setStatus(key: string, text: string | undefined): void;
  /** Every notify, for the event log (the invocation keeps its own too). */
  notified(notice: Notice): void;
  /** Every `pi.events.emit`, for the event log. */
  emitted(channel: string, data: unknown): void;
}

/**
 * How `ctx.ui` requests are answered: `page` asks the learner (the request stops the run until the
 * page answers); `confirm-at-once` is a second client that has already said yes (the race's other
 * action); `cancel` answers no at once (a request the page does not offer, from a tool).
 */
export type DialogAnswerer = 'page' | 'confirm-at-once' | 'cancel';

interface RegisteredTool {
  readonly definition: ToolDefinition<unknown>;
}


/**
 * The part of an OMP host that an extension talks to: `pi` for the factory (registrations, the
 * event bus, appendEntry, TypeBox's `Unsafe`), and a fresh `ctx` for each run of its code (ui,
 * hasUI, a read-only session manager over the journal). What extension code does is observed
 * per run (`Invocation`), so the worker can answer with what the host saw.
 */
export class ExtensionRuntime {
  readonly commands = new Map<string, CommandDefinition>();
  readonly tools = new Map<string, RegisteredTool>();
  readonly bus: EventBus;
  private readonly handlers = new Map<BranchChangingEvent, ((event: unknown, ctx: ExtensionContext) => void)[]>();
  /** Action methods throw while the factory runs, as the host's do. */
  private loading = true;

  private constructor(
    private readonly host: HostServices,
    /** Where the extension came from, as the host names it in an extension error. */
    readonly path: string,
    /** The page's caps on the learner's edited code (edit/runLimits.ts); null for the shipped extension, which runs as the real host runs it. */
    readonly policy: RunPolicy | null,
  ) {
    this.bus = new EventBus((channel, data) => host.emitted(channel, data));
  }

  static async load(factory: ExtensionFactory, host: HostServices, path = 'seed-desk.js', policy: RunPolicy | null = null): Promise<ExtensionRuntime> {
    const runtime = new ExtensionRuntime(host, path, policy);
    await factory(runtime.api());
    runtime.loading = false;
    return runtime;
  }

  private api(): ExtensionAPI {
    const action = <A extends unknown[]>(run: (...args: A) => void) => (...args: A) => {
      if (this.loading) throw new Error('Extension runtime not initialized. Action methods cannot be called during extension loading.');
      run(...args);
    };
    return {
      // The host's TypeBox shim: `Unsafe` keeps the JSON Schema it is given (a copy), and the
      // tool registry validates calls against exactly that document.
      typebox: { Type: { Unsafe: (schema) => structuredClone(schema) } },
      events: this.bus,
      on: (event, handler) => {
        const list = this.handlers.get(event) ?? [];
        list.push(handler);
        this.handlers.set(event, list);
      },
      registerCommand: (name, command) => {
        this.commands.set(name, command);
      },
      registerTool: (tool) => {
        this.tools.set(tool.name, { definition: tool as ToolDefinition<unknown> });
      },
      appendEntry: action((customType: string, data?: unknown) => this.append(customType, data)),
    };
  }

  /** An append reaches the journal unless the policy refuses it (past its cap, it throws). */
  private append(customType: string, data: unknown): void {
    this.policy?.beforeAppend();
    this.host.appendCustom(customType, data);
  }

  /** Runs `/name args`; null when no extension registered `name`. */
  runCommand(name: string, args: string, answerer: DialogAnswerer = 'page'): Invocation | null {
    const command = this.commands.get(name);
    if (!command) return null;
    const what = `/${name} handler`;
    const invocation = this.invocation(what);
    return invocation.start(this.reported(what, () => command.handler(args, this.context(invocation, answerer))));
  }

  /** Runs a registered tool's `execute` (after the host's checks); the run's value is its result. */
  runTool(name: string, toolCallId: string, params: unknown): Invocation | null {
    const tool = this.tools.get(name);
    if (!tool) return null;
    const what = `${name} tool's execute`;
    const invocation = this.invocation(what);
    return invocation.start(this.reported(what, () => tool.definition.execute(toolCallId, params, undefined, undefined, this.context(invocation, 'cancel'))));
  }

  /** A new run: the policy's per-run counts start over, and so they do for each leg after a dialog's answer. */
  private invocation(what: string): Invocation {
    const invocation = new Invocation(this.policy?.settleLimit(what) ?? null);
    this.policy?.newRun();
    invocation.onResume = () => this.policy?.newRun();
    return invocation;
  }

  /** The run, with what it threw told to the policy (the run's own result still carries the error). */
  private reported(what: string, run: () => Promise<unknown>): () => Promise<unknown> {
    return async () => {
      try {
        return await run();
      } catch (error) {
        this.policy?.threw(what, error);
        throw error;
      }
    };
  }

  /**
   * A session event, as the host fires it after the branch may have changed. Returns the errors
   * its handlers threw, in the host's words (`Extension "<path>" error: …`); each handler runs.
   */
  fire(event: BranchChangingEvent, payload: unknown): string[] {
    this.policy?.newRun();
    const ctx = this.context(new Invocation(), 'cancel');
    const errors: string[] = [];
    const failed = (error: unknown) => {
      this.policy?.threw(`${event} handler`, error);
      return `Extension "${this.path}" error: ${messageOf(error)}`;
    };
    for (const handler of this.handlers.get(event) ?? []) {
      try {
        const returned: unknown = handler(payload, ctx);
        // An async handler's rejection is its error too; it arrives after the others ran.
        if (returned instanceof Promise) returned.catch((error: unknown) => this.host.notified({ level: 'error', text: failed(error), shown: true }));
      } catch (error) {
        errors.push(failed(error));
      }
    }
    return errors;
  }

  private context(invocation: Invocation, answerer: DialogAnswerer): ExtensionContext {
    const host = this.host;
    const hasUI = host.hasUI();
    // Every request goes one way: the page is asked (the run waits), or the host answers at once.
    const ask = (body: UiRequestBody): Promise<boolean | string | undefined> => {
      // Random, so a request a replaced worker asked can never name one this worker asks.
      const request = { ...body, id: `request-${crypto.randomUUID()}` } as UiRequest;
      // The host's no-op UI (no interactive UI) answers at once: confirm false, select and input undefined.
      if (!hasUI || answerer !== 'page') return Promise.resolve(valueOfAnswer(answerWithoutAsking(request, answerer === 'confirm-at-once' && hasUI)));
      return new Promise((resume) => invocation.ask({ request, resume }));
    };
    const ui: HostUI = {
      confirm: async (title, message) => (await ask({ kind: 'confirm', title: String(title), message: String(message) })) === true,
      select: async (title, options) => {
        const chosen = await ask({ kind: 'select', title: String(title), options: Array.isArray(options) ? options.map(String) : [] });
        return typeof chosen === 'string' ? chosen : undefined;
      },
      input: async (title, placeholder) => {
        const typed = await ask({ kind: 'input', title: String(title), placeholder: placeholder === undefined ? null : String(placeholder) });
        return typeof typed === 'string' ? typed : undefined;
      },
      notify: (message, type = 'info') => {
        const text = String(message);
        // Edited code may pass any level: one the host does not know is shown as info, not sent on unchecked.
        const level = (NOTIFY_LEVELS as readonly unknown[]).includes(type) ? type : 'info';
        const notice: Notice = { level, text: this.policy?.notice(text) ?? text, shown: hasUI };
        invocation.notices.push(notice);
        host.notified(notice);
      },
      setStatus: (key, text) => host.setStatus(key, text),
    };
    return {
      ui,
      hasUI,
      sessionManager: {
        getSessionId: () => host.currentJournal().sessionId,
        getBranch: (fromId?: string) => branchOf(host.currentJournal(), fromId),
        getEntries: () => [...host.currentJournal().entries()] as HostEntry[],
      },
    };
  }
}

/** `getBranch(fromId?)`: root to leaf, header excluded; [] for a null leaf or an unknown id. */
function branchOf(journal: SessionJournal, fromId: string | undefined): HostEntry[] {
  if (fromId !== undefined && !journal.has(fromId)) return [];
  return journal.branch(fromId === undefined ? journal.leafId : journal.get(fromId)?.id ?? null) as HostEntry[];
}

/**
 * One run of extension code (a command handler, a tool's execute) as the worker follows it. The
 * code is async and may stop at a UI request (`ui.confirm`, `select`, `input` are awaits): the
 * request that started it is answered then, and the run goes on when the page answers, in a
 * later request. `settle()` waits for whichever comes first: the run finishing or a request.
 */

export interface Notice {
  readonly level: NotifyLevel;
  readonly text: string;
  /** False when the host has no UI: a headless host drops notifications; the page still shows them, marked. */
  readonly shown: boolean;
}

/** What the run waits for, and how its `await` resumes. */
export interface Asked {
  readonly request: UiRequest;
  readonly resume: (value: boolean | string | undefined) => void;
}

export type RunResult = { readonly ok: true; readonly value: unknown } | { readonly ok: false; readonly error: string };

export class Invocation {
  readonly notices: Notice[] = [];
  asked: Asked | null = null;
  result: RunResult | null = null;
  /** Told when the page's answer lets the run go on (a new leg of the run starts). */
  onResume: (() => void) | null = null;
  private wake: (() => void) | null = null;
  private timer: ReturnType<typeof setTimeout> | undefined;

  /** `limit`: null waits for the run as long as it takes, as the real host does. */
  constructor(private readonly limit: SettleLimit | null = null) {}

  start(run: () => Promise<unknown>): this {
    // A handler that is not async may throw before it returns a promise: that is the run's error too.
    new Promise<unknown>((resolve) => resolve(run())).then(
      (value) => this.finish({ ok: true, value }),
      (error: unknown) => this.finish({ ok: false, error: error instanceof Error ? error.message : String(error) }),
    );
    return this;
  }

  /** Resolves once the run has finished or waits on the UI (or the host stopped waiting: see `limit`). */
  settle(): Promise<void> {
    if (this.result !== null || this.asked !== null) return Promise.resolve();
    const limit = this.limit;
    if (limit) this.timer = setTimeout(() => this.finish({ ok: false, error: limit.gaveUp() }), limit.ms);
    return new Promise((resolve) => {
      this.wake = resolve;
    });
  }

  ask(asked: Asked): void {
    this.asked = asked;
    this.poke();
  }

  /** Answers what the run waits for; the run continues from its `await`. The caller has checked that the answer fits the request. */
  answer(answer: UiAnswer): void {
    const asked = this.asked;
    if (!asked) return;
    this.asked = null;
    this.onResume?.();
    asked.resume(valueOfAnswer(answer));
  }

  /**
   * What the run said since `from` (a notice count taken before). A host without UI drops
   * notifications; the page still shows them, marked, so the learner sees what was said to no one.
   */
  said(from = 0): string {
    return this.notices
      .slice(from)
      .map((notice) => (notice.shown ? notice.text : `(not shown: a host without UI drops notifications) ${notice.text}`))
      .join('\n');
  }

  private finish(result: RunResult): void {
    // A run the host stopped waiting for keeps the host's error, whatever it does later.
    if (this.result !== null) return;
    this.result = result;
    this.poke();
  }

  private poke(): void {
    clearTimeout(this.timer);
    const wake = this.wake;
    this.wake = null;
    wake?.();
  }
}
