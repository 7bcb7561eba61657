/**
 * A connection for the page's feature tests: the real `Connection` (the one the features are
 * typed against, delivering what changed exactly as on the page: the view first, then each topic,
 * then the push listeners, all before the request's promise settles), with a scripted worker at
 * its other end instead of the worker's host.
 *
 * The worker records every request the page sends (checked against the protocol's schema, as the
 * real worker reads it), answers each with the result the test scripted for its type (typed by
 * `ResultOf`; the page parses it with the protocol's schemas, so a reply the real worker could not
 * send fails the test), holds the ones the test wants to answer by hand, and says what the real
 * worker says unasked: pushes, notices, progress, and answers to probes and heartbeats.
 */
import { FIXTURE } from '$domain/fixture';
import {
  ProbeSchema,
  RequestSchema,
  ResultSchemas,
  type BranchItem,
  type Changes,
  type EventLogItem,
  type HostView,
  type RequestBody,
  type RequestType,
  type RequestWait,
  type ResultOf,
  type SessionSummary,
  type ToolCallOutcome,
  type ToolDetailsView,
  type TopicUpdate,
  type Watch,
  type WorkerMessage,
} from '../protocol/messages';
import { Connection } from './connection.svelte';
import type { ChangeCause, WorkerLike } from './workerClient';

export type BodyOf<T extends RequestType> = Extract<RequestBody, { type: T }>;

/** What the worker answers one request with: its result and what changed, or a failure (which may carry what changed). */
export type Reply<T extends RequestType> = { readonly result: ResultOf<T>; readonly changes?: Changes } | { readonly error: string; readonly changes?: Changes | null };

/** How every request of one type is answered: one reply, a reply made from the request, or `'hold'`: the test answers it with `answer`. */
export type Answerer<T extends RequestType> = Reply<T> | 'hold' | ((body: BodyOf<T>) => Reply<T> | 'hold');

/** A reply once its type is no longer known: what the worker posts. */
type AnyReply = { readonly result: unknown; readonly changes?: Changes } | { readonly error: string; readonly changes?: Changes | null };

interface Sent {
  readonly id: number;
  readonly body: RequestBody;
}

type Listener = EventListenerOrEventListenerObject | ((event: MessageEvent<unknown>) => void);

const NO_CHANGES: Changes = { updates: [] };

function isOfType<T extends RequestType>(body: RequestBody, type: T): body is BodyOf<T> {
  return body.type === type;
}

/** Scripts shared by every worker one test makes (a restarted worker answers as the one it replaces). */
class Script {
  private readonly answerers = new Map<RequestType, (body: RequestBody) => AnyReply | 'hold'>();

  set<T extends RequestType>(type: T, answerer: Answerer<T>): void {
    this.answerers.set(type, (body) => {
      if (!isOfType(body, type)) throw new Error(`A "${body.type}" request reached the script for "${type}".`);
      return typeof answerer === 'function' ? answerer(body) : answerer;
    });
  }

  /** The scripted reply; unscripted, a request whose result may be null gets null (as `watch`, `navigate`…), any other fails loudly. */
  replyTo(body: RequestBody): AnyReply | 'hold' {
    const answerer = this.answerers.get(body.type);
    if (answerer) return answerer(body);
    // Unscripted, a run starts as the worker starts it when no extension handles `input` or `before_agent_start`: as sent.
    if (isOfType(body, 'agentStart')) return { result: { kind: 'started', prompt: body.prompt, systemPrompt: body.systemPrompt } };
    if (ResultSchemas[body.type].safeParse(null).success) return { result: null };
    return { error: `The fake worker has no answer scripted for "${body.type}".` };
  }
}

/**
 * One scripted worker. Scripted requests are answered a microtask after they are posted (a worker
 * answers later, never inside `postMessage`); what the test makes the worker say (`answer`, `push`,
 * `progress`, `notice`) arrives at once. A real worker's answer is a task of its own, after every
 * microtask the page has queued: where that order matters (a request rejected by a restart, then
 * the new worker's answer), hold the request and answer it when the page is done.
 */
export class ScriptedWorker implements WorkerLike {
  /** Every request the page sent this worker, in order. */
  readonly requests: Sent[] = [];
  /** Probes the page sent: the id of a request it asks about, 0 for the watchdog's heartbeat. */
  readonly probes: number[] = [];
  terminated = false;
  /** False while the worker's thread is held (the learner's code in a loop): it answers nothing, not even a probe. */
  responsive = true;
  private readonly held: Sent[] = [];
  private readonly listeners: Listener[] = [];
  private readonly heldWaiters: { readonly type: RequestType; readonly found: (sent: Sent) => void }[] = [];

