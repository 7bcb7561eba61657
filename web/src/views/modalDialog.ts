/**
 * Keeps a native `<dialog>` modal while its owner shows it (top layer, focus kept inside, Escape
 * reaches its `cancel` handler). Opening shows it and puts focus on the decision. Closing waits
 * for the next task and checks again: closing a modal restyles the whole page (it stops being
 * inert), which must not hold up the update that settled the dialog. A task, not a frame: a tab
 * behind another draws about two frames a second in Chromium, and its dialog must still close at
 * once (measured: 1.3 s per Confirm in the two-tab load test when it waited for a frame). Call it
 * from an effect, so `opening` and `shown()` are read (and tracked) there.
 */
export function syncModal(dialog: HTMLDialogElement, opening: boolean, shown: () => boolean, focus: HTMLElement | undefined): void {
  if (opening && !dialog.open) {
    dialog.showModal();
    focus?.focus();
  } else if (!shown() && dialog.open) {
    setTimeout(() => {
      if (!shown() && dialog.open) dialog.close();
    }, 0);
  }
}
