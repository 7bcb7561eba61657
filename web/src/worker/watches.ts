import equal from 'fast-deep-equal';
import { asEntryId, type EntryId } from '$domain/ids';
import type { JournalEntry } from '$domain/journal/entry';
import type { GraphRow } from '$domain/journal/graphRow';
import type { SessionJournal } from '$domain/journal/journal';
import type { DeepReadonly } from '../protocol/deepReadonly';
import { columnsOf } from '../protocol/graphColumns';
import type { Changes, HostView, Topic, TopicUpdate, Watch } from '../protocol/messages';
import type { HostCore } from './hostCore';
import { branchItem, branchItems, comparison, graphRows, hostView, JournalLines, resolveTarget } from './projections';
import { listSessions } from './sessions';

/** The conversation the page holds is at most this long; an append beyond it drops the oldest. */
export const CONVERSATION_LIMIT = 400;

/** What was last sent for one watched topic, so the next update can be "what changed" or nothing. */
type Sent =
  | { readonly topic: 'conversation'; readonly key: string; readonly journal: SessionJournal; readonly lastId: EntryId | null }
  | { readonly topic: 'events'; readonly lastSeq: number }
  | { readonly topic: 'journal'; readonly filter: string; readonly lines: JournalLines; readonly lineCount: number; readonly matchCount: number }
  | { readonly topic: 'graph'; readonly key: string; readonly filter: string; readonly rows: readonly GraphRow[] }
  | { readonly topic: 'sessions'; readonly key: string }
  | { readonly topic: 'compare'; readonly key: string };

interface Active {
  readonly watch: Watch;
  /** Null until the first update: the first one is always a whole value. */
  sent: Sent | null;
  /** For compare: the entry the target named when the watch began (a later append must not change which branch is compared). */
  otherId?: string | null;
  /** For compare: the session it was resolved in; another session ends the comparison. */
  sessionId?: string;
  missing?: string | null;
}

const NONE: ReadonlySet<Topic> = new Set();

const journalIds = new WeakMap<SessionJournal, number>();
let nextJournalId = 1;

/** A key that changes whenever the journal object, its size or its leaf does. */
function journalKey(journal: SessionJournal): string {
  let id = journalIds.get(journal);
  if (id === undefined) {
    id = nextJournalId++;
    journalIds.set(journal, id);
  }
  return `${id}|${journal.size}|${journal.leafId ?? ''}`;
}

/**
 * The topics the page watches, and what it was last sent for each. After every request (and every
 * foreign append) the worker asks `changes()` for what moved: the view only when it differs, and
 * for each topic an append where the page can add to what it holds, a whole value where not, and
 * nothing where nothing changed. One page per worker, so one set of watches.
 */
export class Watches {
  private readonly active = new Map<Topic, Active>();
  private lastView: HostView | null = null;

  /** Starts (or restarts, with new parameters) a watch; its first update carries the whole value. */
  watch(watch: Watch, core: HostCore): void {
    const active: Active = { watch, sent: null };
    if (watch.topic === 'compare') {
      const found = resolveTarget(core.journal, watch.other);
      active.otherId = found.ok ? found.id : null;
      active.missing = found.ok ? null : found.why;
      active.sessionId = core.sessionId;
    }
    this.active.set(watch.topic, active);
  }

  unwatch(topic: Topic): void {
    this.active.delete(topic);
  }

  /** A new page: only the watches it names, and everything sent whole. */
  restart(watches: readonly Watch[], core: HostCore): void {
    this.active.clear();
    this.lastView = null;
    for (const watch of watches) this.watch(watch, core);
  }

  /**
   * What moved since the last call. Topics in `later` are left out and keep what was last sent,
   * so the next call carries them: an answer can go out before a large topic is computed.
   */
  async changes(core: HostCore, later: ReadonlySet<Topic> = NONE): Promise<DeepReadonly<Changes>> {
    const updates: DeepReadonly<TopicUpdate>[] = [];
    for (const active of this.active.values()) {
      if (later.has(active.watch.topic)) continue;
      const update = await this.update(active, core);
      if (update) updates.push(update);
    }
    const view: HostView = hostView(core);
    if (this.lastView !== null && equal(view, this.lastView)) return { updates };
    this.lastView = view;
    return { view, updates };
  }

