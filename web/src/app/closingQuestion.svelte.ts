import type { HostView, LineOutcome } from '../protocol/messages';
import type { CommandLine } from './commandLine.svelte';
import type { FactLog } from './facts.svelte';
import { WorkerClient } from './workerClient';

/** The last lesson's question, the steps' own Yes/No questions, and the "other tab" the last lesson may need. */
export class ClosingQuestion {
  answer = $state<'yes' | 'no' | null>(null);
  /** Answers to the steps' own questions (a step's `question:`), by step id. */
  answers = $state.raw<Readonly<Record<string, 'yes' | 'no'>>>({});
  /** The current step's id, which its question is known by (the tutorial sets it on every step change). */
  asking = '';

  constructor(
    private readonly facts: FactLog,
    private readonly command: CommandLine,
  ) {}

  give(value: 'yes' | 'no'): void {
    this.answer = value;
    this.facts.note({ kind: 'closing-answer', value });
  }

  /** Answers the current step's own question. */
  answerQuestion(value: 'yes' | 'no'): void {
    const question = this.asking;
    this.answers = { ...this.answers, [question]: value };
    this.facts.note({ kind: 'question-answer', question, value });
  }

  /**
   * "Another tab" for the closing question, when the learner does not open one: a second worker
   * is exactly what a second tab runs. It stands where a tab opened before the learner's last
   * reservation would stand (on that entry's parent) and reserves all 3 marigolds there, as
   * confirmed in its own dialog. Its append reaches this tab like any other tab's.
   */
  async runTwinTab(): Promise<LineOutcome> {
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
      // The other tab's human types the command and confirms its dialog, as the learner would.
      let result = await twin.request({ type: 'line', text: '/seeds reserve marigold-french 3' });
      if (result.kind === 'asked' && result.request.kind === 'confirm') result = await twin.request({ type: 'answerUi', answer: { kind: 'confirm', id: result.request.id, confirmed: true } });
      if (result.kind === 'committed') this.facts.note({ kind: 'committed', change: result.change, via: 'twin' }, result.by);
      this.command.print(result.kind === 'committed' ? 'info' : result.kind === 'refused' || result.kind === 'failed' ? result.kind : 'info', `The other tab: ${result.text}`);
      return result;
    } finally {
      twin.terminate();
    }
  }
}
