import { PageHostError } from './runPolicy';

/** A widget as the page shows it: the extension's key and its lines. */
export interface WidgetView {
  readonly key: string;
  readonly lines: readonly string[];
}

/**
 * What an extension last did to the Command box: `seq` grows with each call, so the page applies
 * each once. It counts from the clock, so a worker that replaced another (the watchdog's) numbers
 * its first edit above the last one the page applied.
 */
export interface EditorTextView {
  readonly seq: number;
  readonly text: string;
  /** `pasteToEditor`: the page adds the text to what the box holds; otherwise it replaces it. */
  readonly paste: boolean;
}

/**
 * The parts of OMP's UI that an extension sets and the page draws beside the Command box:
 * `ctx.ui.setWidget` (string-array widgets by key, as OMP's RPC mode forwards them) and the
 * editor's text (`setEditorText`, `pasteToEditor`, `getEditorText`). The worker keeps them; the
 * view carries them to the page (projections.ts).
 */
export class PageUi {
  readonly widgets = new Map<string, readonly string[]>();
  private editor: EditorTextView = { seq: 0, text: '', paste: false };
  /** What the extension put in the box, as far as the worker knows (a person's keystrokes stay in the page). */
  private text = '';

  /**
   * `setWidget(key, lines)`: lines replace the key's widget, undefined removes it. OMP's RPC mode
   * forwards only string arrays and drops a component factory without a word; the page says why.
   */
  setWidget(key: string, content: unknown): void {
    if (content === undefined) {
      this.widgets.delete(String(key));
      return;
    }
    if (!Array.isArray(content)) throw new PageHostError('ctx.ui.setWidget takes an array of lines here: the page draws no terminal components, so a component factory cannot be shown.');
    this.widgets.set(String(key), content.map(String));
  }

  setEditorText(text: string): void {
    this.text = String(text);
    this.editor = { seq: this.nextSeq(), text: this.text, paste: false };
  }

  pasteToEditor(text: string): void {
    this.text += String(text);
    this.editor = { seq: this.nextSeq(), text: String(text), paste: true };
  }

  private nextSeq(): number {
    return Math.max(this.editor.seq + 1, Date.now());
  }

  getEditorText(): string {
    return this.text;
  }

  /** A line ran from the Command box: the box is empty again. */
  lineSubmitted(): void {
    this.text = '';
  }

  /** A new extension is loaded: what the one before set is gone, as its status line is. */
  clear(): void {
    this.widgets.clear();
    this.text = '';
  }

  widgetViews(): WidgetView[] {
    return [...this.widgets].map(([key, lines]) => ({ key, lines }));
  }

  editorView(): EditorTextView | null {
    return this.editor.seq === 0 ? null : this.editor;
  }
}
