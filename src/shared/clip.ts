/** `text` cut to at most `width` characters (UTF-16 units), the last one an ellipsis when it was cut. */
export function clip(text: string, width: number): string {
  return text.length <= width ? text : `${text.slice(0, width - 1)}…`;
}

/** `text` as one line (runs of white space as one space, trimmed), then clipped to `width`. */
export function clipLine(text: string, width: number): string {
  return clip(text.replace(/\s+/g, ' ').trim(), width);
}
