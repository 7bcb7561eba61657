export interface FoundChromium {
  readonly path: string;
  readonly source: string;
}
export const NO_CHROMIUM_MESSAGE: string;
export function findChromium(options?: Record<string, unknown>): FoundChromium | null;
export function ensureChromium(options?: Record<string, unknown>): FoundChromium;
export function playwrightCacheDir(env?: Record<string, string | undefined>, home?: string): string;
