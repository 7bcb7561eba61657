import type { Connection } from './connection.svelte';

const JOURNAL_LINES_LIMIT = 500;

/**
 * The journal panel: the session file's lines containing the filter, filtered in the worker (a
 * 100k-entry journal never crosses whole). Watched only while the panel is shown; appends arrive
 * as new lines.
 */
export class JournalView {
  lines = $state.raw<string[]>([]);
  lineCount = $state(0);
  matchCount = $state(0);
  /** What the learner typed. */
  filter = $state('');
  /** The filter the lines were read for: behind `filter` until the worker's answer lands. */
  private shownFilter = $state<string | null>(null);

  constructor(private readonly connection: Connection) {
    connection.onTopic('journal', (update) => {
      this.lines = update.mode === 'append' ? [...this.lines, ...update.lines].slice(-JOURNAL_LINES_LIMIT) : update.lines;
      this.lineCount = update.lineCount;
      this.matchCount = update.matchCount;
      this.shownFilter = update.filter;
    });
  }

  /** False while the lines shown are for another filter than the one typed (announced as aria-busy). */
  get isCurrent(): boolean {
    return this.shownFilter === this.filter;
  }

  /** The panel is shown (or its filter changed): one `watch` message. */
  async show(filter = this.filter): Promise<void> {
    this.filter = filter;
    await this.connection.call({ type: 'watch', watch: { topic: 'journal', filter } });
  }

  async hide(): Promise<void> {
    this.shownFilter = null;
    await this.connection.call({ type: 'unwatch', topic: 'journal' });
  }
}
