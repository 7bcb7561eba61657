import { judgeAnthropic } from './anthropic';
import { judgeGoogle } from './google';
import { judgeLlamaCpp } from './llamacpp';
import { judgeLmStudio } from './lmstudio';
import { judgeOllamaNative, judgeOllamaOpenAI } from './ollama';
import { judgeOpenAIChat, judgeOpenAIResponses } from './openai';
import { judgeOpenRouter } from './openrouter';
import type { JudgeContext, Judgement, ProviderKind } from './judgement';

export type { JudgeContext, Judgement, ProviderKind, ToolAsTold } from './judgement';
export { seedDeskToldEnough, SEED_DESK_OP_NAMES, SEED_DESK_ACT_FIELDS } from './toldEnough';

/**
 * The providers' published rules for a request's tools, as code: each provider's module cites
 * where its rules come from. A body is judged as that provider's server judges it: refused with
 * its real status and error body, or accepted with the tools as its model is told them.
 */
export const PROVIDER_KINDS: readonly ProviderKind[] = ['openai-chat', 'openai-responses', 'anthropic', 'google', 'ollama-native', 'ollama-openai', 'lmstudio', 'llamacpp', 'openrouter'];

export function judgeRequest(kind: ProviderKind, body: unknown, context: JudgeContext = {}): Judgement {
  switch (kind) {
    case 'openai-chat':
      return judgeOpenAIChat(body);
    case 'openai-responses':
      return judgeOpenAIResponses(body);
    case 'anthropic':
      return judgeAnthropic(body);
    case 'google':
      return judgeGoogle(body);
    case 'ollama-native':
      return judgeOllamaNative(body);
    case 'ollama-openai':
      return judgeOllamaOpenAI(body);
    case 'lmstudio':
      return judgeLmStudio(body);
    case 'llamacpp':
      return judgeLlamaCpp(body);
    case 'openrouter':
      return judgeOpenRouter(body, context);
  }
}
