// A lesson file's frontmatter: split from its body, parsed as YAML keeping where each value
// stands, and validated with a zod schema, so every error names its file and line.
import { isMap, isScalar, LineCounter, parseDocument } from 'yaml';
import { LessonError } from './lesson-error.mjs';

/** Splits `---` frontmatter from the body; the frontmatter's YAML starts on line 2. */
export function splitFrontmatter(file, text) {
  const lines = text.replace(/\r\n?/g, '\n').split('\n');
  if (lines[0]?.trim() !== '---') throw new LessonError(file, 1, 'a lesson file starts with "---", its YAML frontmatter, and "---" again');
  const end = lines.findIndex((line, index) => index > 0 && line.trim() === '---');
  if (end < 0) throw new LessonError(file, 1, 'the frontmatter is never closed: add a line "---" after it');
  return { yaml: lines.slice(1, end).join('\n'), body: lines.slice(end + 1), bodyLine: end + 2 };
}

/** Parses the frontmatter, keeping where each value stands so an error can name its line. */
export function readFrontmatter(file, yaml) {
  const lineCounter = new LineCounter();
  const doc = parseDocument(yaml, { lineCounter, prettyErrors: false, uniqueKeys: true });
  const error = doc.errors[0];
  if (error) throw new LessonError(file, lineCounter.linePos(error.pos[0]).line + 1, `YAML: ${error.message.split('\n')[0]}`);
  /** The 1-based line in the YAML text of the value at `path` (or of the nearest parent that exists). */
  const lineOf = (path, key) => {
    for (let depth = path.length; depth >= 0; depth--) {
      const node = depth === 0 ? doc.contents : doc.getIn(path.slice(0, depth), true);
      if (!node?.range) continue;
      let offset = node.range[0];
      if (depth === path.length && key !== undefined && isMap(node)) {
        const pair = node.items.find((item) => isScalar(item.key) && item.key.value === key);
        if (pair?.key?.range) offset = pair.key.range[0];
      }
      return lineCounter.linePos(offset).line;
    }
    return 1;
  };
  return { data: doc.toJS() ?? {}, lineOf };
}

/** Frontmatter lines are counted from the file's second line (after the opening "---"). */
export function shift(front, by) {
  return { data: front.data, lineOf: (path, key) => front.lineOf(path, key) + by };
}

/** A value's path as a teacher counts: `goal #4 › outcome › kind` (list positions from 1). */
function pathWords(path) {
  return path.reduce((words, key) => (typeof key === 'number' ? `${words} #${key + 1}` : words ? `${words} › ${String(key)}` : String(key)), '');
}

/** Validates with a zod schema; the first issue becomes a LessonError at its line. */
export function validate(schema, file, front) {
  const parsed = schema.safeParse(front.data);
  if (parsed.success) return parsed.data;
  const issue = parsed.error.issues[0];
  const path = issue?.path ?? [];
  const unknown = issue?.code === 'unrecognized_keys' ? issue.keys?.[0] : undefined;
  const where = path.length > 0 ? `${pathWords(path)}: ` : '';
  throw new LessonError(file, front.lineOf(path, unknown), `${where}${issue?.message ?? 'does not match the lesson schema'}`);
}
