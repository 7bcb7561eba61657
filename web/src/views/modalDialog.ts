/**
 * Keeps a native `<dialog>` modal while its owner shows it (top layer, focus kept inside, Escape
 * reaches its `cancel` handler). Opening shows it and puts focus on the decision. Closing waits
 * for the next frame and checks again: closing a modal restyles the whole page (it stops being
 * inert), which must not hold up the update that settled the dialog. Call it from an effect, so
 * `opening` and `shown()` are read (and tracked) there.
 */
export function syncModal(dialog: HTMLDialogElement, opening: boolean, shown: () => boolean, focus: HTMLElement | undefined): void {
  if (opening && !dialog.open) {
    dialog.showModal();
    focus?.focus();
  } else if (!shown() && dialog.open) {
    requestAnimationFrame(() => {
      if (!shown() && dialog.open) dialog.close();
    });
  }
}
