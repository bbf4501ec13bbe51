import { ValidationError } from '../shared/errors';
import { MAX_ID_CHARS, MAX_NAME_CHARS, MAX_TEXT_CHARS, MAX_WORD_CHARS } from '../core/tools/bounds';

/** The same bounds as the tools' schemas, for the options that reach the same code. */
const OPTION_BOUNDS: Readonly<Record<string, number>> = {
  app: MAX_NAME_CHARS,
  name: MAX_NAME_CHARS,
  text: MAX_NAME_CHARS,
  role: MAX_WORD_CHARS,
  root: MAX_ID_CHARS,
  pid: MAX_WORD_CHARS,
  budget: MAX_WORD_CHARS,
  'max-nodes': MAX_WORD_CHARS,
  limit: MAX_WORD_CHARS,
  'max-chars': MAX_WORD_CHARS,
  offset: MAX_WORD_CHARS,
  top: MAX_WORD_CHARS,
  bounds: MAX_WORD_CHARS,
  preset: MAX_WORD_CHARS,
  lang: MAX_WORD_CHARS,
};

/** An operand: a node id for read, a ui_action for act (text to type included), a question or a query. */
const OPERAND_BOUND = MAX_TEXT_CHARS + 1_000;

/** Refuses an oversized option or operand before any work, as the MCP server refuses an oversized argument. */
export function checkLengths(values: Record<string, unknown>, operands: readonly string[]): void {
  for (const [name, max] of Object.entries(OPTION_BOUNDS)) {
    const value = values[name];
    if (typeof value === 'string' && value.length > max) throw new ValidationError(`--${name} is ${value.length} characters; at most ${max}`);
  }
  const long = operands.find((operand) => operand.length > OPERAND_BOUND);
  if (long !== undefined) throw new ValidationError(`an argument is ${long.length} characters; at most ${OPERAND_BOUND}`);
}
