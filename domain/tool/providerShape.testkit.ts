import { expect } from 'vitest';
import { SEED_DESK_OPS } from './schema';

/**
 * What every provider needs of seed_desk's parameters (issue 35; reference §10): one root
 * `type: "object"` with no root combinator (OpenAI and LM Studio refuse a root oneOf/anyOf, Ollama
 * keeps only type/properties/required), `op` a string enum, closed, only `op` required. Used on the
 * zod schema's JSON Schema, the file, and what the extension registers.
 */
export function expectProviderShape(schema: Readonly<Record<string, unknown>>): void {
  expect(schema['type']).toBe('object');
  for (const combinator of ['oneOf', 'anyOf', 'allOf']) expect(schema).not.toHaveProperty(combinator);
  expect(schema['additionalProperties']).toBe(false);
  expect(schema['required']).toEqual(['op']);
  const properties = schema['properties'] as Readonly<Record<string, Readonly<Record<string, unknown>>>> | undefined;
  expect(properties?.['op']).toMatchObject({ type: 'string', enum: [...SEED_DESK_OPS] });
}
