/**
 * What a person or an agent may ask of the desk, as data: the vocabulary the domain decides on, the
 * extension reports and the protocol carries. Apart from `desk.ts`, so the page can name the shapes
 * without importing the rules that decide them.
 */

/** The two ways a reservation changes the desk (the command's and the tool's `action`). */
export const RESERVATION_ACTIONS = ['reserve', 'release'] as const;
export type ReservationAction = (typeof RESERVATION_ACTIONS)[number];

/** A change a human asks for through `/seeds`: a reservation, or the agent grant. */
export type HumanChange =
  | { readonly kind: 'reservation'; readonly action: ReservationAction; readonly id: string; readonly packets: number | string }
  | { readonly kind: 'grant'; readonly enabled: boolean };
