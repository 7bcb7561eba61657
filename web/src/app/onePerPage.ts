import type { Playground } from './playground.svelte';

/**
 * A feature the page holds once, made when first asked for (its code loads with the tab that
 * shows it): the tab and the lesson's buttons that drive it get the same one.
 */
export function onePerPage<T>(make: (playground: Playground) => T): (playground: Playground) => T {
  const made = new WeakMap<Playground, T>();
  return (playground) => {
    const existing = made.get(playground);
    if (existing !== undefined) return existing;
    const created = make(playground);
    made.set(playground, created);
    return created;
  };
}
