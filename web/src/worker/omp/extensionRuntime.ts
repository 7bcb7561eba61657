import type { BranchChangingEvent, CommandDefinition, ExtensionAPI, ExtensionContext, ToolDefinition } from '../../../../extension/ompApi';
import { apiTableLoaded, isTableKey, refusalFor, withRefusals } from './apiRefusals';
import { normalizeCustomMessage, wouldTriggerTurn, type SendMessageOptions } from './customMessage';
import { EventBus } from './eventBus';
import { lazyMembers, lazyMembersLoaded } from './lazyMembers';
import type { ManagedTimers } from './managedTimers';
import type { EventHandler, HandlerSource } from './eventEmit';
import { Invocation } from './invocation';
import { runContext, type DialogAnswerer, type HostServices } from './runContext';
import { messageOf, PageHostError, type RunPolicy } from './runPolicy';
import { isZodSchema, jsonSchemaOf, loadZod, ZodNotLoaded, zodNow } from './zodSupport';

export { Invocation, type Asked, type Notice, type RunResult } from './invocation';

/** An extension module's default export, as the host loads it. */
export type ExtensionFactory = (pi: ExtensionAPI) => void | Promise<void>;

export type { DialogAnswerer, HostServices } from './runContext';

interface RegisteredTool {
  readonly definition: ToolDefinition<unknown>;
}

/**
 * The part of an OMP host that an extension talks to: `pi` for the factory (registrations, the
 * event bus, appendEntry, TypeBox's `Unsafe`), and a fresh `ctx` for each run of its code (ui,
 * hasUI, a read-only session manager over the journal). What extension code does is observed
 * per run (`Invocation`), so the worker can answer with what the host saw.
 */
