import type { CommitOutcomeView, HostView } from '../protocol/messages';
import type { CommandLine } from './commandLine.svelte';
import type { FactLog } from './facts.svelte';
import { WorkerClient } from './workerClient';

/** The last lesson's question, and the "other tab" it may need. */
export class ClosingQuestion {
  answer = $state<'yes' | 'no' | null>(null);

  constructor(
    private readonly facts: FactLog,
    private readonly command: CommandLine,
  ) {}

  give(value: 'yes' | 'no'): void {
    this.answer = value;
    this.facts.note({ kind: 'closing-answer', value });
  }

  /**
   * "Another tab" for the closing question, when the learner does not open one: a second worker
   * is exactly what a second tab runs. It stands where a tab opened before the learner's last
   * reservation would stand (on that entry's parent) and reserves all 3 marigolds there, as
   * confirmed in its own dialog. Its append reaches this tab like any other tab's.
   */
  async runTwinTab(): Promise<CommitOutcomeView> {
    const twin = new WorkerClient(new Worker(new URL('../worker/worker.ts', import.meta.url), { type: 'module' }));
    const seen: { view: HostView | null } = { view: null };
    twin.onChanges = (changes) => {
      if (changes.view) seen.view = changes.view;
    };
    try {
      await twin.request({ type: 'hello', watch: [] });
      await twin.request({ type: 'navigate', target: { by: 'before-last-reservation' } }).catch(() => undefined);
      const placed = seen.view;
      if (!placed) throw new Error('The other tab could not open the session.');
      const change = { kind: 'reservation', action: 'reserve', id: 'marigold-french', packets: 3 } as const;
      const result = await twin.request({ type: 'commit', change, expectedRevision: placed.revision });
      if (result.kind === 'committed') this.facts.note({ kind: 'committed', change, via: 'twin' });
      this.command.print(result.kind === 'committed' ? 'info' : result.kind, `The other tab: ${result.message}`);
      return result;
    } finally {
      twin.terminate();
    }
  }
}
