/**
 * A view, as far as a feature's test needs one: `read` runs in an effect, as a component's markup
 * does, so a test sees what the page would draw, and when it would draw it again. Runes, so this
 * file is a Svelte module; the tests themselves stay plain TypeScript.
 */
import { flushSync } from 'svelte';

export interface ViewOf<T> {
  /** What the view showed, each time it drew (the first drawing included). */
  readonly shown: readonly T[];
  /** The latest drawing, after pending updates are drawn. */
  now(): T;
  stop(): void;
}

/** Draws `read` now and again whenever state it read changes (drawn by `flushSync`, or in the microtask Svelte schedules). */
export function viewOf<T>(read: () => T): ViewOf<T> {
  const shown: T[] = [];
  let latest: { readonly value: T } | null = null;
  const stop = $effect.root(() => {
    $effect(() => {
      const value = read();
      shown.push(value);
      latest = { value };
    });
  });
  flushSync();
  return {
    shown,
    now: () => {
      flushSync();
      if (!latest) throw new Error('The view never drew.');
      return latest.value;
    },
    stop,
  };
}

/** Resolves when `condition` (which reads page state) holds: now, or once the state it reads changes so that it does. */
export function until(condition: () => boolean): Promise<void> {
  return new Promise<void>((resolve) => {
    let met = false;
    const stop = $effect.root(() => {
      $effect(() => {
        if (met || !condition()) return;
        met = true;
        queueMicrotask(() => stop());
        resolve();
      });
    });
    flushSync();
  });
}
