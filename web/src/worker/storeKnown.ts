import type { SessionId } from '$domain/ids';
import { ROOT_DESK_INDEX, type DeskIndex } from '$domain/reconstruct';
import type { Tally } from './segments';

/** Desk indexes kept per session: enough for the leaves a tab moves between; an older one is read again. */
const HEADS_PER_SESSION = 256;

interface SessionKnowledge {
  readonly epoch: number;
  tally: Tally;
  readonly heads: Map<string, DeskIndex>;
}

/**
 * What a store knows is stored, per session: the tally of its last record and the desk index of
 * entries it wrote or read. Valid only in the writer-lease tenure it was learnt in (storeLease.ts):
 * within one tenure no other store writes and records never change, so it is still what is stored.
 */
export class KnownHeads {
  private readonly sessions = new Map<SessionId, SessionKnowledge>();

  /** The head a write on `leafId` (null: an empty branch) depends on, if known in tenure `epoch`. */
  lookup(epoch: number | null, sessionId: SessionId, leafId: string | null): { readonly desk: DeskIndex; readonly tally: Tally } | undefined {
    const known = this.sessions.get(sessionId);
    if (!known || epoch === null || known.epoch !== epoch) return undefined;
    const desk = leafId === null ? ROOT_DESK_INDEX : known.heads.get(leafId);
    return desk && { desk, tally: known.tally };
  }

  /** After a write committed in tenure `epoch`: the session's tally now, and heads seen stored. */
  learn(epoch: number | null, sessionId: SessionId, tally: Tally, heads: Iterable<readonly [string, DeskIndex]>): void {
    if (epoch === null) return;
    let known = this.sessions.get(sessionId);
    if (!known || known.epoch !== epoch) {
      known = { epoch, tally, heads: new Map() };
      this.sessions.set(sessionId, known);
    }
    known.tally = { position: tally.position, deskEntries: tally.deskEntries, hasAssistant: tally.hasAssistant };
    for (const [id, desk] of heads) {
      if (known.heads.size >= HEADS_PER_SESSION && !known.heads.has(id)) {
        const oldest = known.heads.keys().next();
        if (!oldest.done) known.heads.delete(oldest.value);
      }
      known.heads.set(id, { deskHead: desk.deskHead, deskLink: desk.deskLink });
    }
  }

  forget(sessionId: SessionId): void {
    this.sessions.delete(sessionId);
  }

  clear(): void {
    this.sessions.clear();
  }
}
