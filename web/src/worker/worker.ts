/// <reference lib="webworker" />
import { asEntryId, asRevision, asSessionId, cryptoIdSource } from '$domain/ids';
import { EntryBaseSchema, type JournalEntry } from '$domain/journal/entry';
import { BROADCAST_CHANNEL, BroadcastSchema, RequestSchema, type Broadcast, type RequestBody, type WorkerMessage } from '../protocol/messages';
import { PlaygroundHost } from './host';
import { JournalStore } from './store';

/**
 * The worker owns all state and all writes. Requests run strictly one after another, so a commit
 * never interleaves with a navigation or another commit from this tab. Other tabs' appends
 * arrive over a BroadcastChannel and join the tree; this tab's leaf stays put.
 */
const channel = new BroadcastChannel(BROADCAST_CHANNEL);

let lostBeforeStart: string | null = null;
let onLost = (reason: string) => {
  lostBeforeStart = reason;
};

const ready = (async () => {
  const store = await JournalStore.open(undefined, {
    onLost: (reason) => onLost(reason),
    onBlocked: () => post({ kind: 'notice', text: 'Waiting for another tab of the playground to let go of its database…' }),
  });
  const host = await PlaygroundHost.start(store, cryptoIdSource);
  onLost = (reason) => {
    host.storageLost(reason);
    post({ kind: 'push', view: host.view(), reason: 'lost' });
  };
  if (lostBeforeStart) onLost(lostBeforeStart);
  host.onAppended = (sessionId, entries) => announce({ type: 'appended', sessionId, entries: [...entries] });
  host.onSessionsChanged = () => announce({ type: 'sessions-changed' });
  return host;
})();

let queue: Promise<unknown> = Promise.resolve();

/** Runs `work` after everything already queued: one request (or broadcast) at a time. */
function enqueue(work: () => Promise<void>): void {
  queue = queue.then(work, work);
}

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = RequestSchema.safeParse(event.data);
  if (!parsed.success) {
    const id = typeof event.data === 'object' && event.data !== null && 'id' in event.data ? Number(event.data.id) : -1;
    post({ kind: 'response', id, ok: false, error: `The worker could not read this request: ${parsed.error.issues[0]?.message ?? 'invalid'}`, view: null });
    return;
  }
  const { id, body } = parsed.data;
  enqueue(async () => {
    let host: PlaygroundHost | null = null;
    try {
      host = await ready;
      const result = await handle(host, id, body);
      post({ kind: 'response', id, ok: true, result, view: host.view() });
    } catch (error) {
      post({ kind: 'response', id, ok: false, error: error instanceof Error ? error.message : String(error), view: host?.view() ?? null });
    }
  });
});

channel.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = BroadcastSchema.safeParse(event.data);
  if (!parsed.success) return; // Not ours, or from an incompatible version of the page: ignore.
  const message = parsed.data;
  enqueue(async () => {
    const host = await ready;
    if (message.type === 'sessions-changed') {
      post({ kind: 'push', view: host.view(), reason: 'sessions' });
      return;
    }
    const entries: JournalEntry[] = [];
    for (const raw of message.entries) {
      const entry = EntryBaseSchema.safeParse(raw);
      if (entry.success) entries.push(entry.data as JournalEntry);
    }
    if (host.adoptForeign(message.sessionId, entries)) post({ kind: 'push', view: host.view(), reason: 'foreign' });
  });
});

function announce(message: Broadcast): void {
  channel.postMessage(message);
}

function post(message: WorkerMessage): void {
  self.postMessage(message);
}

async function handle(host: PlaygroundHost, id: number, body: RequestBody): Promise<unknown> {
  switch (body.type) {
    case 'hello':
      return null;
    case 'line':
      return host.runLine(body.text, body.headless ?? false);
    case 'toolCall':
      return host.callTool(body.args, body.skipSchema);
    case 'answerApproval':
      return host.answerApproval(body.callId, body.approved);
    case 'setApprovalPolicy':
      host.setApprovalPolicy(body.policy);
      return null;
    case 'setApprovalMode':
      host.setApprovalMode(body.mode);
      return null;
    case 'corruptDemo':
      return host.appendCorruptSnapshot();
    case 'commit':
      return host.commitHumanChange(body.change, asRevision(body.expectedRevision));
    case 'meanwhileReserve':
      return host.meanwhileReserve(body.id, body.packets);
    case 'stepBack':
      host.stepBack();
      return null;
    case 'navigate':
      host.navigate(asEntryId(body.entryId));
      return null;
    case 'reopen':
      await host.reopen();
      return null;
    case 'setInteractive':
      host.setInteractive(body.interactive);
      return null;
    case 'injectFault':
      host.injectFault(body.fault);
      return null;
    case 'journal':
      return host.journalLines(body.filter);
    case 'sessions':
      return host.listSessions();
    case 'newSession':
      await host.newSession();
      return null;
    case 'switchSession':
      await host.switchSession(asSessionId(body.sessionId));
      return null;
    case 'forkSession':
      await host.forkSession();
      return null;
    case 'exportSession':
      return host.exportSession();
    case 'importSession':
      return host.importSession(body.file, (phase, done, total) => post({ kind: 'progress', id, phase, done, total }));
    case 'tree':
      return host.tree(body.filter);
    case 'compare':
      return host.compareWith(body.otherId === null ? null : asEntryId(body.otherId));
  }
}
