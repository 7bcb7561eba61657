/**
 * The members an extension may use that the worker's first chunk has no room for (its budget is
 * WORKER_BUDGET, scripts/budget.mjs): one chunk of their own, fetched with the API table while the
 * store opens (lazyMembers.ts). Import them only through `lazyMembers()`, never statically.
 */
export { pageLogger } from './pageLogger';
export { ManagedTimers } from './managedTimers';
export { usageOf } from './usageStatistics';
