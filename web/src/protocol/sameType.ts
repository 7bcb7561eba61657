/**
 * A compile-time check that a schema's type and the type it stands for are one shape: a zod
 * schema at a trust boundary re-states a type declared elsewhere (the domain's, the extension's),
 * and `sameType<A, B>(true)` stops the build when one of them changes alone.
 */
export type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export function sameType<A, B>(proof: Same<A, B>): void {
  void proof;
}
