import type { StoreFault } from '../protocol/vocabularies';

/**
 * How a store's work fails: the one error its callers see, a browser's storage error in words,
 * and the demo's injected faults (JournalStore.injectFault, applied by storeWriter.ts).
 */

export class StorageFailure extends Error {
  constructor(message: string, cause?: unknown) {
    super(message, { cause });
  }
}

export function describeStorageError(error: unknown): string {
  if (error instanceof DOMException) {
    if (error.name === 'QuotaExceededError') return `The browser refused to store more data (quota exceeded): ${error.message}`;
    if (error.name === 'AbortError') return `The storage transaction was aborted: ${error.message}`;
    if (error.name === 'InvalidStateError') return `The database was closed underneath this tab: ${error.message}`;
    if (error.name === 'ConstraintError') return `An entry with this id is already stored: ${error.message}`;
    return `${error.name}: ${error.message}`;
  }
  return error instanceof Error ? error.message : String(error);
}

/** An injected `abort` or `quota`: the transaction is aborted after its writes, with the error the browser would give. */
export function failDeliberately(tx: IDBTransaction, fault: Exclude<StoreFault, 'close'>): never {
  tx.abort();
  throw fault === 'quota'
    ? new DOMException('The quota has been exceeded (injected for the demo).', 'QuotaExceededError')
    : new DOMException('The transaction was aborted (injected for the demo).', 'AbortError');
}
