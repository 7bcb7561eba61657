/**
 * An own extension's script on the real OMP (Bun): the differential's RealRunner, with the steps
 * only own scripts use (OMP's /fork, /branch, a switch back, a scripted model's turn) and every UI
 * request answered from the script's answers. Each step's trace adds the open session, the UI
 * requests the step made and the custom entries on the branch (`own`).
 *
 * A turn is `session.prompt` with pi-ai's mock model in the session (OMP's own agent loop: it fires
 * before_agent_start, agent_start, turn_start/turn_end per model reply, tool_call, tool_result,
 * agent_end); the model replies as `ScriptedTurns` says and keeps the system prompt it was sent.
 */
import type { NotedStep } from './hostNotes';
import type { Harness, MockReplyContext, OpenOptions } from './ompTypes';
import { Answers, CLOSING, customOnBranch, isHostRecord, messageText, shownIds, TURN_CALL } from './ownSteps';
import { isUserMessage } from './realReads';
import { RealRunner } from './realRunner';
import { Seen } from './runnerKit';
import { appendedName, type Outcome, type Said, type Step } from './script';

type TurnStep = Extract<Step, { turn: unknown }>;

/** The scripted model of a turn step: its one tool call (if the step names one), then the closing text. */
export class ScriptedTurns {
  private call: TurnStep['call'] | null = null;
  private calls = 0;
  /** The system prompt of every request, in order. */
  readonly systemPrompts: string[] = [];

  start(step: TurnStep): void {
    this.call = step.call ?? null;
  }

  reply(context: MockReplyContext): { content: unknown[] } {
    const prompt = context.systemPrompt;
    this.systemPrompts.push(Array.isArray(prompt) ? prompt.map(String).join('\n\n') : String(prompt ?? ''));
    const last = context.messages.at(-1);
    if (this.call && last?.role === 'user') return { content: [{ type: 'toolCall', id: `${TURN_CALL}${++this.calls}`, name: this.call.name, arguments: this.call.args }] };
    return { content: [CLOSING] };
  }
}

/** What a turn's requests carried beyond the host's own system prompt (each of its parts taken out). */
function addedTo(base: readonly string[], sent: string): string {
  if (!base.every((part) => sent.includes(part))) return `(the host's system prompt was replaced: ${sent.length} characters)`;
  return base.reduce((rest, part) => rest.replace(part, ''), sent).trim();
}

export class OwnRealRunner extends RealRunner {
  /** The session file open at each mark, for `switchTo`. */
  private readonly sessionAt = new Map<string, string | undefined>();
  readonly entries = new Seen();

  constructor(
    h: Harness,
    runDir: string,
    dir: (name: string) => string,
    readonly answers: Answers,
    private readonly turns: ScriptedTurns,
    /** The own extension's module: a reopen is a new process that loads it again, with the scripted model. */
    private readonly extensionFile: string,
  ) {
    super(h, runDir, dir);
    this.entries.add(shownIds(h.sm.getEntries()));
  }

  protected override variant(): Pick<OpenOptions, 'extensionFile' | 'mockModel'> {
    return { extensionFile: this.extensionFile, mockModel: (context) => this.turns.reply(context) };
  }

  protected override confirmAnswer(title: string): boolean {
    return this.answers.confirm(this.h.ui.requests.at(-1) ?? { kind: 'confirm', title, message: '' });
  }

  private answerFromScript(): void {
    const h = this.h;
    h.answers = {
      confirm: () => this.answers.confirm(h.ui.requests.at(-1)!),
      select: () => this.answers.text(h.ui.requests.at(-1)!),
      input: () => this.answers.text(h.ui.requests.at(-1)!),
    };
  }

  override async step(step: Step, label?: string): Promise<NotedStep> {
    this.answerFromScript();
    const askedFrom = this.h.ui.requests.length;
    if ('mark' in step) this.sessionAt.set(step.mark, this.h.sm.getSessionFile());
    const noted = 'fork' in step || 'branch' in step || 'switchTo' in step || 'turn' in step ? await this.ownStep(step, label) : await super.step(step, label);
    const h = this.h;
    this.entries.add(shownIds(h.sm.getEntries()));
    return { ...noted, own: { session: h.sm.getSessionId(), asked: h.ui.requests.slice(askedFrom), custom: customOnBranch(h.sm.getBranch()) } };
  }

  private async ownStep(step: Extract<Step, { fork: unknown } | { branch: unknown } | { switchTo: unknown } | { turn: unknown }>, label?: string): Promise<NotedStep> {
    const h = this.h;
    const saidFrom = h.ui.said.length;
    const before = new Set(h.sm.getEntries().map((entry) => entry.id));
    let outcome: Outcome = { kind: 'none' };
    if ('fork' in step) {
      await h.session.fork();
    } else if ('branch' in step) {
      const message = [...h.sm.getBranch()].reverse().find((entry) => isUserMessage(entry) && messageText((entry['message'] as { content?: unknown }).content) === step.branch);
      // Nowhere to branch from (the session has no such message) is an outcome, as on the page's side.
      outcome = { kind: 'move', moved: message !== undefined };
      if (message) await h.session.branch(message.id);
    } else if ('switchTo' in step) {
      const file = this.sessionAt.get(step.switchTo);
      if (file === undefined) throw new Error(`no session file at mark ${step.switchTo}`);
      await h.session.switchSession(file);
    } else {
      const from = this.turns.systemPrompts.length;
      this.turns.start(step);
      await h.session.prompt(step.turn);
      const results = h.sm.getEntries().filter((entry) => !before.has(entry.id) && entry.type === 'message' && (entry['message'] as { role?: unknown }).role === 'toolResult');
      const sent = this.turns.systemPrompts.slice(from);
      outcome = {
        kind: 'turn',
        calls: results.map((entry) => {
          const message = entry['message'] as { isError?: unknown; content?: unknown };
          return { isError: message.isError === true, text: messageText(message.content) };
        }),
        systemPromptAdded: [...new Set(sent.map((prompt) => addedTo(h.session.systemPrompt, prompt)))].join('\n---\n'),
      };
    }
    const said: Said[] = h.ui.said.slice(saidFrom);
    const appended = h.sm.getEntries().filter((entry) => !before.has(entry.id) && !isHostRecord(entry)).flatMap((entry) => appendedName(entry) ?? []);
    this.note(h);
    return this.trace(step, label, { dialog: null, said, outcome, appended });
  }
}
