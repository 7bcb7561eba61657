import { asEntryId, asSessionId } from '$domain/ids';
import type { DeepReadonly } from '../protocol/deepReadonly';
import type { RequestBody, RequestType, ResultOf } from '../protocol/messages';
import type { PlaygroundHost } from './playgroundHost';
import type { Watches } from './watches';

/**
 * The worker's request table: each request the page can send, handled through the host
 * (`PlaygroundHost`), one handler per type. worker.ts runs `handle` for every parsed request.
 */

/** What a handler may use besides the host: import reports its progress while it runs. */
export interface HandlerContext {
  readonly progress: (phase: string, done: number, total: number) => void;
  /** What the page watches; `hello`, `watch` and `unwatch` change it. */
  readonly watches: Watches;
}

type BodyOf<T extends RequestType> = Extract<RequestBody, { type: T }>;

/** One request type's handler: its answer is the protocol's result for that type, never `unknown`. */
export type Handler<T extends RequestType> = (host: PlaygroundHost, body: BodyOf<T>, context: HandlerContext) => DeepReadonly<ResultOf<T>> | Promise<DeepReadonly<ResultOf<T>>>;

/**
 * Every request the worker answers, one handler each. The map is typed from the protocol's
 * `ResultSchemas`, which also type the page's client, so a handler whose answer drifts from the
 * schema the page parses it with is a compile error, not a malformed-answer message at run time.
 */
export const HANDLERS: { readonly [T in RequestType]: Handler<T> } = {
  hello: (host, body, { watches }) => (watches.restart(body.watch, host.core), null),
  line: (host, body) => host.runLine(body.text, body.headless ?? false),
  toolCall: (host, body) => host.callTool(body.args, body.skipSchema, body.call),
  modelMessage: (host, body) => host.recordModelMessage(body.message),
  modelTools: (host) => host.modelTools(),
  // An agent run's start and end (omp/agentRun.ts, loaded then): the agent events fire around the turns recorded between them.
  agentStart: async (host, body) => (await import('./omp/agentRun')).startAgent(host.core, body.prompt, body.systemPrompt, body.model),
  agentEnd: async (host, body) => (await (await import('./omp/agentRun')).endAgent(host.core, body.summary), null),
  answerApproval: (host, body) => host.answerApproval(body.callId, body.approved),
  setApprovalPolicy: (host, body) => (host.setApprovalPolicy(body.policy), null),
  setApprovalMode: (host, body) => (host.setApprovalMode(body.mode), null),
  corruptDemo: (host, body) => host.appendCorruptSnapshot(body.then),
  answerUi: (host, body) => host.answerUi(body.answer),
  meanwhileReserve: (host, body) => host.meanwhileReserve(body.id, body.packets),
  stepBack: (host) => (host.stepBack(), { leafId: host.core.journal.leafId }),
  navigate: (host, body) => host.navigate(body.target),
  reopen: async (host) => (await host.reopen(), null),
  setInteractive: (host, body) => (host.setInteractive(body.interactive), null),
  injectFault: (host, body) => (host.injectFault(body.fault), null),
  watch: (host, body, { watches }) => (watches.watch(body.watch, host.core), null),
  unwatch: (_host, body, { watches }) => (watches.unwatch(body.topic), null),
  newSession: (host, body) => host.newSession(body.fresh === true),
  switchSession: (host, body) => host.switchSession(asSessionId(body.sessionId)),
  forkSession: (host, body) => host.forkSession(body.entryId === undefined ? undefined : asEntryId(body.entryId)),
  exportSession: (host) => host.exportSession(),
  importSession: (host, body, context) => host.importSession(body.file, context.progress),
  runEdited: (host, body, context) => host.runEdited(body.files, context.progress, body.from),
  restoreEdited: (host, _body, context) => host.restoreEdited(context.progress),
  useShipped: async (host) => (await host.useShipped(), null),
  storedEdits: (host) => host.storedEdits(),
  downloadEdited: (host, body) => host.downloadEdited(body.files),
  // Issue 37: the learner's own extension, alone on its own session (edit/ownExtension.ts, loaded then).
  runOwn: async (host, body, context) => (await own()).runOwn(host.core, body.files, body.start, context.progress),
  restoreOwn: async (host, _body, context) => (await own()).restoreOwn(host.core, context.progress),
  leaveOwn: async (host) => (await (await own()).leaveOwn(host.core, host.shipped), null),
  storedOwn: async (host) => (await own()).storedOwn(host.core),
  downloadOwn: async (_host, body) => (await own()).downloadOwn(body.files),
};

const own = () => import('./edit/ownExtension');

/** Runs the one handler for `body.type`. */
export async function handle<T extends RequestType>(host: PlaygroundHost, body: BodyOf<T>, context: HandlerContext): Promise<DeepReadonly<ResultOf<T>>> {
  // TypeScript cannot correlate `HANDLERS[body.type]` with `body` across the union; the map's type
  // above is what guarantees that each handler takes its own body and answers its own result.
  const handler = HANDLERS[body.type] as Handler<T>;
  return handler(host, body, context);
}
