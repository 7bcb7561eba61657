import { LeafBehindSchema, type HostView, type LeafBehind } from '../protocol/messages';
import type { Connection } from './connection.svelte';
import type { FactLog } from './facts.svelte';

/**
 * The desk as the worker last reported it (rows, revision, status, leaf, settings): the view every
 * answer carries when it changed. Also says, once after a reload, why the leaf moved.
 */
export class Desk {
  view = $state.raw<HostView | null>(null);
  /** Said once after a reload that undid a navigation which had appended nothing. */
  reloadNotice = $state.raw<string | null>(null);
  private readonly memoBefore = readLeafMemo();
  /**
   * Whether the memo this tab last wrote says the leaf was off the last appended entry. A memo
   * whose `behind` is null is never read for anything (`sayWhyTheLeafMoved` stops there), so while
   * the leaf stays on the last appended entry (every Confirm, every append) nothing is written:
   * one synchronous sessionStorage write less on each answer (issue 38).
   */
  private memoBehind = true;

  constructor(connection: Connection, facts: FactLog) {
    connection.onView((view, cause) => {
      const first = this.view === null;
      this.view = view;
      if (view.leafBehind !== null || this.memoBehind) {
        writeLeafMemo(view);
        this.memoBehind = view.leafBehind !== null;
      }
      if (first) this.sayWhyTheLeafMoved(view);
      if (cause === 'foreign') facts.note({ kind: 'foreign-append' });
    });
  }

  /** Seed desk entries in the journal as the page last saw it. */
  get seedDeskEntryCount(): number {
    return this.view?.seedDeskEntryCount ?? 0;
  }

  private sayWhyTheLeafMoved(view: HostView): void {
    const before = this.memoBefore;
    const behind = before?.behind;
    if (!before || !behind || before.sessionId !== view.sessionId || before.leafId === view.leafId) return;
    // Rare (a reload after a move that appended nothing): its wording loads only then.
    void import('../protocol/leafNotice').then(({ leafReturnNotice }) => (this.reloadNotice = leafReturnNotice('reload', behind, before.leafId, view.leafId)));
  }
}

/**
 * The leaf lives in memory, as in the host: a reload (like a reopen) starts on the last appended
 * entry. This memo never restores a leaf; it only lets the page say, after a reload, why the leaf
 * moved: a navigation that appended nothing, or another tab's append.
 */
const LEAF_MEMO_KEY = 'seed-desk:leaf-memo';

interface LeafMemo {
  sessionId: string;
  leafId: string | null;
  /** Why the leaf was off the last appended entry (null: it was on it), so the notice names the real reason. */
  behind: LeafBehind | null;
}

function readLeafMemo(): LeafMemo | null {
  try {
    const raw = sessionStorage.getItem(LEAF_MEMO_KEY);
    if (!raw) return null;
    const value: unknown = JSON.parse(raw);
    if (typeof value !== 'object' || value === null) return null;
    const memo = value as Record<string, unknown>;
    if (typeof memo['sessionId'] !== 'string') return null;
    const leafId = memo['leafId'];
    const behind = LeafBehindSchema.safeParse(memo['behind']);
    return { sessionId: memo['sessionId'], leafId: typeof leafId === 'string' ? leafId : null, behind: behind.success ? behind.data : null };
  } catch {
    return null;
  }
}

function writeLeafMemo(view: HostView): void {
  try {
    const memo: LeafMemo = { sessionId: view.sessionId, leafId: view.leafId, behind: view.leafBehind };
    sessionStorage.setItem(LEAF_MEMO_KEY, JSON.stringify(memo));
  } catch {
    // Storage may be unavailable (private mode); the notice is a courtesy, not state.
  }
}
