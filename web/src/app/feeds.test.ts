/**
 * The conversation and the event log: what the worker sent for their topics, a whole value
 * (`replace`) or new items (`append`), within what the page keeps.
 */
import { describe, expect, it } from 'vitest';
import { branchItem, changed, eventItem, FakeConnection } from './fakeConnection.testkit';
import { ConversationFeed, EventFeed } from './feeds.svelte';
import { viewOf } from './viewOf.testkit.svelte';

const ids = (items: readonly { id: string }[]) => items.map((item) => item.id);

describe('ConversationFeed', () => {
  it('shows the branch the session opens on, then adds what is appended to it', async () => {
    const fake = new FakeConnection();
    const feed = new ConversationFeed(fake.connection);
    const view = viewOf(() => ids(feed.items));
    await fake.open(undefined, [{ topic: 'conversation', mode: 'replace', items: [branchItem('a', 'hello'), branchItem('b', 'reply')] }]);
    expect(view.now()).toEqual(['a', 'b']);
    fake.worker.push(changed(null, { topic: 'conversation', mode: 'append', items: [branchItem('c', 'from the other tab')] }), 'foreign');
    expect(view.now()).toEqual(['a', 'b', 'c']);
    expect(feed.items.at(-1)?.text).toBe('from the other tab');
    view.stop();
  });

  it('a replace (another branch, another session) drops what it showed', async () => {
    const fake = new FakeConnection();
    const feed = new ConversationFeed(fake.connection);
    await fake.open(undefined, [{ topic: 'conversation', mode: 'replace', items: [branchItem('a', 'one'), branchItem('b', 'two')] }]);
    fake.answerWith('switchSession', { result: null, changes: changed(null, { topic: 'conversation', mode: 'replace', items: [branchItem('x', 'other session')] }) });
    await fake.connection.call({ type: 'switchSession', sessionId: 'session-2' });
    expect(ids(feed.items)).toEqual(['x']);
  });

  it('keeps the branch\'s last 400 entries', async () => {
    const fake = new FakeConnection();
    const feed = new ConversationFeed(fake.connection);
    const many = Array.from({ length: 399 }, (_, index) => branchItem(`e${index}`, `entry ${index}`));
    await fake.open(undefined, [{ topic: 'conversation', mode: 'replace', items: many }]);
    fake.worker.push(changed(null, { topic: 'conversation', mode: 'append', items: [branchItem('n1', 'new'), branchItem('n2', 'newer')] }), 'foreign');
    expect(feed.items).toHaveLength(400);
    expect(feed.items[0]?.id).toBe('e1');
    expect(feed.items.at(-1)?.id).toBe('n2');
  });

  it('hears no other topic', async () => {
    const fake = new FakeConnection();
    const feed = new ConversationFeed(fake.connection);
    await fake.open(undefined, [{ topic: 'events', mode: 'replace', items: [eventItem(1, 'not a message')] }]);
    expect(feed.items).toEqual([]);
  });
});

describe('EventFeed', () => {
  it('shows the host\'s events and notifications, appended as they come', async () => {
    const fake = new FakeConnection();
    const feed = new EventFeed(fake.connection);
    const view = viewOf(() => feed.items.map((item) => item.seq));
    await fake.open(undefined, [{ topic: 'events', mode: 'replace', items: [eventItem(1, 'session_start')] }]);
    fake.worker.push(changed(null, { topic: 'events', mode: 'append', items: [{ kind: 'event', seq: 2, channel: 'seed-desk:changed', payload: '{}' }] }), 'foreign');
    expect(view.now()).toEqual([1, 2]);
    expect(view.shown).toEqual([[], [1], [1, 2]]);
    view.stop();
  });

  it('keeps the newest 50, as the worker does', async () => {
    const fake = new FakeConnection();
    const feed = new EventFeed(fake.connection);
    await fake.open(undefined, [{ topic: 'events', mode: 'replace', items: Array.from({ length: 50 }, (_, index) => eventItem(index + 1, `n${index + 1}`)) }]);
    fake.worker.push(changed(null, { topic: 'events', mode: 'append', items: [eventItem(51, 'n51'), eventItem(52, 'n52')] }), 'foreign');
    expect(feed.items).toHaveLength(50);
    expect(feed.items[0]?.seq).toBe(3);
    expect(feed.items.at(-1)?.seq).toBe(52);
  });
});
