/**
 * What one of the user's MCP servers may put in front of the model. Every tool goes with every
 * request, so a server with 10,000 tools or a 10 MB schema would make every ask fail (and the
 * provider get the blame for refusing it). Offenders are left out with a notice; the rest stay.
 */
export interface ToolLimits {
  /** Most tools one server may offer. */
  perServer: number;
  /** Most external tools in all, over every server. */
  total: number;
  /** Most characters of one tool's input schema as JSON. */
  schemaChars: number;
  /** Deepest nesting of objects and arrays in one schema. */
  schemaDepth: number;
  /** A description longer than this is cut; it is prompt text on every request. */
  descriptionChars: number;
}

export const DEFAULT_TOOL_LIMITS: ToolLimits = { perServer: 64, total: 128, schemaChars: 20_000, schemaDepth: 12, descriptionChars: 1_000 };

/** Why a tool's input schema cannot go to the model, or undefined when it can. */
export function schemaProblem(schema: unknown, limits: Pick<ToolLimits, 'schemaChars' | 'schemaDepth'>): string | undefined {
  if (schema === null || typeof schema !== 'object' || Array.isArray(schema) || (schema as { type?: unknown }).type !== 'object') {
    return 'its input schema is not an object schema';
  }
  let size: number;
  try {
    size = JSON.stringify(schema).length;
  } catch {
    return 'its input schema cannot be written as JSON';
  }
  if (size > limits.schemaChars) return `its input schema is ${size.toLocaleString('en')} characters (the limit is ${limits.schemaChars.toLocaleString('en')})`;
  const depth = depthOf(schema, limits.schemaDepth + 1);
  if (depth > limits.schemaDepth) return `its input schema nests more than ${limits.schemaDepth} levels deep`;
  return undefined;
}

/** How deep objects and arrays nest, counted no further than `stop`; iterative, so no nesting overflows the stack. */
export function depthOf(value: unknown, stop: number): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 1]];
  while (stack.length > 0) {
    const [current, depth] = stack.pop() as [unknown, number];
    if (current === null || typeof current !== 'object') continue;
    deepest = Math.max(deepest, depth);
    if (deepest >= stop) return deepest;
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

/** `name`, or `name_2`, `name_3`… when it is taken, kept within `max` characters. */
export function uniqueName(name: string, taken: ReadonlySet<string>, max = 64): string {
  if (!taken.has(name)) return name;
  // Bounded: at most taken.size + 1 suffixes can be tried before one is free.
  for (let number = 2; number <= taken.size + 2; number += 1) {
    const suffix = `_${number}`;
    const candidate = `${name.slice(0, max - suffix.length)}${suffix}`;
    if (!taken.has(candidate)) return candidate;
  }
  return name;
}
