import '../zodSetup';
import { isRecord, type JsonObject } from '../jsonObject';
import { CURRENT_SESSION_VERSION, SessionHeaderSchema, type SessionHeader } from './entry';
import { clip, describeIssue, describeKind, parseJson, refuse } from './importReport';

/** A session file's header line: whether it is one, and which of the host's migrations it needs. */
export type HeaderCheck =
  | { ok: true; header: SessionHeader & JsonObject; migratedFrom: 1 | 2 | null }
  | { ok: false; error: { line: number; message: string } };

export function readHeader(text: string, line: number): HeaderCheck {
  const notHeader = (why: string): HeaderCheck => refuse(line, `Line ${line} is not a session header: ${why}`);
  const parsed = parseJson(text);
  if (!parsed.ok) return notHeader(`it is not valid JSON (${parsed.problem}).`);
  const value = parsed.value;
  if (!isRecord(value)) return notHeader(`it is ${describeKind(value)}, not a {"type":"session",…} object.`);
  if (value['type'] !== 'session') {
    const type = value['type'];
    const found = typeof type === 'string' ? `type "${clip(type)}"` : 'no "type" string';
    return notHeader(`a session file starts with a line of type "session", and this one has ${found}.`);
  }
  if (typeof value['id'] !== 'string' || value['id'].length === 0) return notHeader('it has no session "id" string.');
  const valid = SessionHeaderSchema.safeParse(value);
  if (!valid.success) return notHeader(`${describeIssue(valid.error)}.`);

  const version = readVersion(value['version']);
  if (version === null) {
    return refuse(line, `Line ${line} cannot be read: its version ${clip(JSON.stringify(value['version']) ?? '')} is not a number.`);
  }
  // Deliberately stricter than pi 0.73.1, which opens any version as v3: OMP refuses a newer file, since it may mean entries this reader gets wrong.
  if (version > CURRENT_SESSION_VERSION) {
    return refuse(
      line,
      `Line ${line} cannot be read: this session was written by a newer host (version ${version}); this playground reads up to ${CURRENT_SESSION_VERSION}.`,
    );
  }
  // The host's cumulative steps: a missing version means 1, `< 2` runs V1toV2, `< 3` runs V2toV3.
  const from = version < 2 ? 1 : version < 3 ? 2 : null;
  // The parsed object itself, not zod's copy: it keeps the file's key order and any `__proto__` key as data.
  return { ok: true, header: value as SessionHeader & JsonObject, migratedFrom: from };
}

/**
 * The version as the host compares it (`header.version ?? 1`, then `>=` and `<` against numbers):
 * missing or null is 1, a numeric string reads as its number. Anything else gives null.
 */
function readVersion(version: unknown): number | null {
  if (version === undefined || version === null) return 1;
  if (typeof version === 'number') return Number.isNaN(version) ? null : version;
  if (typeof version === 'string' && version.trim() !== '') {
    const number = Number(version);
    return Number.isNaN(number) ? null : number;
  }
  return null;
}
