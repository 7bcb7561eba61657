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
  /** Whether a request is billed to the account behind the key (a hosted provider). */
  readonly paid: boolean;
  /**
   * The body field that caps a reply's length. OpenAI's chat completions take `max_completion_tokens`
   * (`max_tokens` is deprecated there and refused by its reasoning models); Ollama's OpenAI layer
   * reads `max_tokens` only (docs.ollama.com/api/openai-compatibility; ollama/ollama#14464, open, adds
   * the other), and LM Studio, llama.cpp and OpenRouter (openrouter.ai/docs/api-reference/parameters)
   * document `max_tokens`. Anthropic's Messages API has its own required `max_tokens`.
   */
  readonly maxTokensField: 'max_tokens' | 'max_completion_tokens';
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
    // Ollama allows http(s)://localhost, 127.0.0.1 and 0.0.0.0 on any port by itself (its
    // envconfig `AllowedOrigins`); OLLAMA_ORIGINS adds to those, for a page served from elsewhere.
    allowOrigin: (origin) =>
      loopbackOrigin(origin)
        ? 'Something at this address refused this page\'s origin, though Ollama itself accepts any page on localhost or 127.0.0.1: check that it is Ollama listening there, not another server or a proxy in front of it.'
        : `Ollama refused this page's origin: restart it with OLLAMA_ORIGINS=${origin} (for example \`OLLAMA_ORIGINS=${origin} ollama serve\`).`,
    paid: false,
    maxTokensField: 'max_tokens',
  },
  lmstudio: {
    id: 'lmstudio',
    label: 'LM Studio (this computer)',
    api: 'openai-completions',
    baseUrl: 'http://localhost:1234/v1',
    needsKey: false,
    start: 'Is the LM Studio server running? Start it with `lms server start --cors` (a page in a browser needs --cors), or in LM Studio\'s Developer tab with "Enable CORS" on.',
    allowOrigin: () => 'LM Studio refused this page\'s origin: restart its server with `lms server start --cors`, or turn on "Enable CORS" in its Developer tab.',
    paid: false,
    maxTokensField: 'max_tokens',
  },
  llamacpp: {
    id: 'llamacpp',
    label: 'llama.cpp server',
    api: 'openai-completions',
    baseUrl: 'http://localhost:8080/v1',
    needsKey: false,
    start: 'Is llama-server running? Start it with `llama-server -m <model.gguf> --jinja` (tool calls need --jinja).',
    allowOrigin: () => 'The llama.cpp server refused this page\'s origin: start llama-server without a proxy in front of it, or let the proxy allow this origin.',
    paid: false,
    maxTokensField: 'max_tokens',
  },
  openai: {
    id: 'openai',
    label: 'OpenAI',
    api: 'openai-completions',
    baseUrl: 'https://api.openai.com/v1',
    needsKey: true,
    start: null,
    allowOrigin: () => 'The browser refused the call to OpenAI: check that no extension or proxy blocks api.openai.com.',
    paid: true,
    maxTokensField: 'max_completion_tokens',
  },
  anthropic: {
    id: 'anthropic',
    label: 'Anthropic',
    api: 'anthropic-messages',
    baseUrl: 'https://api.anthropic.com',
    needsKey: true,
    start: null,
    allowOrigin: () => 'The browser refused the call to Anthropic: check that no extension or proxy blocks api.anthropic.com.',
    paid: true,
    maxTokensField: 'max_tokens',
  },
  openrouter: {
    id: 'openrouter',
    label: 'OpenRouter',
    api: 'openai-completions',
    baseUrl: 'https://openrouter.ai/api/v1',
    needsKey: true,
    start: null,
    allowOrigin: () => 'The browser refused the call to OpenRouter: check that no extension or proxy blocks openrouter.ai.',
    paid: true,
    maxTokensField: 'max_tokens',
  },
  compatible: {
    id: 'compatible',
    label: 'Any OpenAI-compatible server',
    api: 'openai-completions',
    baseUrl: '',
    needsKey: false,
    start: 'Nothing answered at that address: start the server, and check the port and the /v1 at the end.',
    allowOrigin: (origin) => `The server refused this page's origin: let it allow ${origin} (its CORS setting).`,
    paid: false,
    maxTokensField: 'max_tokens',
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

const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/** Whether an address (a page's origin or a base URL) is on this computer. */
export function loopbackOrigin(address: string): boolean {
  try {
    return LOOPBACK_HOSTS.has(new URL(address).hostname);
  } catch {
    return false;
  }
}

/** The origin of an address, or null when it is not one (a half-typed URL). */
export function originOf(address: string): string | null {
  try {
    const url = new URL(address.trim());
    return url.protocol === 'http:' || url.protocol === 'https:' ? url.origin : null;
  } catch {
    return null;
  }
}
