import type { Watch } from '../protocol/messages';
import { ClosingQuestion } from './closingQuestion.svelte';
import { CommandLine } from './commandLine.svelte';
import { Connection } from './connection.svelte';
import { Desk } from './desk.svelte';
import { ExtensionEdits } from './extensionEdits.svelte';
import { FactLog } from './facts.svelte';
import { ConversationFeed, EventFeed } from './feeds.svelte';
import { JournalView } from './journalView.svelte';
import { OwnExtension } from './ownExtension.svelte';
import { SessionTree } from './sessionTree.svelte';
import { Sessions } from './sessions.svelte';
import { ToolCalls } from './toolCalls.svelte';

export { MEANWHILE_ITEM, STEP_BACK_PAST_INVALID, type OutputLine } from './commandLine.svelte';
export { TREE_RENDER_MEASURE } from './sessionTree.svelte';

/** What the first screen shows from the start: the conversation, the events, the graph and the session list. */
const FIRST_SCREEN_WATCHES: readonly Watch[] = [{ topic: 'conversation' }, { topic: 'events' }, { topic: 'graph', filter: 'all' }, { topic: 'sessions' }];

/**
 * The page's state, composed: each feature holds its own state and the requests that change it,
 * and hears the worker's changes for its own topic through the one connection. Components take
 * the feature they show; this root only wires them together and starts the session.
 */
export class Playground {
  readonly connection: Connection;
  // Each fact is stamped with the extension the host ran when it was noted ("Break it" asks which one refused).
  readonly facts = new FactLog(() => this.desk.view);
  readonly desk: Desk;
  readonly command: CommandLine;
  readonly tool: ToolCalls;
  readonly tree: SessionTree;
  readonly journal: JournalView;
  readonly sessions: Sessions;
  readonly conversation: ConversationFeed;
  readonly events: EventFeed;
  readonly closing: ClosingQuestion;
  /** The learner's edited extension: editor texts, run, back, download (issue 23). */
  readonly edits: ExtensionEdits;
  /** The learner's own extension, alone on its own session (issue 37). */
  readonly own: OwnExtension;

  /** `worker`: pass a function that makes one, so a hung edited extension's worker can be replaced (Connection). */
  constructor(worker: Worker | (() => Worker)) {
    this.connection = new Connection(worker);
    this.desk = new Desk(this.connection, this.facts);
    this.command = new CommandLine(this.connection, this.facts);
    this.tool = new ToolCalls(this.connection, this.desk, this.facts);
    this.tree = new SessionTree(this.connection, this.desk, this.facts, this.command);
    this.journal = new JournalView(this.connection);
    this.sessions = new Sessions(this.connection, this.desk, this.facts, this.command);
    this.conversation = new ConversationFeed(this.connection);
    this.events = new EventFeed(this.connection);
    this.closing = new ClosingQuestion(this.facts, this.command);
    this.edits = new ExtensionEdits(this.connection, this.desk);
    this.own = new OwnExtension(this.connection, this.desk, this.facts, () => this.edits.restore());
  }

  /** One message: open the session and start the first screen's watches. */
  async start(): Promise<void> {
    await this.connection.call({ type: 'hello', watch: [...FIRST_SCREEN_WATCHES] });
    // An edited extension that ran before the reload runs again, after the first view.
    if (this.desk.view?.editedWaiting) void this.edits.restore().catch(() => undefined);
    // The learner's own extension that ran before the reload runs again on its session (issue 37).
    if (this.desk.view?.ownWaiting) void this.own.restore().catch(() => undefined);
  }

  /** The view as the worker last reported it (null until the session is open). */
  get view() {
    return this.desk.view;
  }

  /** An act on this branch with the compared branch's revision. */
  tryOtherRevision(): Promise<void> {
    return this.tree.tryOtherRevision(this.tool);
  }
}
