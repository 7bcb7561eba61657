// The worker's own Content-Security-Policy (issue 23). A dedicated worker loaded from a URL is
// governed by the policy its script's response carries, not by the page's: the page keeps
// `script-src 'self'` with no 'unsafe-eval', and the worker, which compiles and runs the learner's
// edited extension, gets exactly what that needs: esbuild's WebAssembly ('wasm-unsafe-eval'), the
// compiled module imported from a blob: URL, and fetches to this origin only (`connect-src 'self'`),
// so learner code can reach no other origin. A static host must send the same header for the
// worker's file (docs/teaching.md, "Headers for the editor").
export const WORKER_CSP = "default-src 'none'; script-src 'self' blob: 'wasm-unsafe-eval'; connect-src 'self'";

/** The worker's script: `assets/worker-<hash>.js` in a build, `…/worker.ts?worker_file…` on the dev server. */
export function isWorkerScript(url, base = '/') {
  const [path = '', query = ''] = url.split('?');
  if (/(^|&)worker_file(&|=|$)/.test(query)) return true;
  const inBase = path.startsWith(base) ? path.slice(base.length) : null;
  return inBase !== null && /^assets\/worker-[\w-]+\.js$/.test(inBase);
}

/** Vite plugin: the header on the worker's script, in the dev server and in `vite preview`. */
export function workerCspPlugin() {
  const middleware = (base) => (req, res, next) => {
    if (req.url && isWorkerScript(req.url, base)) res.setHeader('Content-Security-Policy', WORKER_CSP);
    next();
  };
  return {
    name: 'seed-desk-worker-csp',
    configureServer(server) {
      server.middlewares.use(middleware(server.config.base));
    },
    configurePreviewServer(server) {
      server.middlewares.use(middleware(server.config.base));
    },
  };
}
