import { reveal } from './reveal';
import { CONTROLS, isControl, type StepSpot } from './controls';

/**
 * Outlines what the current lesson step talks about. The views are not ours to change, so the
 * mark is a data attribute (Svelte leaves attributes it does not manage alone, where a class
 * could be overwritten by the next render), and elements are found by the selectors in
 * `controls.ts`. Regions carry `data-region`, tab panels `data-tab-panel`, scrolling boxes
 * `data-scroller`.
 */
export const HIGHLIGHT_ATTR = 'data-step-highlight';

const collapse = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

function matchesText(element: Element, text: string): boolean {
  return element.getAttribute('aria-label') === text || collapse(element.textContent) === text;
}

/** The elements a spot names that are in the page right now (a tab not yet loaded has none). */
export function findSpot(root: ParentNode, spot: StepSpot): HTMLElement[] {
  const found: HTMLElement[] = [];
  for (const item of spot.outline) {
    if (!isControl(item)) {
      const region = root.querySelector<HTMLElement>(`[data-region="${item}"]`);
      if (region) found.push(region);
      continue;
    }
    const control = CONTROLS[item];
    const scope = 'tab' in control ? root.querySelector(`[data-tab-panel="${control.tab}"]`) : root.querySelector(`[data-region="${control.region}"]`);
    const text = 'text' in control ? control.text : undefined;
    const match = [...(scope?.querySelectorAll<HTMLElement>(control.selector) ?? [])].find((element) => text === undefined || matchesText(element, text));
    if (match) found.push(match);
  }
  return found;
}

/**
 * Keeps the mark on whatever `find` returns while the page changes under it (a tab loading, a
 * result appearing, a view re-rendering its element), and scrolls each box to its first mark
 * once. Returns the cleanup that removes every mark.
 */
export function trackHighlights(root: HTMLElement, find: () => HTMLElement[]): () => void {
  let marked: HTMLElement[] = [];
  const revealed = new Set<HTMLElement>();
  const smooth = !matchMedia('(prefers-reduced-motion: reduce)').matches;
  let frame = 0;

  const apply = () => {
    frame = 0;
    const now = find();
    for (const element of marked) if (!now.includes(element)) element.removeAttribute(HIGHLIGHT_ATTR);
    for (const element of now) {
      if (marked.includes(element)) continue;
      element.setAttribute(HIGHLIGHT_ATTR, '');
      const scroller = element.parentElement?.closest<HTMLElement>('[data-scroller]');
      if (scroller && !revealed.has(scroller)) {
        revealed.add(scroller);
        reveal(element, smooth);
      }
    }
    marked = now;
  };

  const observer = new MutationObserver(() => {
    if (frame === 0) frame = requestAnimationFrame(apply);
  });
  observer.observe(root, { childList: true, subtree: true });
  // After this frame's layout: the step's tab may be switching in the same update.
  frame = requestAnimationFrame(apply);

  return () => {
    observer.disconnect();
    if (frame !== 0) cancelAnimationFrame(frame);
    for (const element of marked) element.removeAttribute(HIGHLIGHT_ATTR);
    marked = [];
  };
}
