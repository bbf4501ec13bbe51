/**
 * How long a string argument may be. Every tool's schema bounds every string with one of
 * these, so an oversized argument is a VALIDATION refusal before any work: matching a
 * megabyte against a tree would otherwise hold the single-threaded MCP server for a minute.
 */

/** Node ids are five letters; room for ids of another length without letting a megabyte in. */
export const MAX_ID_CHARS = 64;
/** Names, labels, descriptions and app names: real trees' names are a few hundred characters at most. */
export const MAX_NAME_CHARS = 1_000;
/** Roles, keys and modifiers: words. */
export const MAX_WORD_CHARS = 100;
/** Text to type or set: a long document, still finite. */
export const MAX_TEXT_CHARS = 100_000;
/** A documentation question: words, not a document. */
export const MAX_QUERY_CHARS = 500;
