/**
 * The command line against a scripted worker: one `line` request per Enter, the Command output it
 * prints (kinds, and the marks on what the learner's edited extension said), what the extension
 * asks of the UI (`pending`) answered by one `answerUi` request under the request's id, the
 * confirmation machine as the dialog shows it, and the facts every outcome leaves for the goals
 * (stamped with the extension that ran, counted by the worker).
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { LineOutcome, UiRequest } from '../protocol/messages';
import { CommandLine, markOf, MEANWHILE_ITEM } from './commandLine.svelte';
import { FactLog } from './facts.svelte';
import { FakeConnection, hostView } from './fakeConnection.testkit';
import { stubFrames, stubStorage } from './pageGlobals.testkit';
import { until, viewOf } from './viewOf.testkit.svelte';

let frames: ReturnType<typeof stubFrames>;

beforeEach(() => {
  stubStorage('sessionStorage');
  frames = stubFrames();
});

afterEach(() => {
  vi.unstubAllGlobals();
});

function setup() {
  const fake = new FakeConnection();
  const facts = new FactLog();
  const command = new CommandLine(fake.connection, facts);
  return { fake, facts, command };
}

/** The Command output as the learner reads it: kind, text, and the edited mark when there is one. */
function printed(command: CommandLine): string[] {
  return command.output.map((line) => `${line.kind}${line.edited ? ' (edited)' : ''}: ${line.text}`);
}

const basil = { kind: 'reservation', action: 'reserve', id: 'basil-genovese', packets: 2 } as const;
const marigold = { kind: 'reservation', action: 'reserve', id: MEANWHILE_ITEM, packets: 1 } as const;

const confirmBasil: Extract<UiRequest, { kind: 'confirm' }> = { kind: 'confirm', id: 'ui-1', title: 'Reserve 2 basil-genovese?', message: 'Reserve 2 packets of Genovese basil.' };

function asked(request: UiRequest, overrides: Partial<Pick<Extract<LineOutcome, { kind: 'asked' }>, 'text' | 'by' | 'revision'>> = {}): LineOutcome {
  return { kind: 'asked', request, text: '', revision: 'session-1:entry-3', by: 'shipped', deskEntries: { before: 1, after: 1 }, ...overrides };
}

const committedBasil: LineOutcome = {
  kind: 'committed',
  text: 'Reserved 2 basil-genovese.',
  change: basil,
  revision: 'session-1:entry-4',
  by: 'shipped',
  deskEntries: { before: 1, after: 2 },
};

