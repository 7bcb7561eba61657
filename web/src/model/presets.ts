/**
 * The model providers a learner can pick, and the one list of origins the page's CSP opens
 * `connect-src` to (`scripts/page-csp-plugin.mjs` writes it into index.html at build time). A
 * base URL outside these origins is refused before anything is sent: the browser would refuse it
 * anyway, and the page says why instead.
 */

export type ModelApi = 'openai-completions' | 'anthropic-messages';

export interface ProviderPreset {
  readonly id: PresetId;
  readonly label: string;
  readonly api: ModelApi;
  /** The address it listens on by default; empty where the learner must give one. */
  readonly baseUrl: string;
  /** Whether the provider needs an API key (a local server does not). */
  readonly needsKey: boolean;
  /** On this computer: what to start when nothing answers there. */
  readonly start: string | null;
  /** What lets this page's origin call it, when the browser refuses the cross-origin request. */
  readonly allowOrigin: (origin: string) => string;
}

export const PRESET_IDS = ['ollama', 'lmstudio', 'llamacpp', 'openai', 'anthropic', 'openrouter', 'compatible'] as const;
export type PresetId = (typeof PRESET_IDS)[number];

export const PRESETS: Readonly<Record<PresetId, ProviderPreset>> = {
  ollama: {
    id: 'ollama',
    label: 'Ollama (this computer)',
    api: 'openai-completions',
    baseUrl: 'http://localhost:11434/v1',
    needsKey: false,
    start: 'Is Ollama running? Start it with `ollama serve`.',
    allowOrigin: (origin) => `Ollama refused this page's origin: restart it with OLLAMA_ORIGINS=${origin} (for example \`OLLAMA_ORIGINS=${origin} ollama serve\`).`,
  },
  lmstudio: {
    id: 'lmstudio',
    label: 'LM Studio (this computer)',
    api: 'openai-completions',
    baseUrl: 'http://localhost:1234/v1',
    needsKey: false,
    start: 'Is the LM Studio server running? Start it in LM Studio\'s Developer tab ("Start Server") or with `lms server start`.',
    allowOrigin: () => 'LM Studio refused this page\'s origin: turn on "Enable CORS" in its server settings and start the server again.',
  },
  llamacpp: {
    id: 'llamacpp',
    label: 'llama.cpp server',
    api: 'openai-completions',
    baseUrl: 'http://localhost:8080/v1',
    needsKey: false,
    start: 'Is llama-server running? Start it with `llama-server -m <model.gguf> --jinja` (tool calls need --jinja).',
    allowOrigin: () => 'The llama.cpp server refused this page\'s origin: start llama-server without a proxy in front of it, or let the proxy allow this origin.',
  },
  openai: {
    id: 'openai',
    label: 'OpenAI',
    api: 'openai-completions',
    baseUrl: 'https://api.openai.com/v1',
    needsKey: true,
    start: null,
    allowOrigin: () => 'The browser refused the call to OpenAI: check that no extension or proxy blocks api.openai.com.',
  },
  anthropic: {
    id: 'anthropic',
    label: 'Anthropic',
    api: 'anthropic-messages',
    baseUrl: 'https://api.anthropic.com',
    needsKey: true,
    start: null,
    allowOrigin: () => 'The browser refused the call to Anthropic: check that no extension or proxy blocks api.anthropic.com.',
  },
  openrouter: {
    id: 'openrouter',
    label: 'OpenRouter',
    api: 'openai-completions',
    baseUrl: 'https://openrouter.ai/api/v1',
    needsKey: true,
    start: null,
    allowOrigin: () => 'The browser refused the call to OpenRouter: check that no extension or proxy blocks openrouter.ai.',
  },
  compatible: {
    id: 'compatible',
    label: 'Any OpenAI-compatible server',
    api: 'openai-completions',
    baseUrl: '',
    needsKey: false,
    start: 'Nothing answered at that address: start the server, and check the port and the /v1 at the end.',
    allowOrigin: (origin) => `The server refused this page's origin: let it allow ${origin} (its CORS setting).`,
  },
};

/**
 * Where the page may send a model request: loopback on any port (Ollama, LM Studio, llama.cpp and
 * any OpenAI-compatible server on this computer) and the three hosted providers. The CSP says the
 * same; the worker that runs extension code keeps `connect-src 'self'`.
 */
export const MODEL_CONNECT_SOURCES = ['http://localhost:*', 'http://127.0.0.1:*', 'https://api.openai.com', 'https://api.anthropic.com', 'https://openrouter.ai'] as const;

/**
 * Whether the CSP lets the page reach this base URL, read as the browser reads a source: the host
 * after any userinfo decides, and (CSP Level 3) an `http:` source also allows `https:` there.
 */
export function reachable(baseUrl: string): boolean {
  let url: URL;
  try {
    url = new URL(baseUrl);
  } catch {
    return false;
  }
  return MODEL_CONNECT_SOURCES.some((source) => {
    const [scheme, rest] = source.split('://') as [string, string];
    if (url.protocol !== `${scheme}:` && !(scheme === 'http' && url.protocol === 'https:')) return false;
    const [host, port] = rest.split(':');
    if (url.hostname !== host) return false;
    return port === '*' || url.port === '';
  });
}
