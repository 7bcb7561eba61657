import type { Plugin } from 'vite';

/** The policy the worker's script is served with. */
export const WORKER_CSP: string;
export function isWorkerScript(url: string, base?: string): boolean;
/** Sends WORKER_CSP with the worker's script in the dev server and `vite preview`. */
export function workerCspPlugin(): Plugin;
