/**
 * A scenario as a link: the session's JSONL deflated into the address's hash (`#/share/<data>`,
 * the prefix the first screen recognises without loading this code), read back exactly; a link
 * too long for chat tools is refused with the way past it, and a damaged one is said to be damaged.
 */
import { describe, expect, it } from 'vitest';
import { makeShareLink, readShareHash, SHARE_LIMIT, SHARE_PREFIX } from './share';
import { SHARE_PREFIX as ADDRESS_PREFIX } from './shareAddress';

const BASE = 'https://example.org/playground/';
const jsonl = [
  '{"type":"session","version":3,"id":"session-1","timestamp":"2026-05-01T12:00:00.000Z","cwd":"/"}',
  '{"type":"message","id":"e1","parentId":null,"message":{"role":"user","content":"Reserve two basil — and a bean ☘"}}',
  '{"type":"custom","id":"e2","parentId":"e1","customType":"seed-desk","data":{"version":1,"agentEnabled":false,"quantities":{"basil-genovese":2}}}',
].join('\n');

/** Text that does not compress: every character drawn at random. */
function noise(length: number): string {
  let seed = 7;
  let text = '';
  for (let index = 0; index < length; index++) {
    seed = (seed * 1103515245 + 12345) % 2147483648;
    text += String.fromCharCode(33 + ((seed >>> 16) % 90));
  }
  return text;
}

describe('share links', () => {
  it('the first screen and the unpacking code agree on where the data starts', () => {
    expect(SHARE_PREFIX).toBe('#/share/');
    expect(ADDRESS_PREFIX).toBe(SHARE_PREFIX);
  });

  it('carry the session in the hash, in characters an address keeps as they are, and read back exactly', async () => {
    const link = await makeShareLink(jsonl, BASE);
    if (!link.ok) throw new Error(link.message);
    expect(link.url.startsWith(`${BASE}#/share/`)).toBe(true);
    const data = link.url.slice(`${BASE}#/share/`.length);
    expect(data).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(link.size).toBe(data.length);
    // Deflated: smaller than the JSONL it carries.
    expect(link.size).toBeLessThan(jsonl.length);
    await expect(readShareHash(`#/share/${data}`)).resolves.toEqual({ ok: true, jsonl });
  });

  it('a session too big for a link is refused, with its size and the way past it', async () => {
    const link = await makeShareLink(noise(2 * SHARE_LIMIT), BASE);
    expect(link.ok).toBe(false);
    if (link.ok) return;
    expect(link.message).toMatch(/^This session is too big to share as a link: \d+\.\d kB compressed, and a link holds at most 8 kB\. Use "Export session" and share the file instead\.$/);
  });

  it('a link cut short when it was copied is said to be damaged', async () => {
    const link = await makeShareLink(jsonl, BASE);
    if (!link.ok) throw new Error(link.message);
    const hash = link.url.slice(BASE.length);
    await expect(readShareHash(hash.slice(0, hash.length - 20))).resolves.toEqual({
      ok: false,
      message: 'This share link is damaged (it may have been cut short when it was copied). Ask for the link again, or for an exported file.',
    });
    await expect(readShareHash('#/share/not*base64')).resolves.toMatchObject({ ok: false });
  });
});
