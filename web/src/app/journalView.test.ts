/**
 * The journal panel: one watch while it is shown (and when its filter changes), lines filtered in
 * the worker, appends added to what it shows, and whether the lines shown are for the filter typed.
 */
import { describe, expect, it } from 'vitest';
import { changed, FakeConnection } from './fakeConnection.testkit';
import { JournalView } from './journalView.svelte';
import { viewOf } from './viewOf.testkit.svelte';

function setup() {
  const fake = new FakeConnection();
  const journal = new JournalView(fake.connection);
  return { fake, journal };
}

const line = (n: number) => `{"type":"custom","id":"e${n}","customType":"seed-desk"}`;

describe('JournalView', () => {
  it('showing the panel is one watch with the filter; until the worker\'s lines for it land, what is shown is not current', async () => {
    const { fake, journal } = setup();
    fake.hold('watch');
    const showing = journal.show('seed-desk');
    expect(journal.filter).toBe('seed-desk');
    expect(journal.isCurrent).toBe(false);
    expect(await fake.worker.whenHeld('watch')).toEqual({ type: 'watch', watch: { topic: 'journal', filter: 'seed-desk' } });

    fake.worker.answer('watch', { result: null, changes: changed(null, { topic: 'journal', mode: 'replace', filter: 'seed-desk', lineCount: 10, matchCount: 2, lines: [line(3), line(7)] }) });
    await showing;
    expect(journal.lines).toEqual([line(3), line(7)]);
    expect(journal.lineCount).toBe(10);
    expect(journal.matchCount).toBe(2);
    expect(journal.isCurrent).toBe(true);
  });

  it('shows again with the filter it has when none is given', async () => {
    const { fake, journal } = setup();
    journal.filter = 'basil';
    await journal.show();
    expect(fake.sent()).toEqual([{ type: 'watch', watch: { topic: 'journal', filter: 'basil' } }]);
  });

  it('typing another filter makes the lines shown not current until the worker answers for it', async () => {
    const { fake, journal } = setup();
    const busy = viewOf(() => !journal.isCurrent);
    fake.answerWith('watch', (body) => {
      const filter = body.watch.topic === 'journal' ? body.watch.filter : '';
      return { result: null, changes: changed(null, { topic: 'journal', mode: 'replace', filter, lineCount: 10, matchCount: 0, lines: [] }) };
    });
    await journal.show('seed');
    expect(busy.now()).toBe(false);
    journal.filter = 'seed-desk';
    expect(busy.now()).toBe(true);
    await journal.show();
    expect(busy.now()).toBe(false);
    busy.stop();
  });

  it('appends arrive as new lines, and the panel keeps the last 500', async () => {
    const { fake, journal } = setup();
    const first = Array.from({ length: 499 }, (_, index) => line(index));
    fake.answerWith('watch', { result: null, changes: changed(null, { topic: 'journal', mode: 'replace', filter: '', lineCount: 499, matchCount: 499, lines: first }) });
    await journal.show('');
    fake.worker.push(changed(null, { topic: 'journal', mode: 'append', filter: '', lineCount: 501, matchCount: 501, lines: [line(499), line(500)] }), 'foreign');
    expect(journal.lines).toHaveLength(500);
    expect(journal.lines[0]).toBe(line(1));
    expect(journal.lines.at(-1)).toBe(line(500));
    expect(journal.lineCount).toBe(501);
  });

  it('hiding the panel stops the watch, and its lines are no longer current', async () => {
    const { fake, journal } = setup();
    fake.answerWith('watch', { result: null, changes: changed(null, { topic: 'journal', mode: 'replace', filter: '', lineCount: 1, matchCount: 1, lines: [line(1)] }) });
    await journal.show('');
    expect(journal.isCurrent).toBe(true);
    await journal.hide();
    expect(fake.sent().at(-1)).toEqual({ type: 'unwatch', topic: 'journal' });
    expect(journal.isCurrent).toBe(false);
  });
});