  constructor(private readonly script: Script) {}

  postMessage(message: unknown): void {
    if (this.terminated) return;
    // What crosses to a worker is a structured clone: the page keeps nothing shared with it.
    const data: unknown = structuredClone(message);
    const probe = ProbeSchema.safeParse(data);
    if (probe.success) {
      this.probes.push(probe.data.probe);
      // The real worker answers a probe at once, outside its queue: what the request waits for (work, or done).
      const id = probe.data.probe;
      if (this.responsive) queueMicrotask(() => this.say({ kind: 'waiting', id, on: this.isHeld(id) ? 'work' : 'done' }));
      return;
    }
    const sent = RequestSchema.parse(data);
    this.requests.push(sent);
    const reply = this.script.replyTo(sent.body);
    if (reply === 'hold') {
      this.held.push(sent);
      for (const waiter of this.heldWaiters.filter((item) => item.type === sent.body.type)) {
        this.heldWaiters.splice(this.heldWaiters.indexOf(waiter), 1);
        waiter.found(sent);
      }
      return;
    }
    queueMicrotask(() => this.respond(sent.id, reply));
  }

  addEventListener(type: string, listener: Listener): void {
    // The client listens for `message` and `error`; this worker never fails on its own.
    if (type === 'message') this.listeners.push(listener);
  }

  terminate(): void {
    this.terminated = true;
  }

  /** The bodies of the requests sent to this worker, of one type or all. */
  sent<T extends RequestType>(type: T): BodyOf<T>[];
  sent(): RequestBody[];
  sent(type?: RequestType): RequestBody[] {
    return this.requests.map((request) => request.body).filter((body) => type === undefined || body.type === type);
  }

  /** The oldest held request of this type, once there is one (at once when it was already sent). */
  whenHeld<T extends RequestType>(type: T): Promise<BodyOf<T>> {
    return new Promise((resolve) => {
      const found = (sent: Sent) => {
        if (isOfType(sent.body, type)) resolve(sent.body);
      };
      const waiting = this.held.find((sent) => sent.body.type === type);
      if (waiting) found(waiting);
      else this.heldWaiters.push({ type, found });
    });
  }

  /** Answers the oldest held request of this type; returns what it asked. */
  answer<T extends RequestType>(type: T, reply: Reply<T>): BodyOf<T> {
    const sent = this.takeHeld(type);
    if (!isOfType(sent.body, type)) throw new Error(`Held request ${sent.id} is not a "${type}".`);
    this.respond(sent.id, reply);
    return sent.body;
  }

  /** Progress of the oldest held request of this type (an import's phases, a compile's `load`). */
  progress(type: RequestType, phase: string, done: number, total: number): void {
    const sent = this.held.find((item) => item.body.type === type);
    if (!sent) throw new Error(`No "${type}" request is held.`);
    this.say({ kind: 'progress', id: sent.id, phase, done, total });
  }

  /** What changed without a request of this page: another tab's append, the session list, lost storage, the rest of an answer. */
  push(changes: Changes, reason: Exclude<ChangeCause, 'answer'>): void {
    this.say({ kind: 'push', changes, reason });
  }

  /** What the worker says while it cannot answer yet (a blocked open). */
  notice(text: string): void {
    this.say({ kind: 'notice', text });
  }

  /** The answer to a probe the page sent about a request: what it waits for. */
  waiting(type: RequestType, on: RequestWait): void {
    const sent = this.held.find((item) => item.body.type === type);
    if (!sent) throw new Error(`No "${type}" request is held.`);
    this.say({ kind: 'waiting', id: sent.id, on });
  }

  private isHeld(id: number): boolean {
    return this.held.some((sent) => sent.id === id);
  }

  private takeHeld(type: RequestType): Sent {
    const index = this.held.findIndex((sent) => sent.body.type === type);
    const sent = this.held[index];
    if (!sent) throw new Error(`No "${type}" request is held (held: ${this.held.map((item) => item.body.type).join(', ') || 'none'}).`);
    this.held.splice(index, 1);
    return sent;
  }

  private respond(id: number, reply: AnyReply): void {
    if ('error' in reply) this.say({ kind: 'response', id, ok: false, error: reply.error, changes: reply.changes ?? null });
    else this.say({ kind: 'response', id, ok: true, result: reply.result, changes: reply.changes ?? NO_CHANGES });
  }

  private say(message: WorkerMessage): void {
    if (this.terminated) return;
    const event = new MessageEvent('message', { data: structuredClone(message) });
    for (const listener of [...this.listeners]) {
      if (typeof listener === 'function') listener(event);
      else listener.handleEvent(event);
    }
  }
}

