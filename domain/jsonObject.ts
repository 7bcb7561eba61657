/** A JSON object as the parsers see one: not null and not an array. */
export type JsonObject = Record<string, unknown>;

/** True for a `JsonObject`. */
export function isRecord(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** The object a JSON text holds, or null when the text is not JSON or holds something else. */
export function parseJsonObject(text: string | undefined): Record<string, unknown> | null {
  if (text === undefined) return null;
  try {
    const value: unknown = JSON.parse(text);
    return isRecord(value) ? value : null;
  } catch {
    return null;
  }
}
