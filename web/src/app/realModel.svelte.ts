import * as z from 'zod/mini';
import { classifyFailure, notAllowed, redact, type ModelProblem } from '../model/modelErrors';
import { DEFAULT_CALL_LIMIT, runModelRequest, type LoopEnd, type LoopEvent, type LoopHost } from '../model/modelLoop';
import { originOf, PRESET_IDS, PRESETS, reachable, type ModelApi, type PresetId } from '../model/presets';
import { DEFAULT_REPLY_TOKENS, listModels, loadProvider, modelStream, somethingAnswers, type ModelSettings } from '../model/providers';
import type { ToolDetailsView } from '../protocol/messages';
import { modelSetup, REMEMBERED_MODEL_KEY } from './modelConfigured.svelte';
import { connectedText, endingText, errorText, parseJson, resultView, unrunText, type ModelCallView } from './modelTexts';
import { onePerPage } from './onePerPage';
import type { Playground } from './playground.svelte';

/** One tool call of the model's, as the page shows it: what it sent, what the model saw, what the host has. */
export interface ModelReplyView {
  readonly reply: number;
  /** The model's reasoning as it streamed (a reasoning model thinks before it answers). */
  thinking: string;
  text: string;
  calls: ModelCallView[];
}

/** The request a learner starts from: the lesson's agent request, in this page's words. */
export const LESSON_REQUEST = [
  'Call seed_desk with {"op":"query"} to see the fictional seed packets as they are now.',
  'If bean-scarlet has at least one packet available, reserve one packet of it, and send as expectedRevision exactly the revision that query returned.',
  'If seed_desk refuses, tell me why in your own words and query again before you decide whether to act again. Never resend a refused call unchanged.',
].join(' ');

/** Marked when a reply's first text arrives from the provider. */
export const FIRST_TOKEN_MARK = 'seed-desk:model-first-token';

const SYSTEM_PROMPT = 'You are a coding agent in a teaching playground. Use the seed_desk tool to do what the user asks; keep your answers short.';

const RememberedSchema = z.object({ preset: z.enum(PRESET_IDS), baseUrl: z.string(), model: z.string(), apiKey: z.string() });
const ModelListSchema = z.object({ data: z.array(z.object({ id: z.string() })) });

/**
 * The Real model section's state: the connection the learner set up, the request and its run.
 * The key lives in this object (memory) unless "Remember on this device" is checked; it is sent to
 * the provider and nowhere else: the worker, the journal and every text the page shows never get it.
 */
export class RealModel {
  preset = $state<PresetId>('ollama');
  #baseUrl = $state(PRESETS.ollama.baseUrl);
  model = $state('');
  apiKey = $state('');
  /** Why the key field was emptied (another provider, another address), shown while it is empty. */
  keyNotice = $state<string | null>(null);
  remember = $state(false);
  remembered = $state(false);
  models = $state.raw<readonly string[]>([]);
  /** The connection test's answer, or why a request could not start. */
  status = $state<{ readonly ok: boolean; readonly text: string } | null>(null);
  testing = $state(false);
  prompt = $state(LESSON_REQUEST);
  limit = $state(DEFAULT_CALL_LIMIT);
  /** The most tokens one reply may take, passed to the provider as `maxTokens`. */
  replyTokens = $state(DEFAULT_REPLY_TOKENS);
  running = $state(false);
  replies = $state<ModelReplyView[]>([]);
  /** How the last request ended, as a sentence. */
  ending = $state<{ readonly kind: LoopEnd['kind']; readonly text: string } | null>(null);
  readonly systemPrompt = SYSTEM_PROMPT;
  /** The tools as the last request's body carried them to the provider (each provider's own shape). */
  sentTools = $state<string | null>(null);
  private abort: AbortController | null = null;

  constructor(private readonly playground: Playground) {
    this.restore();
  }

  get baseUrl(): string {
    return this.#baseUrl;
  }

