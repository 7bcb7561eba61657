import '$domain/zodSetup';
import * as z from 'zod/mini';

/**
 * A real model's turn as the page hands it to the host: the learner's request, each assistant
 * message (its text and tool calls, as the provider streamed them), and the tools the running
 * extension offers a model. The tool results are not here: they are the host's own, recorded by
 * the `toolCall` request that ran the call. The key and the address never cross: the worker holds
 * neither.
 */

export const ModelToolCallSchema = z.object({
  type: z.literal('toolCall'),
  id: z.string().check(z.minLength(1), z.maxLength(200)),
  name: z.string().check(z.minLength(1), z.maxLength(200)),
  arguments: z.record(z.string(), z.unknown()),
});
export type ModelToolCall = z.infer<typeof ModelToolCallSchema>;

const AssistantPartSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('text'), text: z.string() }),
  z.object({ type: z.literal('thinking'), thinking: z.string() }),
  ModelToolCallSchema,
]);

/** pi-ai's stop reasons: `toolUse` asks for the calls' results; `error` and `aborted` end the turn. */
export const MODEL_STOP_REASONS = ['stop', 'length', 'toolUse', 'error', 'aborted'] as const;

export const ModelMessageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), text: z.string().check(z.minLength(1)) }),
  z.object({
    role: z.literal('assistant'),
    content: z.array(AssistantPartSchema),
    stopReason: z.enum(MODEL_STOP_REASONS),
    /** Which API, provider and model answered, as OMP records them. */
    api: z.string(),
    provider: z.string(),
    model: z.string(),
    usage: z.object({ input: z.number(), output: z.number() }),
    errorMessage: z.optional(z.string()),
  }),
]);
export type ModelMessage = z.infer<typeof ModelMessageSchema>;
export type AssistantModelMessage = Extract<ModelMessage, { role: 'assistant' }>;

export const ModelRecordSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('recorded'), entryId: z.string() }),
  z.object({ kind: z.literal('failed'), text: z.string() }),
]);
export type ModelRecord = z.infer<typeof ModelRecordSchema>;

/** A tool the running extension registered, as the host offers it to a model: name, description, JSON Schema. */
export const ModelToolSchema = z.object({ name: z.string(), description: z.string(), parameters: z.record(z.string(), z.unknown()) });
export type ModelTool = z.infer<typeof ModelToolSchema>;

/** The call a model made: its id and the tool's name, so the host records the result against it. */
export const ModelCallRefSchema = z.object({ id: ModelToolCallSchema.shape.id, name: ModelToolCallSchema.shape.name });
export type ModelCallRef = z.infer<typeof ModelCallRefSchema>;
