import { judgeOpenAIChat, judgeOpenAIResponses } from './openai';
import { refused, type Judgement, type JudgeContext } from './judgement';

/**
 * OpenRouter (/api/v1/chat/completions): it routes the request to an endpoint of the model that
 * supports what the request uses, and passes the tools on to that provider.
 *
 * - A model with no endpoint that supports tool use is refused before anything is routed,
 *   404, word for word: `{"error":{"message":"No endpoints found that support tool use. To learn
 *   more about provider routing, visit: https://openrouter.ai/docs/provider-routing","code":404}}`
 *   (evalstate/fast-agent#122, pydantic/pydantic-ai#2896; the page's model name is not the cause).
 * - Otherwise the upstream provider judges the tools. We apply OpenAI's chat rules, the strictest
 *   of its upstreams for the root (issue 35: OpenRouter with an OpenAI model is refused with
 *   OpenAI's `type: "None"` message), and wrap the refusal as OpenRouter reports a provider's
 *   error: `{"error":{"message":"Provider returned error","code":400,"metadata":{"raw":"<OpenAI's body, indented JSON text>","provider_name":"OpenAI"}}}`
 *   (https://openrouter.ai/docs/api-reference/errors; a real one with OpenAI's `invalid_request_error`
 *   in `raw`: reVrost/go-openrouter#21).
 * - /api/v1/responses (its Responses API, which OMP uses for OpenRouter unless
 *   PI_OPENROUTER_RESPONSES=0: @oh-my-pi/pi-ai `stream.ts`): a body with `input` and no
 *   `messages` carries Responses-shaped tools, judged by OpenAI's Responses rules
 *   (https://openrouter.ai/docs/api-reference/responses-api/overview).
 */
export function judgeOpenRouter(body: unknown, context: JudgeContext = {}): Judgement {
  const tools = typeof body === 'object' && body !== null && 'tools' in body ? (body as { tools?: unknown }).tools : undefined;
  if (context.modelSupportsTools === false && Array.isArray(tools) && tools.length > 0) {
    return refused(404, { error: { message: 'No endpoints found that support tool use. To learn more about provider routing, visit: https://openrouter.ai/docs/provider-routing', code: 404 } });
  }
  const responses = typeof body === 'object' && body !== null && 'input' in body && !('messages' in body);
  const upstream = responses ? judgeOpenAIResponses(body) : judgeOpenAIChat(body);
  if (upstream.accepted) return upstream;
  return refused(upstream.status, { error: { message: 'Provider returned error', code: upstream.status, metadata: { raw: JSON.stringify(JSON.parse(upstream.body), null, 2), provider_name: 'OpenAI' } } });
}
