import { SIZE_LIMITS, withSize, type Resizable, type WorkspaceSizes } from './layout';

/** How a separator changes the sizes: by key and by pointer. Loaded with the separators, after the first paint. */

/** Which way each separator moves its pane, by the keys of its orientation. */
const GROW_KEYS: Readonly<Record<Resizable, { grow: string; shrink: string }>> = {
  // The lesson is left of its separator: moving the separator right widens it.
  lesson: { grow: 'ArrowRight', shrink: 'ArrowLeft' },
  // The desk is right of its separator: moving the separator left widens it.
  desk: { grow: 'ArrowLeft', shrink: 'ArrowRight' },
  // Tools sit below their separator: moving it up makes them taller.
  tools: { grow: 'ArrowUp', shrink: 'ArrowDown' },
};

export const KEY_STEP = 2;
export const PAGE_STEP = 10;

/**
 * The window-splitter keys (WAI-ARIA): arrows move the separator a step (Page Up/Down a big
 * step), Home and End put the pane at its smallest and largest. `null` for any other key.
 */
export function sizesAfterKey(sizes: WorkspaceSizes, which: Resizable, key: string): WorkspaceSizes | null {
  const keys = GROW_KEYS[which];
  const now = sizes[which];
  if (key === keys.grow) return withSize(sizes, which, now + KEY_STEP);
  if (key === keys.shrink) return withSize(sizes, which, now - KEY_STEP);
  if (key === 'PageUp') return withSize(sizes, which, now + PAGE_STEP);
  if (key === 'PageDown') return withSize(sizes, which, now - PAGE_STEP);
  if (key === 'Home') return withSize(sizes, which, SIZE_LIMITS[which].min);
  if (key === 'End') return withSize(sizes, which, SIZE_LIMITS[which].max);
  return null;
}

export interface Box {
  readonly left: number;
  readonly top: number;
  readonly width: number;
  readonly height: number;
}

/** The size a pointer at (x, y) asks for, from the workspace's box: the pane's edge follows the pointer. */
export function sizesFromPointer(sizes: WorkspaceSizes, which: Resizable, box: Box, x: number, y: number): WorkspaceSizes {
  if (box.width <= 0 || box.height <= 0) return sizes;
  const share =
    which === 'lesson' ? ((x - box.left) / box.width) * 100 : which === 'desk' ? ((box.left + box.width - x) / box.width) * 100 : ((box.top + box.height - y) / box.height) * 100;
  return withSize(sizes, which, share);
}
