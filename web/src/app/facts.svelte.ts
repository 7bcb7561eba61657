import type { Fact, StampedFact } from '../tutorial/facts';
import type { ExtensionKind } from '../protocol/messages';

/** What the learner did, for the tutorial's checkpoints: the newest 500 facts, numbered. */
export class FactLog {
  facts = $state.raw<StampedFact[]>([]);
  private seq = 0;

  /** `running`: the extension the host runs now (the page's last view), stamped on every fact. */
  constructor(private readonly running: () => ExtensionKind = () => 'shipped') {}

  note(fact: Fact): void {
    this.facts = [...this.facts.slice(-499), { ...fact, seq: ++this.seq, extension: this.running() } as StampedFact];
  }

  /** The sequence number the next fact will get: a step's window starts here. */
  get nextSeq(): number {
    return this.seq + 1;
  }
}
