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
  /** Where this code last scrolled to: a scroll event reporting it is ours, not the reader's. */
  let scrolledTo = 0;
  // Reading scrollHeight lays the page out. Inside the update that added the line it would lay the
  // page out once more before the frame does it anyway (measured: about 4 ms a command), so the
  // scroll waits for the frame's own callbacks, once however many lines arrived.
  const toEnd = () => {
    frame = 0;
    log.scrollTop = log.scrollHeight;
    scrolledTo = log.scrollTop;
  };
  // Lines may arrive between our scroll and its event: the reader left the end only by scrolling above where we put them.
  const onScroll = () => (atEnd = log.scrollTop >= scrolledTo - 1 || log.scrollHeight - log.scrollTop - log.clientHeight < 8);
  const observer = new MutationObserver(() => {
    if (atEnd && frame === 0) frame = requestAnimationFrame(toEnd);
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
