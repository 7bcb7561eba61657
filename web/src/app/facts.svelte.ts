import type { Fact, RunningExtension, StampedFact } from '../tutorial/facts';
import type { EditedVersion, HostView } from '../protocol/messages';

/** What the learner did, for the tutorial's checkpoints: the newest 500 facts, numbered. */
export class FactLog {
  facts = $state.raw<StampedFact[]>([]);
  private seq = 0;

  /** `view`: the page's last view, whose running extension (and its edited version) is stamped on every fact. */
  constructor(private readonly view: () => HostView | null = () => null) {}

  /** `extension`, `version`: the ones that produced the fact, when the answer said so (else the ones running now). */
  note(fact: Fact, extension?: RunningExtension, version?: EditedVersion): void {
    // Read only when the answer did not say: the Command line's path stays as web/CONTEXT.md lists it.
    const now = extension === undefined ? this.view() : null;
    const by = extension ?? (now?.own ? 'own' : now?.extension) ?? 'shipped';
    const edited = extension === undefined ? now?.editedVersion : version;
    this.facts = [...this.facts.slice(-499), { ...fact, seq: ++this.seq, extension: by, ...(by === 'edited' && edited ? { version: edited } : {}) } as StampedFact];
  }

  /** The sequence number the next fact will get: a step's window starts here. */
  get nextSeq(): number {
    return this.seq + 1;
  }
}
