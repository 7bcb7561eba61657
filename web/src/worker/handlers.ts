import { asEntryId, asRevision, asSessionId } from '$domain/ids';
import type { RequestBody, RequestType, ResultOf } from '../protocol/messages';
import type { PlaygroundHost } from './host';

/** What a handler may use besides the host: import reports its progress while it runs. */
export interface HandlerContext {
  readonly progress: (phase: string, done: number, total: number) => void;
}

type BodyOf<T extends RequestType> = Extract<RequestBody, { type: T }>;

/** The schema's type, read-only all the way down: the domain hands out readonly arrays, and a handler only reads them. */
type Answer<T> = T extends (infer U)[] ? readonly Answer<U>[] : T extends Blob ? T : T extends object ? { readonly [K in keyof T]: Answer<T[K]> } : T;

/** One request type's handler: its answer is the protocol's result for that type, never `unknown`. */
export type Handler<T extends RequestType> = (host: PlaygroundHost, body: BodyOf<T>, context: HandlerContext) => Answer<ResultOf<T>> | Promise<Answer<ResultOf<T>>>;

/**
 * Every request the worker answers, one handler each. The map is typed from the protocol's
 * `ResultSchemas`, which also type the page's client, so a handler whose answer drifts from the
 * schema the page parses it with is a compile error, not a malformed-answer message at run time.
 */
export const HANDLERS: { readonly [T in RequestType]: Handler<T> } = {
  hello: () => null,
  line: (host, body) => host.runLine(body.text, body.headless ?? false),
  toolCall: (host, body) => host.callTool(body.args, body.skipSchema),
  answerApproval: (host, body) => host.answerApproval(body.callId, body.approved),
  setApprovalPolicy: (host, body) => (host.setApprovalPolicy(body.policy), null),
  setApprovalMode: (host, body) => (host.setApprovalMode(body.mode), null),
  corruptDemo: (host) => host.appendCorruptSnapshot(),
  commit: (host, body) => host.commitHumanChange(body.change, asRevision(body.expectedRevision)),
  meanwhileReserve: (host, body) => host.meanwhileReserve(body.id, body.packets),
  stepBack: (host) => (host.stepBack(), null),
  navigate: (host, body) => (host.navigate(asEntryId(body.entryId)), null),
  reopen: async (host) => (await host.reopen(), null),
  setInteractive: (host, body) => (host.setInteractive(body.interactive), null),
  injectFault: (host, body) => (host.injectFault(body.fault), null),
  journal: (host, body) => host.journalLines(body.filter),
  sessions: (host) => host.listSessions(),
  newSession: async (host) => (await host.newSession(), null),
  switchSession: async (host, body) => (await host.switchSession(asSessionId(body.sessionId)), null),
  forkSession: async (host) => (await host.forkSession(), null),
  exportSession: (host) => host.exportSession(),
  importSession: (host, body, context) => host.importSession(body.file, context.progress),
  tree: (host, body) => host.tree(body.filter),
  compare: (host, body) => host.compareWith(body.otherId === null ? null : asEntryId(body.otherId)),
};

/** Runs the one handler for `body.type`. */
export function handle<T extends RequestType>(host: PlaygroundHost, body: BodyOf<T>, context: HandlerContext): Promise<Answer<ResultOf<T>>> {
  // TypeScript cannot correlate `HANDLERS[body.type]` with `body` across the union; the map's type
  // above is what guarantees that each handler takes its own body and answers its own result.
  const handler = HANDLERS[body.type] as Handler<T>;
  return Promise.resolve(handler(host, body, context));
}
