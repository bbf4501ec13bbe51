/**
 * A long, deterministic markdown answer of the kind the chat shows: headings, prose with inline
 * code and links, lists, tables and fenced code in the highlighted languages.
 */
const CODE = [
  '```typescript\nexport function total(items: { price: number; count: number }[]): number {\n  return items.reduce((sum, item) => sum + item.price * item.count, 0);\n}\n```',
  '```python\ndef summarize(rows):\n    """Group rows by status."""\n    counts = {}\n    for row in rows:\n        counts[row["status"]] = counts.get(row["status"], 0) + 1\n    return counts\n```',
  '```bash\nfor file in ~/Documents/*.txt; do\n  wc -l "$file"\ndone\n```',
  '```json\n{ "action": "click", "id": "k3x9a", "settleMs": 80 }\n```',
];

function section(index: number): string {
  const table = [
    '| Field | Value | Changed |',
    '|---|---|---|',
    ...Array.from({ length: 4 }, (_, row) => `| field ${index}.${row} | value ${row * 7} | ${row % 2 === 0 ? 'yes' : 'no'} |`),
  ].join('\n');
  const list = Array.from(
    { length: 5 },
    (_, item) => `- Step ${item + 1}: press **${['Save', 'Open', 'Close', 'Next', 'Done'][item]}** in \`dialog-${index}\``,
  ).join('\n');
  return [
    `## Part ${index + 1}: what the window shows`,
    `The document has *${index + 3} paragraphs* and a toolbar with \`Bold\`, \`Italic\` and \`Underline\`. See https://example.com/docs/${index} for the details, or [the guide](https://example.com/guide#${index}).`,
    list,
    table,
    CODE[index % CODE.length] ?? '',
    `> Note ${index}: the values above were read from the accessibility tree, not from pixels.`,
  ].join('\n\n');
}

/** Exactly `length` characters, cut at the end of the last whole section plus filler prose. */
export function longAnswer(length: number): string {
  let text = '';
  for (let index = 0; text.length < length; index += 1) text += `${section(index)}\n\n`;
  return text.slice(0, length);
}

/** `count` chunks of (almost) equal size, as a model's deltas would arrive. */
export function chunks(text: string, count: number): string[] {
  const size = Math.ceil(text.length / count);
  return Array.from({ length: Math.ceil(text.length / size) }, (_, index) => text.slice(index * size, (index + 1) * size));
}
