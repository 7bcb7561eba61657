/**
 * A scenario as a link: the session's JSONL, deflated and base64url-encoded into the hash
 * (`#/share/<data>`). Nothing leaves the browser; the link itself carries the journal.
 */
import { SHARE_PREFIX } from './shareAddress';

export { SHARE_PREFIX };
/** Longer links get cut by chat tools and mail clients; a file export is the way past this. */
export const SHARE_LIMIT = 8000;

async function pipe(bytes: Uint8Array, stream: CompressionStream | DecompressionStream): Promise<Uint8Array> {
  const response = new Response(new Blob([bytes as BlobPart]).stream().pipeThrough(stream));
  return new Uint8Array(await response.arrayBuffer());
}

function toBase64Url(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

function fromBase64Url(text: string): Uint8Array {
  const binary = atob(text.replace(/-/g, '+').replace(/_/g, '/'));
  return Uint8Array.from(binary, (char) => char.charCodeAt(0));
}

export type ShareLink = { ok: true; url: string; size: number } | { ok: false; message: string };

export async function makeShareLink(jsonl: string, base: string): Promise<ShareLink> {
  const packed = toBase64Url(await pipe(new TextEncoder().encode(jsonl), new CompressionStream('deflate-raw')));
  const url = `${base}${SHARE_PREFIX}${packed}`;
  if (packed.length > SHARE_LIMIT) {
    return {
      ok: false,
      message: `This session is too big to share as a link: ${(packed.length / 1000).toFixed(1)} kB compressed, and a link holds at most ${SHARE_LIMIT / 1000} kB. Use "Export session" and share the file instead.`,
    };
  }
  return { ok: true, url, size: packed.length };
}

/** The JSONL inside a share hash, or an error a learner can act on. */
export async function readShareHash(hash: string): Promise<{ ok: true; jsonl: string } | { ok: false; message: string }> {
  try {
    const bytes = await pipe(fromBase64Url(hash.slice(SHARE_PREFIX.length)), new DecompressionStream('deflate-raw'));
    return { ok: true, jsonl: new TextDecoder().decode(bytes) };
  } catch {
    return { ok: false, message: 'This share link is damaged (it may have been cut short when it was copied). Ask for the link again, or for an exported file.' };
  }
}
