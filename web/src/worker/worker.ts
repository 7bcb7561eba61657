/// <reference lib="webworker" />
import { cryptoIdSource } from '$domain/ids';
import { EntryBaseSchema, type JournalEntry } from '$domain/journal/entry';
import { BROADCAST_CHANNEL, BroadcastSchema, ProbeSchema, RequestSchema, type Broadcast, type RequestWait, type Topic, type WorkerMessage } from '../protocol/messages';
import type { DeepReadonly } from '../protocol/deepReadonly';
import { handle } from './requestHandlers';
import { PlaygroundHost } from './playgroundHost';
import { JournalStore } from './store';
import { Watches } from './watches';

/**
 * The worker owns all state and all writes. Requests run strictly one after another, so a commit
 * never interleaves with a navigation or another commit from this tab. Every answer carries what
 * changed for the page (its view and the topics it watches); other tabs' appends arrive over a
 * BroadcastChannel, join the tree (this tab's leaf stays put) and reach the page as a push.
 */
// Without BroadcastChannel (the page says two tabs are not supported there) this tab works alone.
const channel = typeof BroadcastChannel === 'function' ? new BroadcastChannel(BROADCAST_CHANNEL) : null;
const watches = new Watches();
// Taken now: while the learner's edited extension is loaded, the global is a stub that refuses it (edit/guards.ts).
const postToPage = self.postMessage.bind(self);

let lostBeforeStart: string | null = null;
let onLost = (reason: string) => {
  lostBeforeStart = reason;
};

/** The request running now and what it waits for; the highest id started (ids only grow). */
let running: { id: number; on: RequestWait } | null = null;
let lastStarted = 0;

function waitOf(id: number): RequestWait {
  if (running?.id === id) return running.on;
  return id > lastStarted ? 'queue' : 'done';
}