export class ExtensionRuntime implements HandlerSource {
  readonly commands = new Map<string, CommandDefinition>();
  readonly tools = new Map<string, RegisteredTool>();
  readonly bus: EventBus;
  private readonly handlers = new Map<string, EventHandler[]>();
  /**
   * What the extension declared that the page keeps but does not act on yet (a subscription to an
   * event the page does not fire, a tool field it does not use), each as the API table's sentence.
   */
  readonly notActedOn: string[] = [];
  /** `pi.setLabel(label)`: the extension's display name, as OMP 18.2.3 keeps it. */
  label: string | null = null;
  /** `pi.setActiveTools`: the names a model is offered and may call; null until set (every registered tool). */
  private active: readonly string[] | null = null;
  /** Action methods throw while the factory runs, as the host's do. */
  private loading = true;
  /** `ctx.setTimeout`/`setInterval`: a callback's throw is the extension's error; cleared at `session_shutdown`. */
  readonly timers: ManagedTimers = new (lazyMembers().ManagedTimers)(
    () => this.policy?.newRun(),
    (_event, message) => this.host.notified({ level: 'error', text: `Extension "<timer>" error: ${message}`, shown: true }),
  );

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
    await Promise.all([apiTableLoaded(), lazyMembersLoaded()]);
    try {
      return await ExtensionRuntime.loadOnce(factory, host, path, policy);
    } catch (error) {
      // The factory read `pi.zod` before zod was here: fetch it, and run the factory again (zodSupport.ts).
      if (!(error instanceof ZodNotLoaded)) throw error;
      await loadZod();
      return ExtensionRuntime.loadOnce(factory, host, path, policy);
    }
  }

  private static async loadOnce(factory: ExtensionFactory, host: HostServices, path: string, policy: RunPolicy | null): Promise<ExtensionRuntime> {
    const runtime = new ExtensionRuntime(host, path, policy);
    await factory(runtime.api());
    runtime.loading = false;
    return runtime;
  }

  private api(): ExtensionAPI {
    const action = <A extends unknown[], R>(run: (...args: A) => R) => (...args: A): R => {
      if (this.loading) throw new Error('Extension runtime not initialized. Action methods cannot be called during extension loading.');
      return run(...args);
    };
    const api = {
      logger: withRefusals('pi.logger', lazyMembers().pageLogger()),
      typebox: { Type: typeboxType() },
      get zod() {
        return zodNow();
      },
      events: this.bus,
      on: (event: string, handler: EventHandler) => {
        const list = this.handlers.get(event) ?? [];
        list.push(handler);
        this.handlers.set(event, list);
        this.noteUnused(`pi.on("${String(event)}")`);
      },
      registerCommand: (name: string, command: CommandDefinition) => {
        this.commands.set(name, command);
        this.noteFields('command', command);
      },
      registerTool: (tool: ToolDefinition<unknown>) => {
        // zod parameters are kept as the JSON Schema the host checks calls against (zodSupport.ts).
        this.tools.set(tool.name, { definition: isZodSchema(tool.parameters) ? { ...tool, parameters: jsonSchemaOf(tool.parameters) } : tool });
        this.noteFields('tool', tool);
      },
      // OMP 18.2.3 names the extension with the first argument, whatever the second (loader.ts).
      setLabel: (label: string) => {
        this.label = String(label);
      },
      appendEntry: action((customType: string, data?: unknown) => this.append(customType, data)),
      sendMessage: action((message: unknown, options?: SendMessageOptions) => this.sendMessage(message, options)),
      getActiveTools: action(() => this.activeToolNames()),
      getAllTools: action(() => [...this.tools.values()].map(({ definition }) => toolInfo(definition))),
      setActiveTools: action(async (names: readonly string[]) => this.setActiveTools(names)),
      // get-commands-handler.ts: an extension's commands as `source: "extension"` (the page has no prompt commands or skills).
      getCommands: action(() => [...this.commands].map(([name, command]) => ({ name, description: command.description, source: 'extension' }))),
      // The page names no session (OMP's name comes from /rename, setSessionName or a generated title): undefined, as an unnamed session's.
      getSessionName: action((): string | undefined => undefined),
    };
    return withRefusals('pi', api);
  }

  private noteUnused(key: string): void {
    const sentence = refusalFor(key);
    if (sentence !== null) this.notActedOn.push(sentence);
  }

  /** A registration's fields that OMP declares and the page does not act on (a field OMP does not declare is ignored, as there). */
  private noteFields(prefix: 'tool' | 'command', definition: object): void {
    for (const field of Object.keys(definition)) {
      const key = [`${prefix}.${field}`, `${prefix}.${field}()`].find(isTableKey);
      if (key !== undefined) this.noteUnused(key);
    }
  }

  /** An append reaches the journal unless the policy refuses it (past its cap, it throws). */
  private append(customType: string, data: unknown): void {
    this.policy?.beforeAppend();
    this.host.appendCustom(customType, data);
  }

  /**
   * `pi.sendMessage`: the custom message under the leaf, as OMP records it when idle. Where OMP
   * would start a turn too, the page says in the events panel that it started none.
   */
  private sendMessage(message: unknown, options: SendMessageOptions | undefined): void {
    this.policy?.beforeAppend();
    this.host.appendCustomMessage(normalizeCustomMessage(message));
    if (wouldTriggerTurn(options)) {
      this.host.notified({ level: 'info', text: 'The extension\'s message is recorded; OMP would start a model turn for it (triggerTurn), the page starts none: ask the agent or the model yourself.', shown: true });
    }
  }

  /** The tools a model is offered and may call, in the order `setActiveTools` gave (registration order until then). */
  activeToolNames(): string[] {
    return this.active === null ? [...this.tools.keys()] : this.active.filter((name) => this.tools.has(name));
  }

  /** Whether a call of `name` reaches its tool: a tool made inactive is "not found", as OMP's agent loop answers. */
  isActiveTool(name: string): boolean {
    return this.tools.has(name) && (this.active === null || this.active.includes(name));
  }

  /** OMP's `setActiveToolsByName`: names absent from the registry are ignored. */
  private setActiveTools(names: readonly string[]): void {
    if (!Array.isArray(names)) throw new PageHostError('pi.setActiveTools takes an array of tool names.');
    this.active = [...new Set(names.map(String))].filter((name) => this.tools.has(name));
  }

  /** Runs `/name args`; null when no extension registered `name`. */
  runCommand(name: string, args: string, answerer: DialogAnswerer = 'page'): Invocation | null {
    const command = this.commands.get(name);
    if (!command) return null;
    const what = `/${name} handler`;
    const invocation = this.invocation(what);
    return invocation.start(this.reported(what, () => command.handler(args, this.context(invocation, answerer, true))));
  }

  /** Runs a registered tool's `execute` (after the host's checks), with `onUpdate` for its partial results; the run's value is its result. */
  runTool(name: string, toolCallId: string, params: unknown, onUpdate?: (partial: unknown) => void): Invocation | null {
    const tool = this.tools.get(name);
    if (!tool) return null;
    const what = `${name} tool's execute`;
    const invocation = this.invocation(what);
    return invocation.start(this.reported(what, () => tool.definition.execute(toolCallId, params, undefined, onUpdate, this.context(invocation, 'cancel'))));
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

  // ── HandlerSource: how eventEmit.ts runs the handlers of an event whose results the host reads ──

  handlersOf(event: string): readonly EventHandler[] {
    return this.handlers.get(event) ?? [];
  }

  /**
   * One ctx per emit, as OMP's runner makes one. A session change's before-event (`run`) asks the
   * page, which shows its dialogs as a command's; any other event's dialog answers as cancelled
   * (the page has no dialog to show it in during a turn).
   */
  eventContext(run?: Invocation): ExtensionContext {
    this.policy?.newRun();
    return run ? this.context(run, 'page') : this.context(new Invocation(), 'cancel');
  }

  handlerFailed(event: string, error: string): void {
    this.policy?.threw(`${event} handler`, new Error(error));
    this.host.notified({ level: 'error', text: `Extension "${this.path}" error: ${error}`, shown: true });
  }

  private context(invocation: Invocation, answerer: DialogAnswerer, command = false): ExtensionContext {
    return runContext({ host: this.host, policy: this.policy, invocation, answerer, command, timers: this.timers });
  }
}

/**
 * `pi.getAllTools()`'s entry, as OMP's `getAllToolInfos` builds one for an extension tool. The page
 * loads an extension from no file, so its `sourceInfo.path` is the synthetic `<extension:name>` OMP
 * gives a tool without a file path.
 */
function toolInfo(definition: ToolDefinition<unknown>) {
  const sourceInfo = { path: `<extension:${definition.name}>`, source: 'extension', scope: 'temporary', origin: 'top-level' };
  return { name: definition.name, description: definition.description, parameters: structuredClone(definition.parameters), sourceInfo };
}

/**
 * The host's TypeBox shim. `Unsafe` keeps the JSON Schema it is given (a copy), and the tool
 * registry checks calls against exactly that document; any other builder (`Type.Object`, …) is not
 * in the page yet, and reading it throws a sentence that names it instead of `undefined`.
 */
function typeboxType(): { Unsafe(schema: Record<string, unknown>): object } {
  const known = { Unsafe: (schema: Record<string, unknown>) => structuredClone(schema) };
  return new Proxy(known, {
    get(target, name, receiver) {
      if (typeof name === 'string' && /^[A-Z]/.test(name) && !(name in target)) {
        throw new PageHostError(`pi.typebox.Type.${name} is not in the page's host yet: write the parameters as JSON Schema and pass them to pi.typebox.Type.Unsafe.`);
      }
      return Reflect.get(target, name, receiver) as unknown;
    },
  });
}
