/**
 * The ui_action fields, one row an action: `deskpilot act --help` prints it and docs/cli.md's
 * table must say the same (a test holds them equal). The examples use the ids of the fixture
 * desktop (DESKPILOT_PLATFORM=fake), so each runs as written.
 */
export interface ActRow {
  action: string;
  fields: string;
  examples: readonly string[];
}

export const ACT_FIELDS: readonly ActRow[] = [
  { action: 'click', fields: '`id`', examples: ['{"action":"click","id":"gavai"}'] },
  {
    action: 'set_value',
    fields: '`id`, `value` (text; a number for sliders and spin buttons; for a combo box, the name of an item, chosen and read back)',
    examples: ['{"action":"set_value","id":"hdnda","value":"Ada"}', '{"action":"set_value","id":"pqiff","value":70}'],
  },
  {
    action: 'type',
    fields: '`text`, optional `id` to focus first (without it, the text goes to the control that has the focus, and is verified there)',
    examples: ['{"action":"type","id":"hdnda","text":"hello"}', '{"action":"type","text":"hello"}'],
  },
  {
    action: 'key',
    fields: '`key` (a key or combo), optional `modifiers`, optional `id` to focus first',
    examples: ['{"action":"key","key":"ctrl+a"}', '{"action":"key","key":"a","modifiers":["ctrl"]}'],
  },
  {
    action: 'scroll',
    fields: '`id`, optional `direction` (up, down, left, right; default down) and `amount` (notches, default 3)',
    examples: ['{"action":"scroll","id":"khdcl","direction":"down","amount":5}'],
  },
  { action: 'drag', fields: '`id` (source), `toId` (target)', examples: ['{"action":"drag","id":"voerv","toId":"bkpyq"}'] },
];

/** The table as `--help` prints it: plain text, no Markdown backticks. */
export function actTable(): string[] {
  const plain = (text: string): string => text.replaceAll('`', '');
  return ACT_FIELDS.flatMap((row) => [`  ${row.action.padEnd(10)}${plain(row.fields)}`, ...row.examples.map((example) => `${' '.repeat(12)}${example}`)]);
}