  /**
   * The key belongs to the address it was typed for: a Base URL on another origin (scheme, host,
   * port) empties it, so it is never sent anywhere the learner did not type it for.
   */
  set baseUrl(url: string) {
    if (this.apiKey !== '' && originOf(url) !== originOf(this.#baseUrl)) this.dropKey(`it was typed for ${originOf(this.#baseUrl) ?? 'the address before'}, and the Base URL now points elsewhere`);
    this.#baseUrl = url;
  }

  /** Another provider: its address, and no key: a key typed for one provider is never sent to another. */
  choosePreset(id: PresetId): void {
    if (id === this.preset) return;
    if (this.apiKey !== '') this.dropKey(`it was typed for ${PRESETS[this.preset].label}`);
    this.preset = id;
    this.baseUrl = PRESETS[id].baseUrl;
    this.models = [];
    this.status = null;
  }

  private dropKey(why: string): void {
    this.apiKey = '';
    this.keyNotice = `The API key field was emptied: ${why}, so paste the key for this address.`;
  }

  get settings(): ModelSettings {
    return { preset: this.preset, baseUrl: this.baseUrl.trim(), model: this.model.trim(), apiKey: this.apiKey.trim() };
  }

  /** Why nothing can be sent yet, or null. */
  private missing(needModel: boolean): ModelProblem | null {
    const { baseUrl, model, apiKey } = this.settings;
    if (baseUrl === '') return { kind: 'other', text: 'Give the provider\'s base URL first (for an OpenAI-compatible server, the address that ends in /v1).' };
    if (!reachable(baseUrl)) return notAllowed(baseUrl);
    if (PRESETS[this.preset].needsKey && apiKey === '') return { kind: 'unauthorized', text: `${PRESETS[this.preset].label} needs an API key: paste yours into "API key" (it stays on this page).` };
    if (needModel && model === '') return { kind: 'unknown-model', text: 'Name a model first ("Test connection" lists the ones this provider has).' };
    return null;
  }

  async testConnection(): Promise<void> {
    const missing = this.missing(false);
    if (missing) return void (this.status = { ok: false, text: missing.text });
    this.testing = true;
    this.status = null;
    const settings = this.settings;
    try {
      let response: Response;
      try {
        response = await listModels(settings, AbortSignal.timeout(10_000));
      } catch (error) {
        return void (this.status = { ok: false, text: (await this.explain(settings, errorText(error), false)).text });
      }
      if (!response.ok) {
        const body = await response.text().catch(() => '');
        return void (this.status = { ok: false, text: (await this.explain(settings, `${response.status} ${body}`, false)).text });
      }
      const parsed = ModelListSchema.safeParse(await response.json().catch(() => null));
      this.models = parsed.success ? parsed.data.data.map((entry) => entry.id) : [];
      // On this computer the first model listed is one the learner installed; a hosted provider's
      // first can be a non-chat or the most expensive model, so there the learner picks.
      const hosted = PRESETS[settings.preset].paid;
      if (!hosted && this.model === '' && this.models.length > 0) this.model = this.models[0] ?? '';
      this.status = {
        ok: true,
        text: parsed.success ? connectedText(this.models, hosted && this.model === '') : 'Connected, but this provider does not list its models here: type the model\'s name.',
      };
      modelSetup.configured = true;
      this.store();
    } finally {
      this.testing = false;
    }
  }

  /** Runs the request against the model; the reply streams into `replies`. */
  async ask(): Promise<void> {
    if (this.running) return;
    const missing = this.missing(true);
    if (missing) return void (this.ending = { kind: 'provider', text: missing.text });
    if (this.prompt.trim() === '') return void (this.ending = { kind: 'provider', text: 'Write a request for the model first.' });
    const settings = this.settings;
    this.running = true;
    this.ending = null;
    this.replies = [];
    this.sentTools = null;
    const abort = (this.abort = new AbortController());
    try {
      const [provider, tools] = await Promise.all([loadProvider(PRESETS[settings.preset].api), this.playground.connection.call({ type: 'modelTools' })]);
      let started = false;
      const replyTokens = this.replyTokens;
      const api = PRESETS[settings.preset].api;
      const stream = modelStream(
        provider,
        settings,
        {
          started: () => (started = true),
          sentTools: (tools) => (this.sentTools = tools === undefined ? null : JSON.stringify(tools, null, 2)),
        },
        replyTokens,
      );
      const end = await runModelRequest({
        prompt: this.prompt.trim(),
        systemPrompt: SYSTEM_PROMPT,
        tools,
        stream: (context, signal) => ((started = false), stream(context, signal)),
        host: this.host(settings.apiKey),
        signal: abort.signal,
        limit: this.limit,
        onEvent: (event) => this.show(event, api),
        explain: (message) => this.explain(settings, message, started),
      });
      modelSetup.configured = true;
      this.ending = { kind: end.kind, text: redact(endingText(end, this.limit, replyTokens), settings.apiKey) };
    } catch (error) {
      this.ending = { kind: 'host', text: redact(`The request could not run: ${errorText(error)}`, settings.apiKey) };
    } finally {
      this.running = false;
      this.abort = null;
    }
  }

  stop(): void {
    this.abort?.abort();
  }

  forget(): void {
    localStorage.removeItem(REMEMBERED_MODEL_KEY);
    this.remembered = false;
    this.remember = false;
    this.apiKey = '';
  }

  setRemember(remember: boolean): void {
    this.remember = remember;
    if (remember) this.store();
    else this.forget();
  }

  private host(key: string): LoopHost {
    return {
      record: (message) =>
        this.playground.connection.call({
          type: 'modelMessage',
          // A provider's error text may echo what it was sent: the key is taken out before it is recorded.
          message: message.role === 'assistant' && message.errorMessage !== undefined ? { ...message, errorMessage: redact(message.errorMessage, key) } : message,
        }),
      call: (ref, args) => this.playground.tool.callToEnd(args, false, ref),
      // The worker fires the agent events around the run (worker/omp/agentRun.ts).
      // The worker hears which model (for the extension's `ctx.model`), never its address or key.
      start: (prompt, systemPrompt) => this.playground.connection.call({ type: 'agentStart', prompt, systemPrompt, model: { provider: this.settings.preset, id: this.settings.model, api: PRESETS[this.settings.preset].api } }),
      end: async () => void (await this.playground.connection.call({ type: 'agentEnd' })),
    };
  }

  private show(event: LoopEvent, api: ModelApi): void {
    switch (event.type) {
      case 'reply':
        this.replies.push({ reply: event.reply, thinking: '', text: '', calls: [] });
        return;
      case 'thinking': {
        const reply = this.replies.at(-1);
        if (reply) reply.thinking += event.delta;
        return;
      }
      case 'text': {
        const reply = this.replies.at(-1);
        if (!reply) return;
        // `npm run bench` times from this mark to the text on the page (frames), in the page.
        if (reply.text === '') performance.mark(FIRST_TOKEN_MARK);
        reply.text += event.delta;
        return;
      }
      case 'call':
        this.replies.at(-1)?.calls.push({ id: event.id, name: event.name, args: event.args, modelSaw: null, hostHas: null, failed: null });
        return;
      case 'unrun': {
        const reply = this.replies.find((each) => each.reply === event.reply);
        const failed = unrunText(event.why);
        if (reply) reply.calls = reply.calls.map((call) => (event.ids.includes(call.id) && call.modelSaw === null ? { ...call, failed } : call));
        return;
      }
      case 'result': {
        const reply = this.replies.at(-1);
        const index = reply?.calls.findIndex((call) => call.id === event.id) ?? -1;
        if (!reply || index < 0) return;
        reply.calls[index] = { ...reply.calls[index]!, ...resultView(event.outcome, event.modelSaw, api) };
        return;
      }
    }
  }

  private async explain(settings: ModelSettings, message: string, streamStarted: boolean): Promise<ModelProblem> {
    const problem = await classifyFailure({ message, streamStarted, probe: () => somethingAnswers(settings.baseUrl) }, PRESETS[settings.preset], settings.model, location.origin, settings.baseUrl);
    return { ...problem, text: redact(problem.text, settings.apiKey) };
  }

  private store(): void {
    if (!this.remember) return;
    localStorage.setItem(REMEMBERED_MODEL_KEY, JSON.stringify(this.settings));
    this.remembered = true;
  }

  private restore(): void {
    const parsed = RememberedSchema.safeParse(parseJson(localStorage.getItem(REMEMBERED_MODEL_KEY)));
    if (!parsed.success) return;
    ({ preset: this.preset, baseUrl: this.baseUrl, model: this.model, apiKey: this.apiKey } = parsed.data);
    this.remember = true;
    this.remembered = true;
  }
}

/** The page's one Real model state: the Agents tab shows it, and the lesson's "Ask a real model" drives the same run. */
export const realModelOf = onePerPage((playground) => new RealModel(playground));
