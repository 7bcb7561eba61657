import type { EditedFrom, EditedVersion } from '../../protocol/messages';

/**
 * What an edited version is, as the goals need it (issue 36): "Break it" ticks a break only under
 * a text that differs from the shipped one, and a mend only under the learner's own change to an
 * edited version. Whether the text is the shipped one is read from the files; what it was changed
 * from is the editor's word (`from`: the page knows whether "Discard my edits" put the shipped
 * files back) checked against the version the worker stored when it last ran one. Pure: the
 * worker's edit path and its unit tests call it.
 */

/** The files whose text differs from the shipped one (a file sent with its shipped text is no edit). */
export function differingFiles(files: Readonly<Record<string, string>>, shipped: Readonly<Record<string, string>>): Record<string, string> {
  return Object.fromEntries(Object.entries(files).filter(([path, text]) => shipped[path] !== text));
}

function sameFiles(a: Readonly<Record<string, string>>, b: Readonly<Record<string, string>>): boolean {
  return Object.keys(a).length === Object.keys(b).length && Object.entries(a).every(([path, text]) => b[path] === text);
}

/** The version that ran last, as the store keeps it (`version` absent in a record stored before issue 36). */
export interface LastRun {
  readonly files: Readonly<Record<string, string>>;
  readonly editedVersion?: EditedVersion | undefined;
}

/**
 * The version `files` make, run from `from`:
 * - `shipped` (a first edit, or after "Discard my edits"): changed from the shipped files;
 * - `last-run`: changed from the version that ran last: when its text differs, this is an edit
 *   of an edit exactly when that one's text differed from the shipped one or was itself an edit
 *   of an edit; run unchanged, it is what that one was;
 * - `restore` ("Reset this step" running the step's own version again): what the last run was
 *   when it is the same text, else as a first edit (nothing the learner typed).
 */
export function versionOf(files: Readonly<Record<string, string>>, shipped: Readonly<Record<string, string>>, from: EditedFrom, last: LastRun | null): EditedVersion {
  const mine = differingFiles(files, shipped);
  const text = Object.keys(mine).length === 0 ? 'as-shipped' : 'changed';
  if (from === 'shipped' || last === null) return { text, editedFrom: 'shipped' };
  const before = differingFiles(last.files, shipped);
  const lastVersion = last.editedVersion ?? { text: Object.keys(before).length === 0 ? 'as-shipped' : 'changed', editedFrom: 'shipped' };
  if (sameFiles(mine, before)) return { text, editedFrom: lastVersion.editedFrom };
  if (from === 'restore') return { text, editedFrom: 'shipped' };
  return { text, editedFrom: lastVersion.text === 'changed' || lastVersion.editedFrom === 'an-edit' ? 'an-edit' : 'shipped' };
}