const ready = (async () => {
  const store = await JournalStore.open(undefined, {
    onLost: (reason) => onLost(reason),
    onWait: (on) => {
      if (running) running.on = on ?? 'work';
    },
    onBlocked: () => post({ kind: 'notice', text: 'Waiting for another tab of the playground to let go of its database…' }),
  });
  const host = await PlaygroundHost.start(store, cryptoIdSource, { fromHead: true });
  onLost = (reason) => {
    host.storageLost(reason);
    enqueue(async () => post({ kind: 'push', changes: await watches.changes(host.core), reason: 'lost' }));
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
  // A probe is answered at once, outside the queue: the page asks because something in it waits.
  // Which schema reads a message is decided by its one key (`probe`), so each message is parsed
  // once: a request tried as a probe first failed a parse, and built its error, every time.
  const probe = isProbe(event.data) ? ProbeSchema.safeParse(event.data) : null;
  if (probe?.success) {
    post({ kind: 'waiting', id: probe.data.probe, on: waitOf(probe.data.probe) });
    return;
  }
  const parsed = RequestSchema.safeParse(event.data);
  if (!parsed.success) {
    const id = typeof event.data === 'object' && event.data !== null && 'id' in event.data ? Number(event.data.id) : -1;
    post({ kind: 'response', id, ok: false, error: `The worker could not read this request: ${parsed.error.issues[0]?.message ?? 'invalid'}`, changes: null });
    return;
  }
  const { id, body } = parsed.data;
  enqueue(async () => {
    let host: PlaygroundHost | null = null;
    // Until the store is open, the wait is IndexedDB's (another tab may block the open).
    running = { id, on: 'store' };
    lastStarted = Math.max(lastStarted, id);
    try {
      host = await ready;
      running.on = 'work';
      // Only the first view may come from the stored head; everything else needs the whole journal.
      if (body.type !== 'hello') await host.finishOpening();
      const context = { watches, progress: (phase: string, done: number, total: number) => post({ kind: 'progress', id, phase, done, total }) };
      const result = await handle(host, body, context);
      const later = body.type in GRAPH_FOLLOWS ? GRAPH : undefined;
      post({ kind: 'response', id, ok: true, result, changes: await watches.changes(host.core, later) });
      if (body.type === 'hello') enqueue(() => finishOpening(host as PlaygroundHost));
      if (later) enqueue(() => pushRest(host as PlaygroundHost));
    } catch (error) {
      const changes = host ? await watches.changes(host.core).catch(() => null) : null;
      post({ kind: 'response', id, ok: false, error: error instanceof Error ? error.message : String(error), changes });
    } finally {
      running = null;
    }
  });
});

/** A message that says it is a probe (ProbeSchema still judges it); a request has no `probe` key. */
function isProbe(data: unknown): boolean {
  return typeof data === 'object' && data !== null && 'probe' in data;
}

/**
 * Requests whose answer does not wait for the graph: it follows at once, as a push. Those that put
 * another session in front of the page, because at 100k entries the layout and its message take
 * about a second and the learner should not wait for a drawing to learn that an import or a switch
 * is done; and those that change the desk, because the desk and the revision are what the learner
 * watches after a Confirm, and the graph's rows cost about a third of the commit's round trip
 * (bench: Confirm → desk 7.7 → 4.9–6.2 ms).
 */
const GRAPH_FOLLOWS = {
  importSession: true,
  switchSession: true,
  forkSession: true,
  reopen: true,
  answerUi: true,
  toolCall: true,
  answerApproval: true,
  meanwhileReserve: true,
  runOwn: true,
  restoreOwn: true,
  leaveOwn: true,
} as const;
const GRAPH: ReadonlySet<Topic> = new Set<Topic>(['graph']);

/** What an answer left for later (see GRAPH_FOLLOWS), as a push right after it. */
async function pushRest(host: PlaygroundHost): Promise<void> {
  const changes = await watches.changes(host.core);
  if (changes.view || changes.updates.length > 0) post({ kind: 'push', changes, reason: 'rest' });
}

/** After the first view: the whole journal, then what it changed for the page (conversation, graph, counts). */
async function finishOpening(host: PlaygroundHost): Promise<void> {
  try {
    await host.finishOpening();
  } catch (error) {
    post({ kind: 'notice', text: `The session could not be read: ${error instanceof Error ? error.message : String(error)}` });
    return;
  }
  const changes = await watches.changes(host.core);
  if (changes.view || changes.updates.length > 0) post({ kind: 'push', changes, reason: 'sessions' });
}

channel?.addEventListener('message', (event: MessageEvent<unknown>) => {
  const parsed = BroadcastSchema.safeParse(event.data);
  if (!parsed.success) return; // Not ours, or from an incompatible version of the page: ignore.
  const message = parsed.data;
  enqueue(async () => {
    const host = await ready;
    await host.finishOpening();
    if (message.type === 'sessions-changed') {
      host.noteSessionsChanged();
      const changes = await watches.changes(host.core);
      if (changes.view || changes.updates.length > 0) post({ kind: 'push', changes, reason: 'sessions' });
      return;
    }
    const entries: JournalEntry[] = [];
    for (const raw of message.entries) {
      const entry = EntryBaseSchema.safeParse(raw);
      if (entry.success) entries.push(entry.data as JournalEntry);
    }
    if (host.adoptForeign(message.sessionId, entries)) post({ kind: 'push', changes: await watches.changes(host.core), reason: 'foreign' });
  });
});

/**
 * What this tab tells the others goes after the answer it belongs to: the learner waits for the
 * answer, the other tabs for nothing (the store already holds what they are told of). The
 * BroadcastChannel's clone and post sat between the commit and the answer (issue 38's profile).
 */
const announcements: Broadcast[] = [];
let announcing: ReturnType<typeof setTimeout> | null = null;

function announce(message: Broadcast): void {
  announcements.push(message);
  // A change that no answer follows (none is due) is told after this task all the same.
  announcing ??= setTimeout(tellOtherTabs, 0);
}

function tellOtherTabs(): void {
  if (announcing !== null) clearTimeout(announcing);
  announcing = null;
  for (const message of announcements.splice(0)) channel?.postMessage(message);
}

function post(message: DeepReadonly<WorkerMessage>): void {
  postToPage(message);
  if (message.kind === 'response' && announcements.length > 0) tellOtherTabs();
}