describe('CommandLine: a line', () => {
  it('sends one `line` request per Enter, the line as typed, and nothing for an empty line', async () => {
    const { fake, command } = setup();
    fake.answerWith('line', (body) => ({ result: { kind: 'said', text: `Said: ${body.text.trim()}`, by: 'shipped', deskEntries: { before: 0, after: 0 } } }));

    await command.runLine('');
    await command.runLine('   ');
    expect(fake.sent()).toEqual([]);
    expect(command.output).toEqual([]);

    await command.runLine('  hello there ');
    await command.runLine('/seeds query');
    expect(fake.sent()).toEqual([
      { type: 'line', text: '  hello there ' },
      { type: 'line', text: '/seeds query' },
    ]);
    // The echo is the trimmed line; the host's words follow it.
    expect(printed(command)).toEqual(['input: hello there', 'said: Said: hello there', 'input: /seeds query', 'said: Said: /seeds query']);
  });

  it('echoes the line at the next frame when the answer is slow, once, and prints the answer under it', async () => {
    const { fake, command } = setup();
    fake.hold('line');
    const shown = viewOf(() => printed(command));
    const run = command.runLine('/seeds query');
    await fake.worker.whenHeld('line');
    expect(shown.now()).toEqual([]);

    frames.runFrames();
    expect(shown.now()).toEqual(['input: /seeds query']);

    fake.worker.answer('line', {
      result: { kind: 'answer', text: 'basil-genovese 8 available', query: { revision: 'session-1:root', rows: [{ id: 'basil-genovese', available: 8, reserved: 0 }] }, by: 'shipped', deskEntries: { before: 0, after: 0 } },
    });
    await run;
    expect(shown.now()).toEqual(['input: /seeds query', 'answer: basil-genovese 8 available']);
    expect(frames.pending()).toBe(0);
    shown.stop();
  });

  it('prints each outcome by its kind, marks what the edited extension said (not the host\'s own words), and notes the facts stamped with the extension that ran', async () => {
    const { fake, command, facts } = setup();
    const query = { revision: 'session-1:root', rows: [{ id: 'basil-genovese', available: 8, reserved: 0 }] };
    const outcomes: Record<string, LineOutcome> = {
      '/seeds query': { kind: 'answer', text: 'basil-genovese 8 available', query, by: 'edited', deskEntries: { before: 0, after: 0 } },
      hello: { kind: 'said', text: 'Said to the agent.', by: 'edited', deskEntries: { before: 0, after: 0 } },
      '/seeds': { kind: 'usage', text: 'Usage: /seeds query | reserve <id> <packets>', by: 'shipped', deskEntries: { before: 0, after: 0 } },
      '/seeds hello': { kind: 'notice', text: 'Nothing to do.', by: 'edited', deskEntries: { before: 0, after: 0 } },
      '/seeds boom': { kind: 'error', text: 'Extension error: boom', by: 'edited', deskEntries: { before: 0, after: 0 } },
    };
    fake.answerWith('line', (body) => {
      const result = outcomes[body.text];
      return result ? { result } : { error: `Nothing scripted for ${body.text}.` };
    });

    for (const line of Object.keys(outcomes)) await command.runLine(line);

    expect(printed(command)).toEqual([
      'input: /seeds query',
      'answer (edited): basil-genovese 8 available',
      'input: hello',
      // `said` is the host's own words: never marked.
      'said: Said to the agent.',
      'input: /seeds',
      'usage: Usage: /seeds query | reserve <id> <packets>',
      'input: /seeds hello',
      'info (edited): Nothing to do.',
      'input: /seeds boom',
      'error (edited): Extension error: boom',
    ]);
    expect(facts.facts).toEqual([
      { kind: 'answer', text: 'basil-genovese 8 available', query, seq: 1, extension: 'edited' },
      { kind: 'said', text: 'hello', seq: 2, extension: 'edited' },
    ]);
  });

  it('marks what a version whose text is the shipped one said as that, not as an edited extension, and stamps the facts with the version (issue 36)', async () => {
    const { fake, command, facts } = setup();
    const query = { revision: 'session-1:root', rows: [{ id: 'basil-genovese', available: 8, reserved: 0 }] };
    const version = { text: 'as-shipped', editedFrom: 'shipped' } as const;
    fake.answerWith('line', { result: { kind: 'answer', text: 'basil-genovese 8 available', query, by: 'edited', version, deskEntries: { before: 0, after: 0 } } });
    await command.runLine('/seeds query');
    expect(command.output.at(-1)).toMatchObject({ edited: true, mark: 'your version (the shipped text)' });
    expect(facts.facts).toEqual([{ kind: 'answer', text: 'basil-genovese 8 available', query, seq: 1, extension: 'edited', version }]);
    expect(markOf('edited', { text: 'changed', editedFrom: 'an-edit' })).toBe('your edited extension');
    expect(markOf('shipped', version)).toBeNull();
  });

  it('a refused line is printed as a refusal and noted with the change asked and the worker\'s entry counts', async () => {
    const { fake, command, facts } = setup();
    // The page's own desk says nothing about the entries: the counts are the worker's.
    await fake.open(hostView({ seedDeskEntryCount: 7 }));
    fake.answerWith('line', {
      result: {
        kind: 'refused',
        code: 'insufficient-availability',
        text: 'Refused: only 1 basil-genovese available.',
        change: basil,
        by: 'edited',
        deskEntries: { before: 3, after: 3 },
      },
    });

    await command.runLine('/seeds reserve basil-genovese 2');

    expect(printed(command)).toEqual(['input: /seeds reserve basil-genovese 2', 'refused (edited): Refused: only 1 basil-genovese available.']);
    expect(facts.facts).toEqual([
      { kind: 'refused', code: 'insufficient-availability', via: 'line', change: basil, deskEntries: { before: 3, after: 3 }, seq: 1, extension: 'edited' },
    ]);
    expect(command.pending).toBeNull();
    expect(command.dialog).toBeUndefined();
  });

  it('a line the worker could not run rejects, with the echo printed and nothing noted', async () => {
    const { fake, command, facts } = setup();
    fake.answerWith('line', { error: 'The storage is full.' });
    await expect(command.runLine('/seeds query')).rejects.toThrow('The storage is full.');
    expect(printed(command)).toEqual(['input: /seeds query']);
    expect(facts.facts).toEqual([]);
    expect(frames.pending()).toBe(0);
  });
});

