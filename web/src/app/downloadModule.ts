import type { CompileProblem, ResultOf } from '../protocol/messages';

/** What "Download my version" reads and sets on the class that offers it (the edited Seed Desk's, the own extension's). */
export interface Downloading {
  /** Widened: each class has its own busy names; this sets only `download` and `null`. */
  busy: string | null;
  problems: readonly CompileProblem[];
  message: string | null;
}

/**
 * "Download my version": the worker bundles the learner's files into one module; the module, or
 * null with the problems shown when it does not compile. `installed`: where the file goes, said
 * after its name and size.
 */
export async function downloadModule(state: Downloading, request: () => Promise<ResultOf<'downloadOwn'>>, installed: string): Promise<{ fileName: string; code: string } | null> {
  state.busy = 'download';
  try {
    const result = await request();
    if (result.kind === 'rejected') {
      state.problems = result.problems;
      state.message = `Not downloaded: ${count(result.problems.length, 'problem')}.`;
      return null;
    }
    state.problems = [];
    state.message = `Downloaded ${result.fileName} (${(result.code.length / 1024).toFixed(1)} KiB): ${installed}.`;
    return result;
  } catch (error) {
    state.message = `Not downloaded: ${error instanceof Error ? error.message : String(error)}`;
    return null;
  } finally {
    state.busy = null;
  }
}

export function count(n: number, what: string): string {
  return `${n} ${what}${n === 1 ? '' : 's'}`;
}
