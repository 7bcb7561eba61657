/**
 * Where the page may send a model request (issue 30): `reachable` against the presets and the
 * page's CSP, which the build writes from the same list.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { MODEL_CONNECT_PLACEHOLDER, modelPlugin, pageConnectSources } from '../../../scripts/model-plugin.mjs';
import { MODEL_CONNECT_SOURCES, PRESET_IDS, PRESETS, reachable } from './presets';

const INDEX_HTML = readFileSync(new URL('../../index.html', import.meta.url), 'utf8');

/** The page CSP's directives, by name. */
function cspOf(html: string): Map<string, string[]> {
  const match = /http-equiv="Content-Security-Policy"\s+content="([^"]*)"/.exec(html);
  if (!match) throw new Error('index.html has no CSP meta tag');
  return new Map(
    match[1]!
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((parts) => parts[0] !== '')
      .map(([name, ...sources]) => [name!, sources]),
  );
}

describe('reachable', () => {
  it('accepts every preset’s own base URL (the compatible one has none)', () => {
    const presets = PRESET_IDS.filter((id) => id !== 'compatible');
    expect(presets).toEqual(['ollama', 'lmstudio', 'llamacpp', 'openai', 'anthropic', 'openrouter']);
    for (const id of presets) expect(reachable(PRESETS[id].baseUrl), PRESETS[id].baseUrl).toBe(true);
    expect(PRESETS.compatible.baseUrl).toBe('');
    expect(reachable(PRESETS.compatible.baseUrl)).toBe(false);
  });

  it('accepts loopback over http on any port, with or without one, with any path', () => {
    for (const url of ['http://localhost:8000/v1', 'http://localhost:1/', 'http://localhost:65535/v1/', 'http://localhost/v1', 'http://127.0.0.1:11434/v1', 'http://127.0.0.1:5000', 'http://127.0.0.1/', 'http://LOCALHOST:8000/v1']) {
      expect(reachable(url), url).toBe(true);
    }
  });

  it('accepts the hosted providers on their default port only', () => {
    expect(reachable('https://api.openai.com/v1/')).toBe(true);
    expect(reachable('https://api.openai.com:443/v1')).toBe(true);
    expect(reachable('https://api.anthropic.com')).toBe(true);
    expect(reachable('https://openrouter.ai/api/v1')).toBe(true);
    expect(reachable('https://api.openai.com:8443/v1')).toBe(false);
  });

  it('refuses other hosts, including look-alikes of the allowed ones and other loopback spellings the CSP does not list', () => {
    for (const url of [
      'http://192.168.1.20:11434/v1',
      'http://example.com/v1',
      'https://evil.example/v1',
      'http://localhost.evil.example:11434/v1',
      'https://api.openai.com.evil.example/v1',
      'https://openai.com/v1',
      'https://eu.api.openai.com/v1',
      'http://0.0.0.0:11434/v1',
      'http://[::1]:11434/v1',
      'http://127.0.0.2:11434/v1',
    ]) {
      expect(reachable(url), url).toBe(false);
    }
  });

  it('allows loopback over https too, as CSP Level 3 reads an http: source', () => {
    expect(reachable('https://localhost:11434/v1')).toBe(true);
    expect(reachable('https://127.0.0.1:8080/v1')).toBe(true);
  });

  it('refuses other schemes: the hosted providers over http, and non-web schemes', () => {
    for (const url of ['http://api.openai.com/v1', 'http://api.anthropic.com', 'http://openrouter.ai/api/v1', 'ws://localhost:11434/v1', 'file:///etc/passwd', 'javascript:alert(1)', 'data:text/plain,x']) {
      expect(reachable(url), url).toBe(false);
    }
  });

  it('reads the URL as the browser does: userinfo names no host, and the host after it decides', () => {
    expect(reachable('http://localhost:1234@evil.example/')).toBe(false);
    expect(reachable('http://127.0.0.1:11434@evil.example/v1')).toBe(false);
    expect(reachable('https://api.openai.com@evil.example/v1')).toBe(false);
    expect(reachable('http://user:pass@localhost:11434/v1')).toBe(true);
    expect(reachable('http://evil.example#@localhost:11434/v1')).toBe(false);
    expect(reachable('http://evil.example\\@localhost:11434/')).toBe(false);
  });

  it('refuses what is not a URL at all', () => {
    for (const url of ['', 'localhost:11434', '/v1', 'not a url', 'http://']) expect(reachable(url), url).toBe(false);
  });
});

describe('the page CSP', () => {
  it('pageConnectSources is exactly MODEL_CONNECT_SOURCES as a source list', () => {
    expect(pageConnectSources().split(' ')).toEqual([...MODEL_CONNECT_SOURCES]);
  });

  it('index.html keeps the placeholder in connect-src, after \'self\'', () => {
    expect(MODEL_CONNECT_PLACEHOLDER).toBe('%MODEL_CONNECT_SOURCES%');
    const csp = cspOf(INDEX_HTML);
    expect(csp.get('connect-src')).toEqual(["'self'", MODEL_CONNECT_PLACEHOLDER]);
    expect(INDEX_HTML.split(MODEL_CONNECT_PLACEHOLDER)).toHaveLength(2);
  });

  it('the built page’s connect-src lists \'self\' and exactly MODEL_CONNECT_SOURCES, and nothing else changes', () => {
    const plugin = modelPlugin() as unknown as { transformIndexHtml: (html: string) => string };
    const built = plugin.transformIndexHtml(INDEX_HTML);
    expect(built).not.toContain(MODEL_CONNECT_PLACEHOLDER);
    const before = cspOf(INDEX_HTML);
    const after = cspOf(built);
    expect(after.get('connect-src')).toEqual(["'self'", ...MODEL_CONNECT_SOURCES]);
    for (const [name, sources] of before) if (name !== 'connect-src') expect(after.get(name), name).toEqual(sources);
  });

  it('every source reachable accepts is one the built CSP lists (a preset\'s base URL never meets a CSP refusal)', () => {
    const sources = new Set<string>(MODEL_CONNECT_SOURCES);
    for (const id of PRESET_IDS) {
      const base = PRESETS[id].baseUrl;
      if (base === '') continue;
      const url = new URL(base);
      const source = url.protocol === 'http:' ? `http://${url.hostname}:*` : `${url.protocol}//${url.host}`;
      expect(sources.has(source), `${id}: ${source}`).toBe(true);
    }
  });

  it('a page without the placeholder fails the build instead of shipping a CSP without the model endpoints', () => {
    const plugin = modelPlugin() as unknown as { transformIndexHtml: (html: string) => string };
    expect(() => plugin.transformIndexHtml('<html><head></head></html>')).toThrow(MODEL_CONNECT_PLACEHOLDER);
  });
});
