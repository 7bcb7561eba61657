import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { SeedDeskParamsSchema } from './schema';

const FILE = new URL('./seedDeskArgs.schema.json', import.meta.url);
// `$schema` names the draft of a standalone document; a tool's parameters are not one, OMP drops it
// before any provider sees it (reference §10), and some providers' schema subsets do not list it.
const { $schema: _draft, ...parameters } = z.toJSONSchema(SeedDeskParamsSchema) as Record<string, unknown>;
const generated = `${JSON.stringify(parameters, null, 2)}\n`;

// After changing schema.ts: `WRITE_SCHEMA=1 npx vitest run domain/tool/jsonSchema.test.ts` writes the file again.
if (process.env['WRITE_SCHEMA'] === '1') writeFileSync(FILE, generated);

describe('seedDeskArgs.schema.json', () => {
  it('is exactly z.toJSONSchema of the zod parameter schema, without $schema', () => {
    expect(readFileSync(FILE, 'utf8')).toBe(generated);
  });
});
