import { asRevision, type EntryId, type Revision, type SessionId } from './ids';

/**
 * `<sessionId>:root` before any seed desk entry on the branch, `<sessionId>:<entryId>` after.
 * Conversation never changes it; every seed desk append does; sibling branches never share it
 * (entry ids are unique); a new session has a new id, so a new revision even with equal state.
 */
export function revisionOf(sessionId: SessionId, deskHead: EntryId | null): Revision {
  return asRevision(`${sessionId}:${deskHead ?? 'root'}`);
}
