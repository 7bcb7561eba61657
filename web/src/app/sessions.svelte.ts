import type { ImportReport, SessionSummary } from '../protocol/messages';
import type { CommandLine } from './commandLine.svelte';
import type { Connection } from './connection.svelte';
import type { Desk } from './desk.svelte';
import type { FactLog } from './facts.svelte';

/**
 * Sessions as the host has them: the list (a watched topic), new, switch, fork, export, import,
 * reopen, and the storage fault switch that shows the latch.
 */
export class Sessions {
  list = $state.raw<SessionSummary[]>([]);
  importProgress = $state.raw<{ phase: string; done: number; total: number } | null>(null);
  importReport = $state.raw<ImportReport | null>(null);

  constructor(
    private readonly connection: Connection,
    private readonly desk: Desk,
    private readonly facts: FactLog,
    private readonly command: CommandLine,
  ) {
    connection.onTopic('sessions', (update) => (this.list = update.sessions));
  }

  // Each change answers null once made; an outcome when an extension's before-event took part (a
  // dialog it opened, its words, its cancel): the Command output shows that, dialog and all, and
  // notes the change when the answer lets it happen (outcomeFacts.ts).

  /** `fresh`: as a new host process starts a session (not written before its first assistant message); else OMP's `/new`. */
  async newSession(fresh = false): Promise<void> {
    const outcome = await this.connection.call({ type: 'newSession', ...(fresh ? { fresh } : {}) });
    if (outcome !== null) return this.command.showOutcome(outcome);
    this.facts.note({ kind: 'new-session' });
  }

  async switchTo(sessionId: string): Promise<void> {
    const outcome = await this.connection.call({ type: 'switchSession', sessionId });
    if (outcome !== null) return this.command.showOutcome(outcome);
  }

  /** A new session holding the path to `entryId` (the leaf when absent). */
  async fork(entryId?: string): Promise<void> {
    const outcome = await this.connection.call(entryId === undefined ? { type: 'forkSession' } : { type: 'forkSession', entryId });
    if (outcome !== null) return this.command.showOutcome(outcome);
    this.facts.note({ kind: 'forked' });
  }

  exportSession(): Promise<{ fileName: string; jsonl: string }> {
    return this.connection.call({ type: 'exportSession' });
  }

  async importSession(file: Blob): Promise<ImportReport> {
    this.importReport = null;
    this.importProgress = { phase: 'reading', done: 0, total: file.size };
    try {
      const result = await this.connection.call({ type: 'importSession', file }, (phase, done, total) => (this.importProgress = { phase, done, total }));
      this.importReport = result;
      return result;
    } finally {
      this.importProgress = null;
    }
  }

  /**
   * Opens a shared scenario: imported as a session of its own, or switched to when this browser
   * already holds that session (the learner opened their own link).
   */
  async openShared(jsonl: string): Promise<{ report: ImportReport; opened: boolean }> {
    const report = await this.importSession(new Blob([jsonl], { type: 'application/jsonl' }));
    if (report.ok) return { report, opened: true };
    if (report.existingSessionId === undefined) return { report, opened: false };
    await this.switchTo(report.existingSessionId);
    return { report, opened: true };
  }

  /** The host's reopen: the leaf returns to the last appended entry; the fact records from where and why. */
  async reopen(): Promise<void> {
    const from = this.desk.view?.leafId ?? null;
    const behind = this.desk.view?.leafBehind ?? null;
    await this.connection.call({ type: 'reopen' });
    this.facts.note({ kind: 'reopened', from, to: this.desk.view?.leafId ?? null, behind });
  }

  async failNextWrite(fault: 'abort' | 'quota' | 'close'): Promise<void> {
    await this.connection.call({ type: 'injectFault', fault });
    const how = { abort: 'aborted', quota: 'quota exceeded', close: 'the database closed underneath it' }[fault];
    this.command.print('info', `The next storage transaction will fail (${how}).`);
  }
}
