export const MAIN_BUDGET: number;
export const WORKER_BUDGET: number;
export function initialScripts(dist?: string): string[];
export function measureBudgets(dist?: string): {
  main: { path: string; gzip: number }[];
  workers: { path: string; gzip: number }[];
  mainTotal: number;
  workerTotal: number;
};
export function lazyScripts(dist?: string): Set<string>;
export function workerScripts(dist?: string): Set<string>;
