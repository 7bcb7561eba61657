/**
 * A protocol type, read-only all the way down: the domain hands out readonly arrays, and the
 * worker only reads them before posting. Sending such a value is as safe as sending the mutable type.
 */
// Blobs and typed arrays pass as they are: their methods are not data.
// A mapped type keeps arrays arrays and tuples tuples (read-only).
export type DeepReadonly<T> = T extends Blob | ArrayBufferView ? T : T extends object ? { readonly [K in keyof T]: DeepReadonly<T[K]> } : T;
