import { asEntryId, asSessionId } from '$domain/ids';
import type { DeepReadonly } from '../protocol/deepReadonly';
import type { RequestBody, RequestType, ResultOf } from '../protocol/messages';
import type { PlaygroundHost } from './playgroundHost';
import type { Watches } from './watches';

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
  toolCall: (host, body) => host.callTool(body.args, body.skipSchema),
  answerApproval: (host, body) => host.answerApproval(body.callId, body.approved),
  setApprovalPolicy: (host, body) => (host.setApprovalPolicy(body.policy), null),
  setApprovalMode: (host, body) => (host.setApprovalMode(body.mode), null),
  corruptDemo: (host, body) => host.appendCorruptSnapshot(body.then),
  answerUi: (host, body) => host.answerUi(body.answer),
  meanwhileReserve: (host, body) => host.meanwhileReserve(body.id, body.packets),
  stepBack: (host) => (host.stepBack(), { leafId: host.core.journal.leafId }),
  navigate: (host, body) => (host.navigate(body.target), null),
  reopen: async (host) => (await host.reopen(), null),
  setInteractive: (host, body) => (host.setInteractive(body.interactive), null),
  injectFault: (host, body) => (host.injectFault(body.fault), null),
  watch: (host, body, { watches }) => (watches.watch(body.watch, host.core), null),
  unwatch: (_host, body, { watches }) => (watches.unwatch(body.topic), null),
  newSession: async (host, body) => (await host.newSession(body.fresh === true), null),
  switchSession: async (host, body) => (await host.switchSession(asSessionId(body.sessionId)), null),
  forkSession: async (host, body) => (await host.forkSession(body.entryId === undefined ? undefined : asEntryId(body.entryId)), null),
  exportSession: (host) => host.exportSession(),
  importSession: (host, body, context) => host.importSession(body.file, context.progress),
  runEdited: (host, body, context) => host.runEdited(body.files, context.progress),
  restoreEdited: (host, _body, context) => host.restoreEdited(context.progress),
  useShipped: async (host) => (await host.useShipped(), null),
  storedEdits: (host) => host.storedEdits(),
  downloadEdited: (host, body) => host.downloadEdited(body.files),
};

/** Runs the one handler for `body.type`. */
export async function handle<T extends RequestType>(host: PlaygroundHost, body: BodyOf<T>, context: HandlerContext): Promise<DeepReadonly<ResultOf<T>>> {
  // TypeScript cannot correlate `HANDLERS[body.type]` with `body` across the union; the map's type
  // above is what guarantees that each handler takes its own body and answers its own result.
  const handler = HANDLERS[body.type] as Handler<T>;
  return handler(host, body, context);
}
