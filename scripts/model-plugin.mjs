// The real model's build-time parts (issue 30).
//
// 1. The page's CSP opens `connect-src` to where a learner can point a model, and nowhere else:
//    the list is `MODEL_CONNECT_SOURCES` in web/src/model/presets.ts, which the Real model form
//    also checks a base URL against. index.html holds the placeholder; the worker that runs
//    extension code keeps its own `connect-src 'self'` (worker-csp-plugin.mjs).
// 2. pi-ai's provider entry points import its catalogue of hosted models (models.generated.js,
//    about 300 KB minified) for prices and names; the learner names the model, so the build gets
//    an empty catalogue instead.
import { MODEL_CONNECT_SOURCES } from '../web/src/model/presets.ts';

export const MODEL_CONNECT_PLACEHOLDER = '%MODEL_CONNECT_SOURCES%';
const CATALOGUE = /[\\/]@mariozechner[\\/]pi-ai[\\/]dist[\\/]models\.generated\.js$/;

export function pageConnectSources() {
  return MODEL_CONNECT_SOURCES.join(' ');
}

export function modelPlugin() {
  return {
    name: 'seed-desk-model',
    transformIndexHtml(html) {
      if (!html.includes(MODEL_CONNECT_PLACEHOLDER)) throw new Error(`index.html has no ${MODEL_CONNECT_PLACEHOLDER} in its CSP`);
      return html.replace(MODEL_CONNECT_PLACEHOLDER, pageConnectSources());
    },
    load(id) {
      if (CATALOGUE.test(id.split('?')[0] ?? '')) return 'export const MODELS = {};';
      return null;
    },
  };
}
