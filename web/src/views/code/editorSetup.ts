import { javascript } from '@codemirror/lang-javascript';
import { HighlightStyle, syntaxHighlighting } from '@codemirror/language';
import { lintGutter, setDiagnostics, type Diagnostic } from '@codemirror/lint';
import { EditorState, type Extension, type Text } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import { tags } from '@lezer/highlight';
import { basicSetup } from 'codemirror';
import type { CompileProblem } from '../../protocol/messages';

/**
 * CodeMirror 6 for the extension's files (issue 23), loaded only when the learner presses "Edit":
 * this module and the editor component are one lazy chunk, nothing of it is on the first screen.
 * Colours are `light-dark()` pairs, like the rest of styles.css, so the theme switch and the
 * system setting both work; each was moved just enough to read at 4.5:1 on the code's backgrounds
 * (the same adjustment the Code tab's colours get, scripts/code-view-plugin.mjs `readable`).
 */
const highlight = HighlightStyle.define([
  { tag: [tags.keyword, tags.controlKeyword, tags.moduleKeyword, tags.operatorKeyword, tags.definitionKeyword, tags.modifier], color: 'light-dark(#bd3340, #ff7b72)' },
  { tag: [tags.string, tags.special(tags.string)], color: 'light-dark(#032f62, #a5d6ff)' },
  { tag: [tags.comment, tags.lineComment, tags.blockComment], color: 'light-dark(#626a73, #8b949e)', fontStyle: 'italic' },
  { tag: [tags.number, tags.bool, tags.null, tags.atom, tags.propertyName], color: 'light-dark(#005cc5, #79c0ff)' },
  { tag: [tags.function(tags.variableName), tags.function(tags.propertyName)], color: 'light-dark(#6f42c1, #d2a8ff)' },
  { tag: [tags.typeName, tags.className, tags.namespace], color: 'light-dark(#6f42c1, #ffa657)' },
  { tag: tags.regexp, color: 'light-dark(#1f7934, #7ee787)' },
  { tag: tags.invalid, color: 'light-dark(#b31d28, #ffa198)' },
]);

const theme = EditorView.theme({
  '&': { height: '100%', color: 'var(--fg)', backgroundColor: 'var(--bg)', fontSize: '0.78rem' },
  '.cm-scroller': { fontFamily: "ui-monospace, 'SFMono-Regular', Menlo, Consolas, monospace", lineHeight: '1.5' },
  '.cm-content': { caretColor: 'var(--fg)' },
  '.cm-cursor, .cm-dropCursor': { borderLeftColor: 'var(--fg)' },
  '.cm-gutters': { backgroundColor: 'var(--bg)', color: 'var(--muted)', borderRight: '1px solid var(--line)' },
  '.cm-activeLine': { backgroundColor: 'color-mix(in srgb, var(--accent) 6%, var(--bg))' },
  '.cm-activeLineGutter': { backgroundColor: 'color-mix(in srgb, var(--accent) 10%, var(--bg))', color: 'var(--fg)' },
  '&.cm-focused > .cm-scroller > .cm-selectionLayer .cm-selectionBackground, .cm-selectionBackground, ::selection': {
    backgroundColor: 'color-mix(in srgb, var(--accent) 28%, var(--bg))',
  },
  '.cm-panels': { backgroundColor: 'var(--panel)', color: 'var(--fg)' },
  '.cm-panels.cm-panels-bottom': { borderTop: '1px solid var(--line)' },
  '.cm-textfield': { backgroundColor: 'var(--bg)', color: 'var(--fg)', border: '1px solid var(--line)' },
  '.cm-button': { backgroundImage: 'none', backgroundColor: 'var(--panel)', color: 'var(--fg)', border: '1px solid var(--line)' },
  '.cm-searchMatch': { backgroundColor: 'color-mix(in srgb, var(--warn) 25%, var(--bg))' },
  '.cm-tooltip': { backgroundColor: 'var(--panel)', color: 'var(--fg)', border: '1px solid var(--line)' },
  '.cm-diagnostic-error': { borderLeftColor: 'var(--error)' },
});

/** A fresh editor state for one file: TypeScript, the page's colours, a lint gutter for compile errors. */
export function fileState(path: string, text: string, onChange: (text: string) => void): EditorState {
  const extensions: Extension[] = [
    basicSetup,
    javascript({ typescript: !path.endsWith('.json') }),
    syntaxHighlighting(highlight),
    lintGutter(),
    theme,
    EditorView.lineWrapping,
    // Named apart from the page's "Command" box (a name with the path would contain "command.ts"); the figure around it names the file.
    EditorView.contentAttributes.of({ 'aria-label': 'Code editor', tabindex: '0' }),
    EditorView.updateListener.of((update) => {
      if (update.docChanged) onChange(update.state.doc.toString());
    }),
  ];
  return EditorState.create({ doc: text, extensions });
}

export function createView(parent: HTMLElement, state: EditorState): EditorView {
  return new EditorView({ state, parent });
}

/** The compile errors in one file as CodeMirror diagnostics (line and column 1-based; a problem without a position marks the first line). */
export function diagnosticsFor(doc: Text, path: string, problems: readonly CompileProblem[]): Diagnostic[] {
  return problems
    .filter((problem) => problem.file === path)
    .map((problem) => {
      const line = doc.line(Math.min(Math.max(problem.line, 1), doc.lines));
      const from = Math.min(line.from + Math.max(problem.column - 1, 0), line.to);
      return { from, to: Math.min(from + 1, line.to), severity: 'error', message: problem.text, source: 'esbuild' };
    });
}

/** Shows `problems` in the view's file (none: clears what was shown). */
export function showProblems(view: EditorView, path: string, problems: readonly CompileProblem[]): void {
  view.dispatch(setDiagnostics(view.state, diagnosticsFor(view.state.doc, path, problems)));
}

/** Puts the cursor at a line and column (1-based) and scrolls there. */
export function reveal(view: EditorView, line: number, column = 1): void {
  const target = view.state.doc.line(Math.min(Math.max(line, 1), view.state.doc.lines));
  const at = Math.min(target.from + Math.max(column - 1, 0), target.to);
  view.dispatch({ selection: { anchor: at }, effects: EditorView.scrollIntoView(at, { y: 'center' }) });
}
