import type { BranchItem, EventLogItem } from '../protocol/messages';
import type { Connection } from './connection.svelte';

/** The conversation the page holds at most (the worker sends the branch's last entries). */
const CONVERSATION_LIMIT = 400;

/** The active branch as the conversation shows it, kept current by the worker's appends. */
export class ConversationFeed {
  items = $state.raw<BranchItem[]>([]);

  constructor(connection: Connection) {
    connection.onTopic('conversation', (update) => {
      this.items = update.mode === 'append' ? [...this.items, ...update.items].slice(-CONVERSATION_LIMIT) : update.items;
    });
  }
}

/** The host's events and notifications (the worker keeps the newest 50). */
export class EventFeed {
  items = $state.raw<EventLogItem[]>([]);

  constructor(connection: Connection) {
    connection.onTopic('events', (update) => {
      this.items = update.mode === 'append' ? [...this.items, ...update.items].slice(-50) : update.items;
    });
  }
}