describe('CommandLine: a confirmation', () => {
  it('opens the dialog: the request is pending, the machine is open on it, and the dialog is noted', async () => {
    const { fake, command, facts } = setup();
    fake.answerWith('line', { result: asked(confirmBasil, { text: 'Checking the desk…' }) });
    const state = viewOf(() => command.dialog?.value ?? 'not loaded');
    expect(state.now()).toBe('not loaded');

    await command.runLine('/seeds reserve basil-genovese 2');

    expect(command.pending).toEqual(confirmBasil);
    expect(command.dialogIsBusy()).toBe(true);
    expect(command.answering).toBe(false);
    expect(state.now()).toBe('open');
    expect(command.dialog?.context).toMatchObject({ requestId: 'ui-1', title: 'Reserve 2 basil-genovese?', message: 'Reserve 2 packets of Genovese basil.', said: 'Checking the desk…', revision: 'session-1:entry-3' });
    expect(command.confirmation.getSnapshot().value).toBe('open');
    expect(printed(command)).toEqual(['input: /seeds reserve basil-genovese 2', 'info: Checking the desk…']);
    expect(facts.facts).toEqual([{ kind: 'dialog-opened', title: 'Reserve 2 basil-genovese?', seq: 1, extension: 'shipped' }]);
    expect(fake.sentTypes()).toEqual(['line']);
    state.stop();
  });

  it('Confirm sends one `answerUi` with the request\'s id; the machine commits, then settles in `committed` with the outcome printed and noted', async () => {
    const { fake, command, facts } = setup();
    fake.answerWith('line', { result: asked(confirmBasil) }).hold('answerUi');
    await command.runLine('/seeds reserve basil-genovese 2');

    const confirmed = command.confirm();
    expect(await fake.worker.whenHeld('answerUi')).toEqual({ type: 'answerUi', answer: { kind: 'confirm', id: 'ui-1', confirmed: true } });
    // The answer is on its way: the machine is committing, the request still pending.
    expect(command.dialog?.value).toBe('committing');
    expect(command.answering).toBe(true);
    expect(command.pending).toEqual(confirmBasil);
    // A second Confirm (or a Cancel) meanwhile sends nothing.
    await command.confirm();
    await command.cancel();

    fake.worker.answer('answerUi', { result: committedBasil });
    await confirmed;

    expect(fake.sentOf('answerUi')).toEqual([{ type: 'answerUi', answer: { kind: 'confirm', id: 'ui-1', confirmed: true } }]);
    expect(command.dialog?.value).toBe('committed');
    expect(command.dialog?.context).toMatchObject({ requestId: null, result: 'Reserved 2 basil-genovese.', change: basil, code: null });
    expect(command.pending).toBeNull();
    expect(command.answering).toBe(false);
    expect(printed(command)).toEqual(['input: /seeds reserve basil-genovese 2', 'committed: Reserved 2 basil-genovese.']);
    expect(facts.facts).toEqual([
      { kind: 'dialog-opened', title: 'Reserve 2 basil-genovese?', seq: 1, extension: 'shipped' },
      { kind: 'committed', change: basil, via: 'dialog', seq: 2, extension: 'shipped' },
    ]);
  });

  it('Cancel sends `confirmed: false`; the machine settles in `cancelled` and the edited extension\'s words are marked', async () => {
    const { fake, command, facts } = setup();
    fake
      .answerWith('line', { result: asked(confirmBasil, { by: 'edited' }) })
      .answerWith('answerUi', { result: { kind: 'cancelled', text: 'Nothing reserved.', change: basil, by: 'edited', deskEntries: { before: 1, after: 1 } } });
    await command.runLine('/seeds reserve basil-genovese 2');

    await command.cancel();

    expect(fake.sentOf('answerUi')).toEqual([{ type: 'answerUi', answer: { kind: 'confirm', id: 'ui-1', confirmed: false } }]);
    expect(command.dialog?.value).toBe('cancelled');
    expect(command.pending).toBeNull();
    expect(printed(command)).toEqual(['input: /seeds reserve basil-genovese 2', 'cancelled (edited): Nothing reserved.']);
    expect(facts.facts.map(({ seq: _, ...fact }) => fact)).toEqual([
      { kind: 'dialog-opened', title: 'Reserve 2 basil-genovese?', extension: 'edited' },
      { kind: 'cancelled', change: basil, extension: 'edited' },
    ]);
  });

  it('a refusal after Confirm settles the machine in `refused`, noted from the dialog with the worker\'s entry counts', async () => {
    const { fake, command, facts } = setup();
    fake.answerWith('line', { result: asked(confirmBasil) }).answerWith('answerUi', {
      result: { kind: 'refused', code: 'stale-revision', text: 'Refused: the desk changed since the dialog opened.', change: basil, by: 'shipped', deskEntries: { before: 2, after: 2 } },
    });
    await command.runLine('/seeds reserve basil-genovese 2');
    await command.confirm();

    expect(command.dialog?.value).toBe('refused');
    expect(command.dialog?.context.code).toBe('stale-revision');
    expect(printed(command).at(-1)).toBe('refused: Refused: the desk changed since the dialog opened.');
    expect(facts.facts.at(-1)).toEqual({ kind: 'refused', code: 'stale-revision', via: 'dialog', change: basil, deskEntries: { before: 2, after: 2 }, seq: 2, extension: 'shipped' });
  });

  it('a line typed while the extension waits is refused with a usage line, and sends nothing', async () => {
    const { fake, command } = setup();
    fake.answerWith('line', { result: asked(confirmBasil) });
    await command.runLine('/seeds reserve basil-genovese 2');

    await command.runLine('/seeds query');

    expect(fake.sentOf('line')).toEqual([{ type: 'line', text: '/seeds reserve basil-genovese 2' }]);
    expect(printed(command).slice(-2)).toEqual(['input: /seeds query', 'usage: The extension is waiting for your answer to its question: answer it first.']);
    expect(command.pending).toEqual(confirmBasil);
    expect(command.dialog?.value).toBe('open');
  });

  it('Confirm and Cancel when no confirmation is open send nothing', async () => {
    const { fake, command, facts } = setup();
    await command.confirm();
    await command.cancel();
    expect(fake.sent()).toEqual([]);
    expect(command.dialog).toBeUndefined();
    expect(() => command.confirmation).toThrow('No confirmation dialog has opened yet.');

    // Once a dialog has settled, Confirm has nothing to answer either.
    fake.answerWith('line', { result: asked(confirmBasil) }).answerWith('answerUi', { result: committedBasil });
    await command.runLine('/seeds reserve basil-genovese 2');
    await command.confirm();
    await command.confirm();
    expect(fake.sentTypes()).toEqual(['line', 'answerUi']);
    expect(command.dialog?.value).toBe('committed');
    expect(facts.facts.map((fact) => fact.kind)).toEqual(['dialog-opened', 'committed']);
  });

  it('an answer the worker could not take ends the machine in `failed`, prints why, and clears `pending`', async () => {
    const { fake, command, facts } = setup();
    fake.answerWith('line', { result: asked(confirmBasil) }).answerWith('answerUi', { error: 'The worker was stopped.' });
    await command.runLine('/seeds reserve basil-genovese 2');

    await command.confirm();

    expect(fake.sentOf('answerUi')).toEqual([{ type: 'answerUi', answer: { kind: 'confirm', id: 'ui-1', confirmed: true } }]);
    expect(command.dialog?.value).toBe('failed');
    expect(command.dialog?.context.result).toBe('Failed: The worker was stopped.');
    expect(command.pending).toBeNull();
    expect(command.answering).toBe(false);
    expect(printed(command).at(-1)).toBe('failed: Failed: The worker was stopped.');
    expect(facts.facts.map((fact) => fact.kind)).toEqual(['dialog-opened']);

    // The page takes lines again.
    fake.answerWith('line', { result: { kind: 'said', text: 'ok', by: 'shipped', deskEntries: { before: 1, after: 1 } } });
    await command.runLine('hello');
    expect(fake.sentOf('line')).toHaveLength(2);
  });

  it('a confirmation asked again after the answer reopens the dialog on the new request, which the next Confirm answers', async () => {
    const { fake, command, facts } = setup();
    const again: Extract<UiRequest, { kind: 'confirm' }> = { kind: 'confirm', id: 'ui-2', title: 'Really reserve?', message: 'The desk changed meanwhile.' };
    let answers = 0;
    fake
      .answerWith('line', { result: asked(confirmBasil) })
      .answerWith('answerUi', () => (++answers === 1 ? { result: asked(again, { revision: 'session-1:entry-5' }) } : { result: committedBasil }));
    await command.runLine('/seeds reserve basil-genovese 2');
    const states = viewOf(() => command.dialog?.value);

    await command.confirm();

    expect(command.pending).toEqual(again);
    expect(command.dialog?.value).toBe('open');
    expect(command.dialog?.context).toMatchObject({ requestId: 'ui-2', title: 'Really reserve?', revision: 'session-1:entry-5' });

    await command.confirm();

    expect(fake.sentOf('answerUi').map((body) => body.answer)).toEqual([
      { kind: 'confirm', id: 'ui-1', confirmed: true },
      { kind: 'confirm', id: 'ui-2', confirmed: true },
    ]);
    expect(command.dialog?.value).toBe('committed');
    expect(command.pending).toBeNull();
    expect(states.now()).toBe('committed');
    expect(states.shown).toEqual(['open', 'committing', 'open', 'committing', 'committed']);
    expect(facts.facts.map((fact) => (fact.kind === 'dialog-opened' ? `opened ${fact.title}` : fact.kind))).toEqual([
      'opened Reserve 2 basil-genovese?',
      'opened Really reserve?',
      'committed',
    ]);
    states.stop();
  });

  it('the next dialog opens the machine again from where the last one settled', async () => {
    const { fake, command } = setup();
    let lines = 0;
    fake
      .answerWith('line', () => ({ result: asked({ ...confirmBasil, id: `ui-${++lines}` }) }))
      .answerWith('answerUi', { result: { kind: 'cancelled', text: 'Cancelled.', change: basil, by: 'shipped', deskEntries: { before: 1, after: 1 } } });
    await command.runLine('/seeds reserve basil-genovese 2');
    await command.cancel();
    expect(command.dialog?.value).toBe('cancelled');

    await command.runLine('/seeds reserve basil-genovese 2');
    await until(() => command.dialog?.value === 'open');
    expect(command.dialog?.context.requestId).toBe('ui-2');
    await command.confirm();
    expect(fake.sentOf('answerUi').map((body) => body.answer)).toEqual([
      { kind: 'confirm', id: 'ui-1', confirmed: false },
      { kind: 'confirm', id: 'ui-2', confirmed: true },
    ]);
  });
});

