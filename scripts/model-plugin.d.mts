import type { Plugin } from 'vite';

/** The placeholder in index.html's CSP that the build replaces with the model endpoints. */
export const MODEL_CONNECT_PLACEHOLDER: string;
/** `MODEL_CONNECT_SOURCES` joined as a CSP source list. */
export function pageConnectSources(): string;
/** The page CSP's model endpoints, and pi-ai without its catalogue of hosted models. */
export function modelPlugin(): Plugin;
