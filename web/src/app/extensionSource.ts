/// <reference path="./extensionSource.d.ts" />

/**
 * The extension's shipped source as the build highlights it (`scripts/code-view-plugin.mjs`),
 * loaded with `import()` when first needed (the Code tab, or "Do it for me" applying an edit), so
 * neither the text nor its colours are on the first screen.
 */
export type ExtensionSource = typeof import('virtual:extension-source');

export function loadExtensionSource(): Promise<ExtensionSource> {
  return import('virtual:extension-source');
}
