/**
 * The dialog machines' code (XState and both machines), fetched once for the whole page when the
 * first dialog or approval prompt needs it, and again after a failed fetch. Not on the first screen.
 */
let actors: Promise<typeof import('./dialogActors')> | undefined;

export function loadDialogActors(): Promise<typeof import('./dialogActors')> {
  actors ??= import('./dialogActors').catch((error: unknown) => {
    actors = undefined;
    throw error;
  });
  return actors;
}
