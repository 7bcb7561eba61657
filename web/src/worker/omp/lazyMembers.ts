type Chunk = typeof import('./lazyMembersChunk');

// As the API table (apiRefusals.ts): fetched as soon as the worker's code runs, and
// `ExtensionRuntime.load` waits for it before an extension's factory runs, so every member that
// reads it finds it here. No module of the worker imports the chunk statically.
let chunk: Chunk | null = null;
const loaded = import('./lazyMembersChunk').then((module) => {
  chunk = module;
});

/** Resolves once the chunk is here; every extension load waits for it. */
export function lazyMembersLoaded(): Promise<void> {
  return loaded;
}

/** `pi.logger`, the managed timers, the usage sum: only once an extension is loading. */
export function lazyMembers(): Chunk {
  if (chunk === null) throw new Error('The extension members chunk is not loaded yet: ExtensionRuntime.load waits for it.');
  return chunk;
}