  private async update(active: Active, core: HostCore): Promise<DeepReadonly<TopicUpdate> | null> {
    const journal = core.journal;
    const { watch } = active;
    switch (watch.topic) {
      case 'conversation': {
        const key = journalKey(journal);
        const sent = active.sent?.topic === 'conversation' ? active.sent : null;
        if (sent && sent.key === key) return null;
        const added = sent && sent.journal === journal ? appendedBelow(journal, sent.lastId) : null;
        if (sent && added) {
          active.sent = { topic: 'conversation', key, journal, lastId: added.at(-1)?.id ?? sent.lastId };
          // Another tab appended off this branch: the conversation did not change.
          if (added.length === 0) return null;
          return { topic: 'conversation', mode: 'append', items: added.map((entry) => branchItem(entry, journal)) };
        }
        const items = branchItems(journal, CONVERSATION_LIMIT);
        active.sent = { topic: 'conversation', key, journal, lastId: items.length > 0 ? asEntryId(items[items.length - 1]!.id) : null };
        return { topic: 'conversation', mode: 'replace', items };
      }
      case 'events': {
        const sent = active.sent?.topic === 'events' ? active.sent : null;
        const lastSeq = core.events.lastSeq;
        if (sent && sent.lastSeq === lastSeq) return null;
        active.sent = { topic: 'events', lastSeq };
        return sent ? { topic: 'events', mode: 'append', items: core.events.since(sent.lastSeq) } : { topic: 'events', mode: 'replace', items: core.events.all() };
      }
      case 'journal': {
        const sent = active.sent?.topic === 'journal' ? active.sent : null;
        const lines = sent && sent.lines.journal === journal ? sent.lines : new JournalLines(journal);
        const lineCount = lines.all().length;
        if (sent && sent.lines === lines && sent.filter === watch.filter) {
          if (sent.lineCount === lineCount) return null;
          // Entries never change once appended: only the new lines need filtering and sending.
          const added = lines.matching(watch.filter, sent.lineCount);
          const matchCount = sent.matchCount + added.matchCount;
          active.sent = { topic: 'journal', filter: watch.filter, lines, lineCount, matchCount };
          return { topic: 'journal', mode: 'append', filter: watch.filter, lineCount, matchCount, lines: added.lines };
        }
        const all = lines.matching(watch.filter);
        active.sent = { topic: 'journal', filter: watch.filter, lines, lineCount, matchCount: all.matchCount };
        return { topic: 'journal', mode: 'replace', filter: watch.filter, ...all };
      }
      case 'graph': {
        const key = `${journalKey(journal)}|${watch.filter}`;
        const sent = active.sent?.topic === 'graph' ? active.sent : null;
        if (sent && sent.key === key) return null;
        const rows = graphRows(journal, watch.filter);
        // The rows the page holds up to the first one that differs stay; the rest is sent. An append
        // at the leaf changes the last rows only; a new branch, the rows its lane passes.
        const held = sent && sent.filter === watch.filter ? sent.rows : [];
        const common = Math.min(held.length, rows.length);
        let from = 0;
        while (from < common && equal(held[from], rows[from])) from++;
        active.sent = { topic: 'graph', key, filter: watch.filter, rows };
        return { topic: 'graph', filter: watch.filter, from, rows: columnsOf(rows.slice(from)), leafId: journal.leafId };
      }
      case 'sessions': {
        // Not the journal's size: the panel takes the current session's count from the view.
        const key = `${core.sessionsVersion}|${core.sessionId}`;
        if (active.sent?.topic === 'sessions' && active.sent.key === key) return null;
        active.sent = { topic: 'sessions', key };
        return { topic: 'sessions', sessions: await listSessions(core) };
      }
      case 'compare': {
        const otherId = active.otherId ?? null;
        // Another session, or an entry that was never found: the comparison ends, once.
        if (active.sessionId !== core.sessionId || otherId === null || !journal.has(otherId)) {
          this.active.delete('compare');
          return { topic: 'compare', otherId: null, comparison: null, missing: active.missing ?? null };
        }
        const key = journalKey(journal);
        if (active.sent?.topic === 'compare' && active.sent.key === key) return null;
        active.sent = { topic: 'compare', key };
        return { topic: 'compare', otherId, comparison: comparison(journal, asEntryId(otherId)), missing: null };
      }
    }
  }
}

/**
 * The entries below `lastId` down to the leaf, root side first, when the leaf is `lastId` or a
 * descendant of it (the page's conversation only grows); null when the page must replace it (the
 * leaf moved elsewhere, more than a conversation's worth was added, or a label relabels an earlier
 * item). Walks parents from the leaf only as far as `lastId`: no item is built twice.
 */
function appendedBelow(journal: SessionJournal, lastId: EntryId | null): JournalEntry[] | null {
  if (lastId === null) return null;
  const added: JournalEntry[] = [];
  let id = journal.leafId;
  while (id !== null && id !== lastId) {
    const entry = journal.get(id);
    if (entry === undefined || entry.type === 'label' || added.length >= CONVERSATION_LIMIT) return null;
    added.push(entry);
    id = journal.parentIdOf(id);
  }
  return id === lastId ? added.reverse() : null;
}
