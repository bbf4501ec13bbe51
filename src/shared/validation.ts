/**
 * The one way a schema failure is put into words, for models (tool arguments, ui_action
 * requests) and for people (IPC payloads, host messages, CLI options) alike: the field and
 * what is wrong with it, never the value given, which may be a key.
 */

/** The parts of a zod issue the wording needs; zod's own issues fit it. */
export interface IssueLike {
  code?: string;
  path: readonly PropertyKey[];
  message: string;
  keys?: readonly string[];
  expected?: unknown;
  note?: string;
  options?: readonly unknown[];
  values?: readonly unknown[];
}

export interface DescribeOptions {
  /** The value that was checked, to tell a missing field from a wrong one. */
  input?: unknown;
  /** What the fields belong to, such as `'click'`: "'click' needs 'id'", "unknown field 'x' for 'click'". */
  subject?: string;
  /** Most issues to list; the first ones say enough. Default: all. */
  max?: number;
}

function fieldOf(path: readonly PropertyKey[]): string {
  return path.map(String).join('.');
}

function valueAt(input: unknown, path: readonly PropertyKey[]): unknown {
  let value = input;
  for (const key of path) {
    if (typeof value !== 'object' || value === null) return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}

export function describeIssue(issue: IssueLike, options: DescribeOptions = {}): string {
  const field = fieldOf(issue.path);
  const forSubject = options.subject === undefined ? '' : ` for ${options.subject}`;
  if (issue.code === 'unrecognized_keys' && issue.keys !== undefined) {
    const keys = issue.keys.map((key) => `'${field === '' ? key : `${field}.${key}`}'`).join(', ');
    return `unknown field${issue.keys.length > 1 ? 's' : ''} ${keys}${forSubject}`;
  }
  if (issue.code === 'invalid_union' && issue.note === 'No matching discriminator' && issue.options !== undefined) {
    return `'${field}' must be one of ${issue.options.map(String).join(', ')}; got ${JSON.stringify(valueAt(options.input, issue.path)) ?? 'nothing'}`;
  }
  if (issue.code === 'invalid_value' && issue.values !== undefined && valueAt(options.input, issue.path) !== undefined) {
    return `'${field}' must be one of ${issue.values.map(String).join(', ')}; got ${JSON.stringify(valueAt(options.input, issue.path))}`;
  }
  if ('input' in options && field !== '' && valueAt(options.input, issue.path) === undefined) {
    const expected = issue.code === 'invalid_type' && typeof issue.expected === 'string' ? issue.expected : 'a value';
    return options.subject === undefined ? `'${field}' is required (${expected})` : `${options.subject} needs '${field}' (${expected})`;
  }
  return field === '' ? issue.message : `'${field}': ${issue.message}`;
}

/** Every issue (or the first `max`), one clause each, joined with '; '. */
export function describeIssues(issues: readonly IssueLike[], options: DescribeOptions = {}): string {
  return issues
    .slice(0, options.max ?? issues.length)
    .map((issue) => describeIssue(issue, options))
    .join('; ');
}
