/**
 * A journal operation that cannot be done: an unknown id (in the host's wording, `Entry <id> not
 * found`), an append that does not hang off the leaf, a duplicate id. Its own class so that a
 * caller (the store) can tell it from a storage failure.
 */
export class JournalError extends Error {}
