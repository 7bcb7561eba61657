/**
 * Where a shared scenario sits in the address: `#/share/<data>`. Apart from `share.ts` so the first
 * screen can recognise a share link without loading the code that unpacks one.
 */
export const SHARE_PREFIX = '#/share/';
