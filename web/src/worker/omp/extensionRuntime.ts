import type { BranchChangingEvent, CommandDefinition, ExtensionAPI, ExtensionContext, HostEntry, HostUI, ToolDefinition } from '../../../../extension/host';
import type { SessionJournal } from '$domain/journal/journal';
import { EventBus } from './eventBus';
import { count, cutNotice, HOST_STATUS_KEY, hostStatusText, messageOf, PageHostError, SHIPPED_LIMITS, type HostLimits } from './hostLimits';
import { Invocation, type Notice } from './invocation';

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
 * How `ctx.ui.confirm` is answered: `page` asks the learner (the dialog stops the run until the
 * page answers); `confirm-at-once` is a second client that has already said yes (the race's other
 * action); `cancel` answers no at once (a dialog the page does not offer, from a tool).
 */
export type DialogAnswerer = 'page' | 'confirm-at-once' | 'cancel';

interface RegisteredTool {
  readonly definition: ToolDefinition<unknown>;
}

let dialogSeq = 0;

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
  /** `appendEntry` calls in the current run (a command, a tool call, a session event, or a leg after a dialog). */
  private appendsThisRun = 0;
  /** The one error every append past the cap throws in this run: a loop that catches it stays cheap. */
  private overCap: PageHostError | null = null;

  private constructor(
    private readonly host: HostServices,
    /** Where the extension came from, as the host names it in an extension error. */
    readonly path: string,
    readonly limits: HostLimits,
  ) {
    this.bus = new EventBus((channel, data) => host.emitted(channel, data));
  }

  static async load(factory: ExtensionFactory, host: HostServices, path = 'seed-desk.js', limits: HostLimits = SHIPPED_LIMITS): Promise<ExtensionRuntime> {
    const runtime = new ExtensionRuntime(host, path, limits);
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

  /** The run's appends up to the cap reach the journal (and stay, as each of the host's appends does); the next one throws. */
  private append(customType: string, data: unknown): void {
    const cap = this.limits.appendsPerRun;
    if (this.appendsThisRun >= cap) {
      if (this.overCap === null) {
        this.overCap = new PageHostError(`Your extension called appendEntry more than ${count(cap)} times in one run; the page's host kept the first ${count(cap)} entries and refused the rest (the real OMP has no such cap).`);
        this.misuse(this.overCap.message);
      }
      throw this.overCap;
    }
    this.appendsThisRun++;
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

  /** A new run: its append count starts over, and so does each leg after a dialog's answer. */
  private invocation(what: string): Invocation {
    const settleMs = this.limits.settleMs;
    const gaveUp = () => {
      const text = `Your ${what} returned a promise that did not settle within ${settleMs} ms and opened no dialog; the page's host stopped waiting for it (the real OMP would wait).`;
      this.misuse(text);
      return text;
    };
    const invocation = new Invocation(settleMs === null ? null : { ms: settleMs, gaveUp });
    this.newRun();
    invocation.onResume = () => this.newRun();
    return invocation;
  }

  private newRun(): void {
    this.appendsThisRun = 0;
    this.overCap = null;
  }

  /** The run, with what it threw named on the host's status line (the run's own result still carries the error). */
  private reported(what: string, run: () => Promise<unknown>): () => Promise<unknown> {
    return async () => {
      try {
        return await run();
      } catch (error) {
        if (!(error instanceof PageHostError)) this.misuse(`Your ${what} threw: ${messageOf(error)}`);
        throw error;
      }
    };
  }

  /** What the code did wrong, named on the host's status line (the learner's edited code only); the last one stays until the next. */
  private misuse(text: string): void {
    if (this.limits.reportsOnStatusLine) this.host.setStatus(HOST_STATUS_KEY, hostStatusText(text));
  }

  /**
   * A session event, as the host fires it after the branch may have changed. Returns the errors
   * its handlers threw, in the host's words (`Extension "<path>" error: …`); each handler runs.
   */
  fire(event: BranchChangingEvent, payload: unknown): string[] {
    this.newRun();
    const ctx = this.context(new Invocation(), 'cancel');
    const errors: string[] = [];
    const failed = (error: unknown) => {
      if (!(error instanceof PageHostError)) this.misuse(`Your ${event} handler threw: ${messageOf(error)}`);
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
    const ui: HostUI = {
      confirm: (title, message) => {
        // The host's no-op UI (no interactive UI) answers every confirmation with false.
        if (!hasUI || answerer === 'cancel') return Promise.resolve(false);
        if (answerer === 'confirm-at-once') return Promise.resolve(true);
        return new Promise<boolean>((answer) => invocation.ask({ id: `dialog-${++dialogSeq}`, title, message, answer }));
      },
      notify: (message, type = 'info') => {
        const text = String(message);
        if (text.length > this.limits.noticeChars) this.misuse(`Your extension's notify was ${count(text.length)} characters long; the page shows the first ${count(this.limits.noticeChars)} (the real OMP shows it whole).`);
        const notice: Notice = { level: type, text: cutNotice(text, this.limits.noticeChars), shown: hasUI };
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
