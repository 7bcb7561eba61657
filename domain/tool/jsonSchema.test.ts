import { readFileSync, writeFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import * as z from 'zod/mini';
import { SeedDeskArgsSchema } from './schema';

const FILE = new URL('./seedDeskArgs.schema.json', import.meta.url);
const generated = `${JSON.stringify(z.toJSONSchema(SeedDeskArgsSchema), null, 2)}\n`;

// After changing schema.ts: `WRITE_SCHEMA=1 npx vitest run domain/tool/jsonSchema.test.ts` writes the file again.
if (process.env['WRITE_SCHEMA'] === '1') writeFileSync(FILE, generated);

describe('seedDeskArgs.schema.json', () => {
  it('is exactly z.toJSONSchema of the zod argument schema', () => {
    expect(readFileSync(FILE, 'utf8')).toBe(generated);
  });
});
