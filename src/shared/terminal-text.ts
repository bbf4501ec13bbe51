/**
 * Text from apps, documents, models and MCP servers, made safe to print to a terminal. A
 * window title holding `ESC[8m` would hide the rest of an approval prompt; `ESC]52;…` writes the
 * clipboard in some terminals; a right-to-left override (U+202E) shows "exe.txt" as "txt.exe".
 * Each such character is written out as a visible `\uXXXX` escape instead: never silently
 * dropped (the user sees something was there), and inside JSON text it is the same escape JSON
 * uses, so printed JSON stays valid and means the same.
 *
 * Escaped: C0 controls (ESC included) but tab and line feed, DEL, C1 controls (U+0080–U+009F,
 * which some terminals read as CSI and OSC), the bidirectional marks, embeddings, overrides and
 * isolates, and the Unicode line and paragraph separators.
 */
// eslint-disable-next-line no-control-regex -- matching control characters is this code's purpose
const UNSAFE = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;
/** The same, and tab and line feed: for a value that must stay on its own line. */
// eslint-disable-next-line no-control-regex -- matching control characters is this code's purpose
const UNSAFE_IN_LINE = /[\u0000-\u001f\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\u2028\u2029]/g;

function escape(char: string): string {
  return `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`;
}

/** Text for a terminal, lines and tabs kept: for whole blocks (a tree, an answer, an error). */
export function terminalText(text: string): string {
  return text.replace(UNSAFE, escape);
}

/** One value inside a line (an app name in a prompt, a table cell): line breaks escaped too, so it cannot fake a line. */
export function terminalLine(text: string): string {
  return text.replace(UNSAFE_IN_LINE, escape);
}
