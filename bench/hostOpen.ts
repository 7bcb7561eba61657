/**
 * Runs under the real host's Bun (host-test/.omp, installed by `npm run test:host`), started by
 * bench/import.bench.ts: times the real host's `SessionManager.open` on each file given, the way
 * host-test/omp.ts opens a session file (`SessionManager.open(file)`), and prints one JSON line
 * `{ "<file>": { "first": ms, "again": [ms, …] } }`: the first open in this process (as a user's
 * one open is: nothing warmed up but the modules) and HOST_OPEN_AGAIN more, each closed again
 * before the next (untimed). Module loading is not timed.
 */
import { fileURLToPath } from 'node:url';

interface HostSessionManager {
  getEntries(): unknown[];
  close(): Promise<void>;
}
interface Sdk {
  SessionManager: { open(filePath: string): Promise<HostSessionManager> };
}

const OMP_DIR = fileURLToPath(new URL('../host-test/.omp', import.meta.url));
const AGAIN = Number(process.env['HOST_OPEN_AGAIN'] ?? 0);

/** Bun's resolver knows the host package's `exports` map ("import" condition only). */
const bun = (globalThis as { Bun?: { resolveSync(specifier: string, from: string): string } }).Bun;
if (!bun) throw new Error('bench/hostOpen.ts runs under Bun (the host’s own runtime): see bench/import.bench.ts');
const sdk = (await import(bun.resolveSync('@oh-my-pi/pi-coding-agent', OMP_DIR))) as unknown as Sdk;

const results: Record<string, { first: number; again: number[] }> = {};
for (const file of process.argv.slice(2)) {
  const times: number[] = [];
  for (let round = 0; round <= AGAIN; round++) {
    const start = performance.now();
    const manager = await sdk.SessionManager.open(file);
    times.push(performance.now() - start);
    if (manager.getEntries().length === 0) throw new Error(`the host read no entries from ${file}`);
    await manager.close();
  }
  results[file] = { first: times[0] ?? Number.NaN, again: times.slice(1) };
}
console.log(JSON.stringify(results));
// The host keeps timers alive (settings, telemetry); the answer is printed, so leave.
process.exit(0);
