export const SUMMARY_TAGS: Record<string, string>;
export interface LoadFigures {
  tests: number;
  passed: number;
  commits: number;
  tabs: number;
  lost: number;
  doubled: number;
  reported: number;
}
export function summarize(reports?: { unit?: unknown; e2e?: unknown; demos?: unknown }): { lines: string[]; load: LoadFigures };
