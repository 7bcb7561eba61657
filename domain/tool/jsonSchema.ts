import seedDeskArgsSchema from './seedDeskArgs.schema.json';

/**
 * The portable form of the parameter schema for the real host, whose tool parameters are JSON
 * Schema objects. Written once in zod (schema.ts); this is `z.toJSONSchema` of it without
 * `$schema`, kept as a file so neither the extension nor the worker carries the converter.
 * `jsonSchema.test.ts` fails when the two drift (and writes the file again with WRITE_SCHEMA=1).
 */
export const seedDeskJsonSchema: Readonly<Record<string, unknown>> = seedDeskArgsSchema;
