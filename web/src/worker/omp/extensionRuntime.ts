import type { BranchChangingEvent, CommandDefinition, ExtensionAPI, ExtensionContext, HostEntry, HostUI, ToolDefinition } from '../../../../extension/host';
import type { SessionJournal } from '$domain/journal/journal';
import { EventBus } from './eventBus';
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

  private constructor(
    private readonly host: HostServices,
    /** Where the extension came from, as the host names it in an extension error. */
    readonly path: string,
  ) {
    this.bus = new EventBus((channel, data) => host.emitted(channel, data));
  }

  static async load(factory: ExtensionFactory, host: HostServices, path = 'seed-desk.js'): Promise<ExtensionRuntime> {
    const runtime = new ExtensionRuntime(host, path);
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
      appendEntry: action((customType: string, data?: unknown) => this.host.appendCustom(customType, data)),
    };
  }

  /** Runs `/name args`; null when no extension registered `name`. */
  runCommand(name: string, args: string, answerer: DialogAnswerer = 'page'): Invocation | null {
    const command = this.commands.get(name);
    if (!command) return null;
    const invocation = new Invocation();
    return invocation.start(() => command.handler(args, this.context(invocation, answerer)));
  }

  /** Runs a registered tool's `execute` (after the host's checks); the run's value is its result. */
  runTool(name: string, toolCallId: string, params: unknown): Invocation | null {
    const tool = this.tools.get(name);
    if (!tool) return null;
    const invocation = new Invocation();
    return invocation.start(() => tool.definition.execute(toolCallId, params, undefined, undefined, this.context(invocation, 'cancel')));
  }

  /**
   * A session event, as the host fires it after the branch may have changed. Returns the errors
   * its handlers threw, in the host's words (`Extension "<path>" error: …`); each handler runs.
   */
  fire(event: BranchChangingEvent, payload: unknown): string[] {
    const ctx = this.context(new Invocation(), 'cancel');
    const errors: string[] = [];
    for (const handler of this.handlers.get(event) ?? []) {
      try {
        handler(payload, ctx);
      } catch (error) {
        errors.push(`Extension "${this.path}" error: ${error instanceof Error ? error.message : String(error)}`);
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
        const notice: Notice = { level: type, text: String(message), shown: hasUI };
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
