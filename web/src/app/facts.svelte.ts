import type { Fact, StampedFact } from '../tutorial/facts';
import type { ExtensionKind } from '../protocol/messages';

/** What the learner did, for the tutorial's checkpoints: the newest 500 facts, numbered. */
export class FactLog {
  facts = $state.raw<StampedFact[]>([]);
  private seq = 0;

  /** `running`: the extension the host runs now (the page's last view), stamped on every fact. */
  constructor(private readonly running: () => ExtensionKind = () => 'shipped') {}

  /** `extension`: the one that produced the fact, when the answer said so (else the one running now). */
  note(fact: Fact, extension: ExtensionKind = this.running()): void {
    this.facts = [...this.facts.slice(-499), { ...fact, seq: ++this.seq, extension } as StampedFact];
  }

  /** The sequence number the next fact will get: a step's window starts here. */
  get nextSeq(): number {
    return this.seq + 1;
  }
}
