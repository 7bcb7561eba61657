/**
 * Runs under Bun only. Imports the real OMP host (installed in host-test/.omp by
 * scripts/test-host.mjs) and the built extension, once per process, and one model registry for
 * every session of the run.
 */
import { fileURLToPath } from 'node:url';
import type { ExtensionFactory, Loaded, MockModule, Runtime, Sdk, ValidateToolArguments } from './ompTypes';

export const OMP_DIR = fileURLToPath(new URL('./.omp', import.meta.url));
export const EXTENSION_FILE = fileURLToPath(new URL('../extension/dist/seed-desk.js', import.meta.url));

let loaded: Promise<Loaded> | undefined;

async function importFromOmp(specifier: string): Promise<Record<string, unknown>> {
  return (await import(Bun.resolveSync(specifier, OMP_DIR))) as Record<string, unknown>;
}

/** The host modules and the extension's default export, imported once per process. */
export function loadHost(): Promise<Loaded> {
  loaded ??= (async () => {
    const [sdk, runtime, bus, validation, mock, extension] = await Promise.all([
      importFromOmp('@oh-my-pi/pi-coding-agent'),
      importFromOmp('@oh-my-pi/pi-coding-agent/modes/runtime-init'),
      importFromOmp('@oh-my-pi/pi-coding-agent/utils/event-bus'),
      importFromOmp('@oh-my-pi/pi-ai/utils/validation'),
      importFromOmp('@oh-my-pi/pi-ai/providers/mock'),
      import(EXTENSION_FILE) as Promise<{ default?: unknown }>,
    ]);
    if (typeof extension.default !== 'function') throw new Error(`${EXTENSION_FILE} has no default export function`);
    return {
      sdk: sdk as unknown as Sdk,
      runtime: runtime as unknown as Runtime,
      EventBus: bus['EventBus'] as Loaded['EventBus'],
      validateToolArguments: validation['validateToolArguments'] as ValidateToolArguments,
      mock: mock as unknown as MockModule,
      factory: extension.default as ExtensionFactory,
    };
  })();
  return loaded;
}

/** A built extension module's default export. */
export async function importFactory(file: string): Promise<ExtensionFactory> {
  const module = (await import(file)) as { default?: unknown };
  if (typeof module.default !== 'function') throw new Error(`${file} has no default export function`);
  return module.default as ExtensionFactory;
}

let registry: Promise<unknown> | undefined;
/** One model registry for every session of the run (each session would otherwise build one and probe local model servers). */
export function sharedRegistry(): Promise<unknown> {
  registry ??= (async () => {
    const [models, sdkModule, dirs] = await Promise.all([
      importFromOmp('@oh-my-pi/pi-coding-agent/config/model-registry'),
      importFromOmp('@oh-my-pi/pi-coding-agent/sdk'),
      importFromOmp('@oh-my-pi/pi-utils/dirs'),
    ]);
    const { sdk } = await loadHost();
    const agentDir = process.env['PI_CODING_AGENT_DIR'];
    if (!agentDir) throw new Error('PI_CODING_AGENT_DIR is not set: run this through npm run test:host');
    const ModelRegistry = models['ModelRegistry'] as new (auth: unknown, modelsPath: string, options: Record<string, unknown>) => unknown;
    const auth = await (sdkModule['discoverAuthStorage'] as (dir: string) => Promise<unknown>)(agentDir);
    return new ModelRegistry(auth, `${agentDir}/models.yml`, { settings: sdk.Settings.isolated({}), cacheDbPath: (dirs['getModelDbPath'] as (dir: string) => string)(agentDir) });
  })();
  return registry;
}
