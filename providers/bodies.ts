import * as z from 'zod';

/**
 * The parts of each provider's request body that its tool rules read, parsed once at the
 * boundary (a body comes from pi-ai, OMP or a browser: never trusted). Objects are `looseObject`:
 * a provider reads its own fields and the rest of the body is not ours to refuse here. A schema
 * (`parameters`, `input_schema`, …) stays `unknown`: each provider decodes it its own way.
 */

/** OpenAI chat completions, and every server that speaks it (Ollama, LM Studio, llama.cpp, OpenRouter). */
export const ChatToolSchema = z.looseObject({
  type: z.optional(z.unknown()),
  function: z.optional(z.unknown()),
});
export const ChatFunctionSchema = z.looseObject({
  name: z.optional(z.unknown()),
  description: z.optional(z.unknown()),
  parameters: z.optional(z.unknown()),
  strict: z.optional(z.unknown()),
});
export const ChatBodySchema = z.looseObject({
  model: z.optional(z.unknown()),
  messages: z.optional(z.unknown()),
  tools: z.optional(z.array(z.unknown())),
});

/** OpenAI Responses: a function tool's fields sit on the tool itself, no `function` wrapper. */
export const ResponsesToolSchema = z.looseObject({
  type: z.optional(z.unknown()),
  name: z.optional(z.unknown()),
  description: z.optional(z.unknown()),
  parameters: z.optional(z.unknown()),
  strict: z.optional(z.unknown()),
});
export const ResponsesBodySchema = z.looseObject({
  model: z.optional(z.unknown()),
  input: z.optional(z.unknown()),
  tools: z.optional(z.array(z.unknown())),
});

/** Anthropic Messages: `tools[].input_schema`. */
export const AnthropicToolSchema = z.looseObject({
  name: z.optional(z.unknown()),
  description: z.optional(z.unknown()),
  input_schema: z.optional(z.unknown()),
});
export const AnthropicBodySchema = z.looseObject({
  model: z.optional(z.unknown()),
  messages: z.optional(z.unknown()),
  tools: z.optional(z.array(z.unknown())),
});

/** Google Gemini generateContent: `tools[].functionDeclarations[]`. */
export const GoogleDeclarationSchema = z.looseObject({
  name: z.optional(z.unknown()),
  description: z.optional(z.unknown()),
  parameters: z.optional(z.unknown()),
  parametersJsonSchema: z.optional(z.unknown()),
});
export const GoogleBodySchema = z.looseObject({
  contents: z.optional(z.unknown()),
  tools: z.optional(z.array(z.looseObject({ functionDeclarations: z.optional(z.array(z.unknown())) }))),
});

/** A string field, or undefined when the body has none (or not a string). */
export function text(value: unknown): string | undefined {
  return typeof value === 'string' ? value : undefined;
}
