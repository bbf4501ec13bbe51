/** A heading as an anchor: lower case, letters and digits joined by '-', the way most doc sites make them. */
export function slug(text: string): string {
  return (
    text
      .normalize('NFKD')
      .toLowerCase()
      .replace(/[\u0300-\u036f]/g, '')
      .replace(/[^\p{L}\p{N}]+/gu, '-')
      .replace(/^-+|-+$/g, '') || 'section'
  );
}

/** Anchors repeat ("Usage" twice): later ones get -2, -3. */
export function uniqueAnchors(): (anchor: string) => string {
  const seen = new Map<string, number>();
  return (anchor) => {
    const count = (seen.get(anchor) ?? 0) + 1;
    seen.set(anchor, count);
    return count === 1 ? anchor : `${anchor}-${count}`;
  };
}

/** Runs of whitespace to one space per line, and no more than one blank line in a row. */
export function tidy(text: string): string {
  return text
    .split('\n')
    .map((line) => line.replace(/[ \t\u00a0]+/g, ' ').trim())
    .join('\n')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
