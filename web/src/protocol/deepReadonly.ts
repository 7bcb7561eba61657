/**
 * A protocol type, read-only all the way down: the domain hands out readonly arrays, and the
 * worker only reads them before posting. Sending such a value is as safe as sending the mutable type.
 */
export type DeepReadonly<T> = T extends (infer U)[] ? readonly DeepReadonly<U>[] : T extends Blob ? T : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;
