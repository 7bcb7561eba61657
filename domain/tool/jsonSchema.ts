import * as z from 'zod/mini';
import { SeedDeskArgsSchema } from './schema';

/**
 * The portable form of the argument schema for the real host, whose tool parameters are JSON
 * Schema objects. Kept apart from schema.ts so the worker bundle does not carry the converter.
 */
export const seedDeskJsonSchema = z.toJSONSchema(SeedDeskArgsSchema);
