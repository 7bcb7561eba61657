import type { HostEntry } from '../../../../extension/ompApi';

/** session-entries.ts `UsageStatistics`. */
export interface UsageStatistics {
  input: number;
  output: number;
  cacheRead: number;
  cacheWrite: number;
  totalTokens: number;
  orchestrationInput: number;
  orchestrationOutput: number;
  orchestrationCacheRead: number;
  premiumRequests: number;
  cost: number;
}

/**
 * session-manager.ts `SessionEntryIndex` (`entryUsage`, `addUsage`): every assistant message's
 * `usage`, summed over every entry of the session, all branches (the page has no `model_usage`
 * entries or `task` tool). A field an imported file leaves out counts 0, where OMP's sum would
 * turn to NaN.
 */
export function usageOf(entries: readonly HostEntry[]): UsageStatistics {
  const total: UsageStatistics = { input: 0, output: 0, cacheRead: 0, cacheWrite: 0, totalTokens: 0, orchestrationInput: 0, orchestrationOutput: 0, orchestrationCacheRead: 0, premiumRequests: 0, cost: 0 };
  const count = (value: unknown): number => (typeof value === 'number' && Number.isFinite(value) ? value : 0);
  for (const entry of entries) {
    const message = (entry as { type: string; message?: { role?: unknown; usage?: unknown } }).message;
    if (entry.type !== 'message' || message?.role !== 'assistant' || typeof message.usage !== 'object' || message.usage === null) continue;
    const usage = message.usage as Record<string, unknown> & { orchestration?: Record<string, unknown>; cost?: Record<string, unknown> };
    total.input += count(usage.input);
    total.output += count(usage.output);
    total.cacheRead += count(usage.cacheRead);
    total.cacheWrite += count(usage.cacheWrite);
    total.totalTokens += count(usage.totalTokens);
    total.orchestrationInput += count(usage.orchestration?.input);
    total.orchestrationOutput += count(usage.orchestration?.output);
    total.orchestrationCacheRead += count(usage.orchestration?.cacheRead);
    total.premiumRequests += count(usage.premiumRequests);
    total.cost += count(usage.cost?.total);
  }
  return total;
}
