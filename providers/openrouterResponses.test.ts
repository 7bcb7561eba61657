import { describe, expect, it } from 'vitest';
import { judgeRequest } from './index';
import { DESCRIPTION, FLAT_SCHEMA, UNION_SCHEMA } from './seedDeskSchemas.testkit';

/**
 * OpenRouter's Responses endpoint (/api/v1/responses), which OMP 18.2.3 uses for OpenRouter: the
 * tools sit on the tool itself (no `function` wrapper), as in OpenAI's Responses API.
 */
const body = (parameters: unknown, strict = true) => ({
  model: 'openai/gpt-4.1-mini',
  input: [{ role: 'user', content: 'Reserve one packet.' }],
  stream: true,
  tools: [{ type: 'function', name: 'seed_desk', description: DESCRIPTION, parameters, strict }],
});

describe('OpenRouter, Responses API body', () => {
  it('refuses a root union with the upstream OpenAI refusal for tools[0].parameters, wrapped as a provider error', () => {
    const judgement = judgeRequest('openrouter', body(UNION_SCHEMA));
    if (judgement.accepted) throw new Error('accepted');
    const wrapped = JSON.parse(judgement.body) as { error: { message: string; metadata: { raw: string } } };
    expect(wrapped.error.message).toBe('Provider returned error');
    expect(JSON.parse(wrapped.error.metadata.raw).error.param).toBe('tools[0].parameters');
  });

  it('accepts a flat object schema sent without strict (strict is judged where sent: rules.test.ts) and tells the model the tool as sent', () => {
    const judgement = judgeRequest('openrouter', body(FLAT_SCHEMA, false));
    expect(judgement.accepted && judgement.tools.map((tool) => tool.name)).toEqual(['seed_desk']);
  });
});
