import noteInAVariable from '../../../extension/own/note-in-a-variable.ts?raw';
import template from '../../../extension/own/template.ts?raw';
import confirmDestructive from '../../../fixtures/omp-examples/confirm-destructive.ts?raw';
import hello from '../../../fixtures/omp-examples/hello.ts?raw';
import pirate from '../../../fixtures/omp-examples/pirate.ts?raw';
import statusLine from '../../../fixtures/omp-examples/status-line.ts?raw';
import licence from '../../../fixtures/omp-examples/LICENSE?raw';

/**
 * What "Your own extension" can begin from (issue 37): the page's template, or one of OMP 18.2.3's
 * own examples that need no shell, no file system and no terminal component, unchanged (MIT: their
 * copyright notice is shown beside the picker, `EXAMPLES_NOTICE`). Loaded with the workspace,
 * never on the first screen.
 */
export interface OwnStart {
  readonly id: string;
  readonly label: string;
  readonly text: string;
}

export const OWN_STARTS: readonly OwnStart[] = [
  { id: 'template', label: 'Template: a note per branch', text: template },
  { id: 'note-in-a-variable', label: 'Lesson 10: a note in a variable', text: noteInAVariable },
  { id: 'hello', label: 'OMP example: hello (a tool)', text: hello },
  { id: 'pirate', label: 'OMP example: pirate (before_agent_start)', text: pirate },
  { id: 'status-line', label: 'OMP example: status-line (turn events)', text: statusLine },
  { id: 'confirm-destructive', label: 'OMP example: confirm-destructive (session_before_*)', text: confirmDestructive },
];

/** The examples' copyright lines, as the package's LICENSE has them. */
export const EXAMPLES_NOTICE: readonly string[] = licence.split('\n').filter((line) => line.startsWith('Copyright'));

export function startText(id: string): string | null {
  return OWN_STARTS.find((start) => start.id === id)?.text ?? null;
}
