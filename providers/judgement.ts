/**
 * What every provider's rules answer, and the small helpers they share. Kept apart from
 * `index.ts` so each provider's module imports the types without importing the dispatch.
 */

export type ProviderKind = 'openai-chat' | 'openai-responses' | 'anthropic' | 'google' | 'ollama-native' | 'ollama-openai' | 'lmstudio' | 'llamacpp' | 'openrouter';

/** A tool as the MODEL is told it, after the provider's own decoding of the request body. */
export interface ToolAsTold {
  readonly name: string;
  readonly description?: string;
  readonly parameters: unknown;
}

export type Judgement =
  | { readonly accepted: true; readonly tools: ToolAsTold[] }
  /** `body`: the provider's real error body (its JSON text), as its server writes it. */
  | { readonly accepted: false; readonly status: number; readonly body: string };

/** What a request body alone does not say about the provider's side. */
export interface JudgeContext {
  /** OpenRouter: whether any endpoint of the requested model supports tool use (default true). */
  readonly modelSupportsTools?: boolean;
}

export type JsonObject = { readonly [key: string]: unknown };

export function isObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** A refusal; `indent` where the server writes its JSON indented (OpenAI's is, two spaces). */
export function refused(status: number, body: unknown, indent?: number): Judgement {
  return { accepted: false, status, body: JSON.stringify(body, null, indent) };
}

export function accepted(tools: ToolAsTold[]): Judgement {
  return { accepted: true, tools };
}

/** A tool as told, without an `undefined` description (so `toEqual` compares what a server would print). */
export function told(name: string, description: string | undefined, parameters: unknown): ToolAsTold {
  return description === undefined ? { name, parameters } : { name, description, parameters };
}