describe('CommandLine: a choice and a question', () => {
  const pick: UiRequest = { kind: 'select', id: 'ui-7', title: 'Which seed?', options: ['basil-genovese', 'bean-scarlet'] };
  const ask: UiRequest = { kind: 'input', id: 'ui-8', title: 'How many packets?', placeholder: '1' };

  it('a select request is pending until answered with an option: one `answerUi` with the choice, and the outcome printed', async () => {
    const { fake, command, facts } = setup();
    fake
      .answerWith('line', { result: asked(pick, { text: 'Pick a seed.', by: 'edited' }) })
      .answerWith('answerUi', { result: { kind: 'said', text: 'You picked basil-genovese.', by: 'edited', deskEntries: { before: 1, after: 1 } } });
    await command.runLine('/seeds pick');
    expect(command.pending).toEqual(pick);
    // Only a confirmation is a dialog: Confirm does not answer a choice, and no machine starts.
    await command.confirm();
    expect(fake.sentTypes()).toEqual(['line']);
    expect(command.dialog).toBeUndefined();

    await command.answerRequest('basil-genovese');

    expect(fake.sentOf('answerUi')).toEqual([{ type: 'answerUi', answer: { kind: 'select', id: 'ui-7', choice: 'basil-genovese' } }]);
    expect(command.pending).toBeNull();
    expect(printed(command)).toEqual(['input: /seeds pick', 'info (edited): Pick a seed.', 'said: You picked basil-genovese.']);
    // Neither the choice nor the host's words are facts.
    expect(facts.facts).toEqual([]);
  });

  it('a select request cancelled answers `choice: null`', async () => {
    const { fake, command } = setup();
    fake
      .answerWith('line', { result: asked(pick) })
      .answerWith('answerUi', { result: { kind: 'notice', text: 'No seed picked.', by: 'shipped', deskEntries: { before: 1, after: 1 } } });
    await command.runLine('/seeds pick');

    await command.answerRequest(null);

    expect(fake.sentOf('answerUi')).toEqual([{ type: 'answerUi', answer: { kind: 'select', id: 'ui-7', choice: null } }]);
    expect(command.pending).toBeNull();
    expect(printed(command).at(-1)).toBe('info: No seed picked.');
  });

  it('an input request answers with the text typed, once', async () => {
    const { fake, command } = setup();
    fake.answerWith('line', { result: asked(ask) }).hold('answerUi');
    await command.runLine('/seeds ask');
    expect(command.pending).toEqual(ask);

    const answered = command.answerRequest('2');
    expect(command.answering).toBe(true);
    // A second answer while the first is on its way is not sent.
    await command.answerRequest('3');
    fake.worker.answer('answerUi', { result: { kind: 'said', text: 'Two packets.', by: 'shipped', deskEntries: { before: 1, after: 1 } } });
    await answered;

    expect(fake.sentOf('answerUi')).toEqual([{ type: 'answerUi', answer: { kind: 'input', id: 'ui-8', text: '2' } }]);
    expect(command.pending).toBeNull();
    expect(command.answering).toBe(false);
  });

  it('answering a select or input when none is pending sends nothing', async () => {
    const { fake, command } = setup();
    await command.answerRequest('basil-genovese');
    fake.answerWith('line', { result: asked(confirmBasil) });
    await command.runLine('/seeds reserve basil-genovese 2');
    // A confirmation is answered by Confirm or Cancel, not as a choice.
    await command.answerRequest('yes');
    expect(fake.sentTypes()).toEqual(['line']);
    expect(command.pending).toEqual(confirmBasil);
  });
});

