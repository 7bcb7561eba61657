import type * as Zod from 'zod';

/**
 * `pi.zod`: OMP 18.2.3 hands an extension its own zod-compatible builder
 * (pi-coding-agent/src/extensibility/extensions/loader.ts: `readonly zod = zod`, from
 * @oh-my-pi/omptype/zod). The page hands it the real zod v4 instead, loaded only for an extension
 * that touches `pi.zod`: the first read throws `ZodNotLoaded`, `ExtensionRuntime.load` fetches
 * zod and runs the factory again (a factory only registers; its actions throw while it loads).
 * A tool's zod parameters become the JSON Schema the host checks calls against and offers a
 * model, in the form OMP's builder gives (input form: no `additionalProperties: false` for a
 * plain object, no `$schema`).
 */
let zod: typeof Zod | null = null;

export class ZodNotLoaded extends Error {
  override readonly name = 'ZodNotLoaded';
}

/** zod, when it is here; else the signal to load it and start the factory over. */
export function zodNow(): typeof Zod {
  if (zod === null) throw new ZodNotLoaded('pi.zod is loading.');
  return zod;
}

export async function loadZod(): Promise<void> {
  if (zod) return;
  const { default: source } = await import('virtual:zod-classic');
  zod = (await importText(source)) as typeof Zod;
}

/**
 * A module's text imported: from a blob: URL, as the worker imports a learner's compiled module
 * (its CSP allows blob: scripts, not data: ones); where blob: URLs cannot be imported (Node: the
 * unit tests and test:host's page side), from a data: URL.
 */
async function importText(source: string): Promise<unknown> {
  const url = URL.createObjectURL(new Blob([source], { type: 'text/javascript' }));
  try {
    return await import(/* @vite-ignore */ url);
  } catch (error) {
    if (typeof (globalThis as { process?: unknown }).process === 'undefined') throw error;
    const bytes = new TextEncoder().encode(source);
    let binary = '';
    for (let at = 0; at < bytes.length; at += 0x8000) binary += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
    return import(/* @vite-ignore */ `data:text/javascript;base64,${btoa(binary)}`);
  } finally {
    URL.revokeObjectURL(url);
  }
}

/** Whether a tool's `parameters` is a zod schema (zod v4 keeps its internals under `_zod`). */
export function isZodSchema(value: unknown): boolean {
  return typeof value === 'object' && value !== null && '_zod' in value;
}

/** The JSON Schema of a zod schema, as OMP's builder writes one. */
export function jsonSchemaOf(schema: unknown): Record<string, unknown> {
  const json: Record<string, unknown> = { ...zodNow().toJSONSchema(schema as Zod.ZodType, { io: 'input' }) };
  delete json['$schema'];
  return json;
}
