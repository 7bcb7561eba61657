/**
 * The Real model section's sentences built from facts: how a reply cut at its token cap ends, what
 * the model was told about an error result on each API (issue 36: only Anthropic's has a flag).
 */
import { describe, expect, it } from 'vitest';
import { connectedText, endingText, errorFlagText, unrunText } from './modelTexts';

describe('endingText for a reply cut at the reply token limit', () => {
  it('names the limit, the half-written call that did not run, and what to do', () => {
    expect(endingText({ kind: 'length', calls: 1, unrun: 1 }, 8, 4096)).toBe(
      'The reply reached the reply token limit (4096 tokens) before it finished, after 1 tool call: the tool call it was writing was not run, and what it had written is in the journal; raise "Reply token limit" or ask for less, then ask again.',
    );
    expect(endingText({ kind: 'length', calls: 0, unrun: 2 }, 8, 512)).toContain('the 2 tool calls it was writing were not run');
    expect(endingText({ kind: 'length', calls: 0, unrun: 0 }, 8, 512)).toContain('after 0 tool calls: what it had written is in the journal');
    expect(unrunText('length')).toContain('reached its token limit');
  });
});

describe('errorFlagText: what the model was told of an error result', () => {
  it('on an OpenAI-compatible API, that the tool message has no error flag; on Anthropic, is_error', () => {
    expect(errorFlagText('openai-completions')).toBe('the host counts this as an error, but an OpenAI-compatible tool message has no error flag: the model was sent this text only');
    expect(errorFlagText('openai-completions')).not.toContain('sent as an error result');
    expect(errorFlagText('anthropic-messages')).toContain('is_error: true');
  });
});

describe('connectedText', () => {
  it('asks the learner to pick on a hosted provider, and only there', () => {
    expect(connectedText(['a', 'b'], true)).toContain('pick one in "Model"');
    expect(connectedText(['a', 'b'], false)).toBe('Connected: 2 models at this address (a, b).');
  });
});
