import { PageHostError } from './runPolicy';

type SupportModule = typeof import('./apiSupport');

// The API table is about 3.3 KiB gzip, which the worker's first chunk has no room for (its budget
// is 40 KiB): it is its own chunk, fetched as soon as the worker's code runs, while the store
// opens, and `ExtensionRuntime.load` waits for it before an extension's factory runs. No module
// of the worker imports it statically, or the bundler would put it back in the first chunk.
let support: SupportModule | null = null;
const supportLoaded = import('./apiSupport').then((module) => {
  support = module;
});

/** Resolves once the API table is here; every extension load waits for it. */
export function apiTableLoaded(): Promise<void> {
  return supportLoaded;
}

function table(): SupportModule {
  if (support === null) throw new Error('The extension API table is not loaded yet: ExtensionRuntime.load waits for it.');
  return support;
}

/** The table's sentence for a member that does not work (see apiSupport.ts), or null when it works. */
export function refusalFor(key: string): string | null {
  return table().refusalOf(key);
}

/** Whether OMP declares `key` (a key of the table). */
export function isTableKey(key: string): boolean {
  return key in table().API_SUPPORT;
}

/** Keys in the table directly under `prefix` (`ctx.ui` → `ctx.ui.custom()`, not `ctx.ui.x.y`), with whether each is a method. */
function membersUnder(prefix: string): { readonly name: string; readonly key: string; readonly method: boolean }[] {
  const found = [];
  for (const key of Object.keys(table().API_SUPPORT)) {
    if (!key.startsWith(`${prefix}.`)) continue;
    const rest = key.slice(prefix.length + 1);
    const method = rest.endsWith('()');
    const name = method ? rest.slice(0, -2) : rest;
    if (/^[A-Za-z_$][\w$]*$/.test(name)) found.push({ name, key, method });
  }
  return found;
}

/** A refused member under a prefix, with its throwing descriptor: the same for every ctx made. */
interface Refused {
  readonly name: string;
  readonly descriptor: PropertyDescriptor;
}

/** Per prefix, worked out once: a ctx is made for every run, and the table never changes once loaded. */
const refusedUnder = new Map<string, readonly Refused[]>();

function refusedMembers(prefix: string): readonly Refused[] {
  let refused = refusedUnder.get(prefix);
  if (refused === undefined) {
    refused = membersUnder(prefix).flatMap(({ name, key, method }) => {
      const refusal = refusalFor(key);
      if (refusal === null) return [];
      const refuse = (): never => {
        throw new PageHostError(refusal);
      };
      return [{ name, descriptor: method ? { value: refuse, enumerable: false } : { get: refuse, enumerable: false } }];
    });
    refusedUnder.set(prefix, refused);
  }
  return refused;
}

/**
 * Gives `target` every member the table lists under `prefix` that does not work in the page: a
 * method that throws its sentence when called, a property that throws it when read (not
 * enumerable, so spreading or logging the object does not throw). Nothing an extension calls
 * silently does nothing; what works is the target's own.
 */
export function withRefusals<T extends object>(prefix: string, target: T): T {
  for (const { name, descriptor } of refusedMembers(prefix)) Object.defineProperty(target, name, descriptor);
  return target;
}