/**
 * The worker side of the page: every worker the page makes (the first, and those the watchdog
 * starts in place of a hung one), sharing one script. Hand `makeWorker` to what makes its own
 * connection (the Playground a tutorial or agent runner drives); a feature takes a `FakeConnection`'s.
 */
export class FakeWorkers {
  readonly workers: ScriptedWorker[] = [];
  private readonly script = new Script();

  /** Makes the next worker, as `new Worker(…)` would. */
  readonly makeWorker = (): Worker => {
    const worker = new ScriptedWorker(this.script);
    this.workers.push(worker);
    // The one cast of the feature tests: the page's code is typed with the browser's Worker, of
    // which the client uses only `WorkerLike` (postMessage, addEventListener, terminate), all here.
    return worker as unknown as Worker;
  };

  /** The newest worker (the one the page talks to). */
  get worker(): ScriptedWorker {
    const worker = this.workers.at(-1);
    if (!worker) throw new Error('No worker has been made yet.');
    return worker;
  }

  /** How every request of this type is answered from now on, by every worker. */
  answerWith<T extends RequestType>(type: T, answerer: Answerer<T>): this {
    this.script.set(type, answerer);
    return this;
  }

  /** Requests of this type wait until the test answers them (`worker.answer`). */
  hold(type: RequestType): this {
    this.script.set(type, 'hold');
    return this;
  }

  /** Every request the page sent, to every worker, in order. */
  sent(): RequestBody[] {
    return this.workers.flatMap((worker) => worker.sent());
  }

  /** The requests of one type the page sent, in order. */
  sentOf<T extends RequestType>(type: T): BodyOf<T>[] {
    return this.workers.flatMap((worker) => worker.sent(type));
  }

  /** The request types the page sent, in order: what a feature did, at a glance. */
  sentTypes(): RequestType[] {
    return this.sent().map((body) => body.type);
  }
}

/** A `Connection` on scripted workers: what a feature is given in its test. */
export class FakeConnection extends FakeWorkers {
  readonly connection: Connection;

  /** `restartable`: the connection gets a function that makes workers, as the page's does, so its watchdog can replace a hung one. */
  constructor(options: { readonly restartable?: boolean } = {}) {
    super();
    this.connection = new Connection(options.restartable ? this.makeWorker : this.makeWorker());
  }

  /** The page's first message: the session opens with this view and these updates to what it watches. */
  async open(view: HostView = hostView(), updates: readonly TopicUpdate[] = [], watch: readonly Watch[] = []): Promise<void> {
    this.answerWith('hello', { result: null, changes: { view, updates: [...updates] } });
    await this.connection.call({ type: 'hello', watch: [...watch] });
  }
}

/** A view of the starting desk (nothing reserved, agent off, shipped extension), with these fields changed. */
export function hostView(overrides: Partial<HostView> = {}): HostView {
  return {
    sessionId: 'session-1',
    entryCount: 1,
    leafId: 'entry-1',
    revision: 'session-1:root',
    corrupt: null,
    rows: FIXTURE.map((item) => ({ id: item.id, name: item.name, family: item.family, packets: item.packets, reserved: 0, available: item.packets })),
    agentEnabled: false,
    status: 'agent off',
    interactive: true,
    writeFailure: null,
    notice: null,
    transientLeaf: false,
    leafBehind: null,
    approvalPolicy: null,
    approvalMode: 'yolo',
    hostFileWritten: false,
    pendingApproval: null,
    seedDeskEntryCount: 0,
    ...overrides,
  };
}

/** What changed: a new view, and/or updates to watched topics. */
export function changed(view: HostView | null, ...updates: TopicUpdate[]): Changes {
  return view === null ? { updates } : { view, updates };
}

export function sessionSummary(id: string, overrides: Partial<SessionSummary> = {}): SessionSummary {
  return { id, title: null, parentSession: null, createdAt: '2026-05-01T12:00:00.000Z', entryCount: 1, current: false, ...overrides };
}

export function branchItem(id: string, text: string): BranchItem {
  return { id, type: 'message', role: 'user', text, label: null, revision: null, modelVisible: true };
}

export function eventItem(seq: number, text: string): EventLogItem {
  return { kind: 'notification', seq, level: 'info', text };
}

/** A seed_desk result that reached the domain. */
export function toolResult(text: string, details: ToolDetailsView | null, callId = 'call-1'): Extract<ToolCallOutcome, { kind: 'result' }> {
  return { kind: 'result', callId, stage: 'domain', isError: false, text, details };
}
