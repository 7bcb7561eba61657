/**
 * Scrolls the nearest box marked `data-scroller` (never the document) just enough to show the
 * element: its top when it is taller than the box.
 */
export function reveal(element: Element, smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches): void {
  const scroller = element.parentElement?.closest<HTMLElement>('[data-scroller]');
  if (!scroller) return;
  const box = element.getBoundingClientRect();
  const view = scroller.getBoundingClientRect();
  const margin = 8;
  let delta = 0;
  if (box.top < view.top) delta = box.top - view.top - margin;
  else if (box.bottom > view.bottom) delta = Math.min(box.bottom - view.bottom + margin, box.top - view.top - margin);
  if (delta !== 0) scroller.scrollBy({ top: delta, behavior: smooth ? 'smooth' : 'auto' });
}

/**
 * Keeps a log scrolled to its newest line while the reader is at its end; once they scroll up to
 * read, new lines no longer pull them down. Returns the cleanup.
 */
export function followEnd(log: HTMLElement): () => void {
  let atEnd = true;
  let frame = 0;
  /** Where this code last scrolled to: a scroll position at or below it is ours, not the reader's. */
  let scrolledTo = 0;
  /** The log scrolled since the last frame (the reader, or us): where it stands is read in the frame. */
  let scrolled = false;
  // Reading scrollTop or scrollHeight lays the page out. In a scroll event or inside the update
  // that added a line, that is a layout the frame would do anyway, done once more (measured: about
  // 4 ms a command, and the scroll handler the largest self time in the Confirm profile), so the
  // log's geometry is read only in the frame's own callbacks, once however many lines arrived.
  const toEnd = () => {
    frame = 0;
    if (scrolled) {
      scrolled = false;
      // Lines may arrive between our scroll and its event: the reader left the end only by scrolling above where we put them.
      atEnd = log.scrollTop >= scrolledTo - 1 || log.scrollHeight - log.scrollTop - log.clientHeight < 8;
    }
    if (!atEnd) return;
    log.scrollTop = log.scrollHeight;
    scrolledTo = log.scrollTop;
  };
  const onScroll = () => {
    scrolled = true;
  };
  const observer = new MutationObserver(() => {
    if ((atEnd || scrolled) && frame === 0) frame = requestAnimationFrame(toEnd);
  });
  observer.observe(log, { childList: true, subtree: true, characterData: true });
  log.addEventListener('scroll', onScroll, { passive: true });
  toEnd();
  return () => {
    observer.disconnect();
    cancelAnimationFrame(frame);
    log.removeEventListener('scroll', onScroll);
  };
}