describe('CommandLine: meanwhile, and the leaf stepping back', () => {
  it('`meanwhileReserve` sends the reservation, notes it (and its commit) with the extension that ran, and prints it', async () => {
    const { fake, command, facts } = setup();
    fake.answerWith('meanwhileReserve', (body) => ({
      result: {
        kind: 'committed',
        text: `Reserved ${body.packets} ${body.id}.`,
        change: { ...marigold, packets: body.packets },
        revision: 'session-1:entry-5',
        by: 'edited',
        deskEntries: { before: 1, after: 2 },
      },
    }));

    await command.meanwhileReserve(MEANWHILE_ITEM, 1);

    expect(fake.sent()).toEqual([{ type: 'meanwhileReserve', id: MEANWHILE_ITEM, packets: 1 }]);
    expect(facts.facts).toEqual([
      { kind: 'meanwhile', what: 'reserve', seq: 1, extension: 'edited' },
      { kind: 'committed', change: marigold, via: 'meanwhile', seq: 2, extension: 'edited' },
    ]);
    expect(printed(command)).toEqual([`committed (edited): Meanwhile, another action: Reserved 1 ${MEANWHILE_ITEM}.`]);
  });

  it('a refused `meanwhileReserve` is noted as the meanwhile action only', async () => {
    const { fake, command, facts } = setup();
    fake.answerWith('meanwhileReserve', {
      result: { kind: 'refused', code: 'insufficient-availability', text: 'Refused: none left.', change: marigold, by: 'shipped', deskEntries: { before: 1, after: 1 } },
    });
    await command.meanwhileReserve(MEANWHILE_ITEM, 1);
    expect(facts.facts).toEqual([{ kind: 'meanwhile', what: 'reserve', seq: 1, extension: 'shipped' }]);
    expect(printed(command)).toEqual(['refused: Meanwhile, another action: Refused: none left.']);
  });

  it('`stepBack` while a dialog waits is a meanwhile fact; as a navigation it notes the leaf the worker answered', async () => {
    const { fake, command, facts } = setup();
    fake.answerWith('stepBack', { result: { leafId: 'entry-3' } });

    await command.stepBack();
    await command.stepBack('The leaf moved back past the invalid entry.', 'navigated');

    expect(fake.sent()).toEqual([{ type: 'stepBack' }, { type: 'stepBack' }]);
    expect(facts.facts).toEqual([
      { kind: 'meanwhile', what: 'step-back', seq: 1, extension: 'shipped' },
      { kind: 'navigated', entryId: 'entry-3', seq: 2, extension: 'shipped' },
    ]);
    expect(printed(command)).toEqual(['info: Meanwhile, the session tree moved the leaf to the previous entry.', 'info: The leaf moved back past the invalid entry.']);
  });

  it('`stepBack` from the root notes a navigation to no entry', async () => {
    const { fake, command, facts } = setup();
    fake.answerWith('stepBack', { result: { leafId: null } });
    await command.stepBack('Back to the start.', 'navigated');
    expect(facts.facts).toEqual([{ kind: 'navigated', entryId: null, seq: 1, extension: 'shipped' }]);
  });
});
