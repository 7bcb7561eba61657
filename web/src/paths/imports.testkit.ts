import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';

/** The repository files a file imports (static and dynamic, type-only too); npm and virtual modules are not files. */
export function importsOf(root: string, file: string): string[] {
  const text = readFileSync(join(root, file), 'utf8');
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|^\s*import\s+)['"]([^'"]+)['"]/gm)].map((match) => match[1] as string);
  const found: string[] = [];
  for (const specifier of specifiers) {
    let base: string;
    if (specifier.startsWith('$domain/')) base = join(root, 'domain', specifier.slice('$domain/'.length));
    else if (specifier.startsWith('.')) base = resolve(dirname(join(root, file)), specifier);
    else continue;
    const candidates = [base, `${base}.ts`, `${base}.svelte`, base.replace(/\.js$/, '.ts'), `${base}/index.ts`];
    const hit = candidates.find((candidate) => existsSync(candidate) && statSync(candidate).isFile());
    if (hit) found.push(relative(root, hit));
  }
  return found;
}
