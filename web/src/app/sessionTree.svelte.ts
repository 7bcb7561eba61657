import { tick } from 'svelte';
import type { GraphRowView } from '../protocol/graph';
import { rowsFromColumns } from '../protocol/graphColumns';
import { spliceGraphRows } from '../protocol/graphRows';
import type { ComparisonView, EntryTarget, TreeFilter } from '../protocol/messages';
import type { CommandLine } from './commandLine.svelte';
import type { Connection } from './connection.svelte';
import type { Desk } from './desk.svelte';
import type { FactLog } from './facts.svelte';
import type { ToolCalls } from './toolCalls.svelte';

export const TREE_RENDER_MEASURE = 'seed-desk:tree-render';

/**
 * The session graph the centre region draws, its filter, and the comparison of the current branch
 * with another one. Both are watched topics: the worker sends the graph's changed rows only when
 * the session, its size, the leaf or the filter changed, and the comparison whole when it changed.
 */
export class SessionTree {
  rows = $state.raw<readonly GraphRowView[]>([]);
  leafId = $state.raw<string | null>(null);
  filter = $state<TreeFilter>('all');
  comparison = $state.raw<ComparisonView | null>(null);
  /** The entry the current branch is compared with. */
  compareWith = $state.raw<string | null>(null);
  /** Why the last "compare" found no entry, if it did not. */
  compareMissing = $state.raw<string | null>(null);
  /** The answer to "try an act here with the other branch's revision". */
  compareAttempt = $state.raw<string | null>(null);
  private renderStart = 0;

  constructor(
    private readonly connection: Connection,
    private readonly desk: Desk,
    private readonly facts: FactLog,
    private readonly command: CommandLine,
  ) {
    connection.onTopic('graph', (update) => {
      this.renderStart = performance.now();
      this.rows = spliceGraphRows(this.rows, { from: update.from, rows: rowsFromColumns(update.rows) });
      this.leafId = update.leafId;
      void this.measureRender(this.rows.length);
    });
    connection.onTopic('compare', (update) => {
      this.comparison = update.comparison;
      this.compareWith = update.otherId;
      this.compareMissing = update.missing;
    });
  }

  /** One `watch` message: the worker answers with the graph under the new filter. */
  async setFilter(filter: TreeFilter): Promise<void> {
    this.filter = filter;
    await this.connection.call({ type: 'watch', watch: { topic: 'graph', filter } });
  }

  /** Host `/tree` selection: the leaf moves with the host's rules; the desk and status follow. */
  async branchFrom(target: EntryTarget): Promise<void> {
    const outcome = await this.connection.call({ type: 'navigate', target });
    // An extension's session_before_tree took part (its dialog, its cancel): the Command output shows it, and notes the move if it was made.
    if (outcome !== null) return this.command.showOutcome(outcome);
    this.facts.note({ kind: 'navigated', entryId: this.desk.view?.leafId ?? null });
  }

  /** Puts the branch ending at `target` beside the current one (null closes the comparison). */
  async compare(target: EntryTarget | null): Promise<void> {
    this.compareAttempt = null;
    if (target === null) {
      this.comparison = null;
      this.compareWith = null;
      await this.connection.call({ type: 'unwatch', topic: 'compare' });
      return;
    }
    await this.connection.call({ type: 'watch', watch: { topic: 'compare', other: target } });
  }

  /** An act on THIS branch carrying the compared branch's revision: it must be refused. */
  async tryOtherRevision(tool: ToolCalls): Promise<void> {
    const view = this.desk.view;
    const comparison = this.comparison;
    if (!comparison || !view) return;
    // Only the agent's act carries a revision of its own choosing: a human command reads the
    // revision itself. With the agent off here, the act is refused for that first (agent-disabled).
    const revision = comparison.right.revision;
    const before = this.desk.seedDeskEntryCount;
    const outcome = await tool.call(JSON.stringify({ op: 'act', action: 'reserve', id: 'bean-scarlet', packets: 1, expectedRevision: revision }), false);
    this.compareAttempt = outcome.kind === 'result' || outcome.kind === 'failed' ? outcome.text : 'Waiting for host approval…';
    if (outcome.kind === 'result' && outcome.details?.code) {
      this.facts.note({ kind: 'refused', code: outcome.details.code, via: 'compare', change: null, deskEntries: { before, after: this.desk.seedDeskEntryCount } });
    }
  }

  /** Measured up to the frame after the rows are in the DOM; the benchmark reads it. */
  private async measureRender(rows: number): Promise<void> {
    const start = this.renderStart;
    await tick();
    requestAnimationFrame(() => performance.measure(TREE_RENDER_MEASURE, { start, end: performance.now(), detail: rows }));
  }
}
