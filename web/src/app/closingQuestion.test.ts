/**
 * The last lesson's question and the steps' own Yes/No questions (answers kept and noted as facts),
 * and the "other tab" the closing question may need: a second worker that reserves the marigolds
 * where a tab opened before the learner's last reservation would stand.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { LineOutcome } from '../protocol/messages';
import { ClosingQuestion } from './closingQuestion.svelte';
import { CommandLine } from './commandLine.svelte';
import { FactLog } from './facts.svelte';
import { changed, FakeConnection, FakeWorkers, hostView } from './fakeConnection.testkit';
import { stubStorage } from './pageGlobals.testkit';
import { viewOf } from './viewOf.testkit.svelte';

afterEach(() => {
  vi.unstubAllGlobals();
});

function setup() {
  stubStorage('sessionStorage');
  const page = new FakeConnection();
  const facts = new FactLog();
  const command = new CommandLine(page.connection, facts);
  const closing = new ClosingQuestion(facts, command);
  // The other tab's worker: `new Worker(…)` makes a scripted one.
  const twin = new FakeWorkers();
  const made: { url: string; options: unknown }[] = [];
  vi.stubGlobal('Worker', function (url: URL, options: unknown) {
    made.push({ url: String(url), options });
    return twin.makeWorker();
  });
  return { page, facts, command, closing, twin, made };
}

const reserveAll = { kind: 'reservation', action: 'reserve', id: 'marigold-french', packets: 3 } as const;
const confirm: LineOutcome = {
  kind: 'asked',
  request: { kind: 'confirm', id: 'ui-1', title: 'Reserve 3 marigold-french?', message: 'Reserve 3 packets of French marigold.' },
  text: '',
  revision: 'session-1:entry-6',
  by: 'shipped',
  deskEntries: { before: 2, after: 2 },
};
const committed: LineOutcome = { kind: 'committed', text: 'Reserved 3 marigold-french.', change: reserveAll, revision: 'session-1:entry-9', by: 'shipped', deskEntries: { before: 2, after: 3 } };

describe('ClosingQuestion: the answers', () => {
  it('keeps the closing answer and notes it', () => {
    const { closing, facts } = setup();
    const shown = viewOf(() => closing.answer);
    closing.give('no');
    expect(shown.now()).toBe('no');
    expect(facts.facts).toEqual([{ kind: 'closing-answer', value: 'no', seq: 1, extension: 'shipped' }]);
    shown.stop();
  });

  it('keeps each step\'s own answer under the step that asked, and notes which step it was', () => {
    const { closing, facts } = setup();
    closing.asking = 'no-gap-not-a-lock';
    closing.answerQuestion('yes');
    closing.asking = 'persistence-gate';
    closing.answerQuestion('no');
    closing.asking = 'no-gap-not-a-lock';
    closing.answerQuestion('no');
    expect(closing.answers).toEqual({ 'no-gap-not-a-lock': 'no', 'persistence-gate': 'no' });
    expect(facts.facts.map((fact) => (fact.kind === 'question-answer' ? `${fact.question}=${fact.value}` : fact.kind))).toEqual([
      'no-gap-not-a-lock=yes',
      'persistence-gate=no',
      'no-gap-not-a-lock=no',
    ]);
  });
});

describe('ClosingQuestion: the other tab', () => {
  it('a second worker opens the session, stands before the last reservation, reserves every marigold and confirms; then it is stopped', async () => {
    const { closing, twin, made, facts, command, page } = setup();
    twin
      .answerWith('hello', { result: null, changes: changed(hostView({ leafId: 'entry-8' })) })
      .answerWith('navigate', { result: null, changes: changed(hostView({ leafId: 'entry-6' })) })
      .answerWith('line', { result: confirm })
      .answerWith('answerUi', { result: committed });

    await expect(closing.runTwinTab()).resolves.toEqual(committed);

    expect(made).toEqual([{ url: expect.stringMatching(/\/worker\/worker\.ts$/), options: { type: 'module' } }]);
    expect(twin.sent()).toEqual([
      { type: 'hello', watch: [] },
      { type: 'navigate', target: { by: 'before-last-reservation' } },
      { type: 'line', text: '/seeds reserve marigold-french 3' },
      { type: 'answerUi', answer: { kind: 'confirm', id: 'ui-1', confirmed: true } },
    ]);
    expect(twin.worker.terminated).toBe(true);
    expect(facts.facts).toEqual([{ kind: 'committed', change: reserveAll, via: 'twin', seq: 1, extension: 'shipped' }]);
    expect(command.output.map((line) => [line.kind, line.text])).toEqual([['info', 'The other tab: Reserved 3 marigold-french.']]);
    // This tab's own worker was not asked anything: the other tab's append reaches it as a push.
    expect(page.sent()).toEqual([]);
  });

  it('where there is no reservation to stand before, it reserves where the session opened', async () => {
    const { closing, twin } = setup();
    twin
      .answerWith('hello', { result: null, changes: changed(hostView({ leafId: 'entry-1' })) })
      .answerWith('navigate', { error: 'No seed desk entry on this branch.' })
      .answerWith('line', { result: confirm })
      .answerWith('answerUi', { result: committed });
    await expect(closing.runTwinTab()).resolves.toEqual(committed);
    expect(twin.sentTypes()).toEqual(['hello', 'navigate', 'line', 'answerUi']);
  });

  it('a refusal is printed as a refusal, and nothing is committed', async () => {
    const { closing, twin, facts, command } = setup();
    const refused: LineOutcome = {
      kind: 'refused',
      code: 'insufficient-availability',
      text: 'Refused: only 0 marigold-french available.',
      change: reserveAll,
      by: 'shipped',
      deskEntries: { before: 2, after: 2 },
    };
    twin.answerWith('hello', { result: null, changes: changed(hostView()) }).answerWith('line', { result: refused });
    await expect(closing.runTwinTab()).resolves.toEqual(refused);
    expect(twin.sentTypes()).toEqual(['hello', 'navigate', 'line']);
    expect(facts.facts).toEqual([]);
    expect(command.output.map((line) => [line.kind, line.text])).toEqual([['refused', 'The other tab: Refused: only 0 marigold-french available.']]);
    expect(twin.worker.terminated).toBe(true);
  });

  it('a second worker that cannot open the session fails, and is stopped all the same', async () => {
    const { closing, twin, command } = setup();
    // `hello` answered without a view: the session did not open.
    await expect(closing.runTwinTab()).rejects.toThrow('The other tab could not open the session.');
    expect(twin.sentTypes()).toEqual(['hello', 'navigate']);
    expect(twin.worker.terminated).toBe(true);
    expect(command.output).toEqual([]);
  });
});
