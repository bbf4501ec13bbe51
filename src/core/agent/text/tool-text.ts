import type { Language } from '../../../shared/i18n/i18n';
import ptBR from '../../../shared/i18n/locales/pt-BR/tools.json';

/** A tool's words for the model in one language: its description, prompt note and parameter descriptions by path (`fields.label`). */
export interface ToolText {
  description: string;
  snippet?: string;
  params?: Readonly<Record<string, string>>;
}

/*
 * English lives with each tool's definition (MCP clients read it there too); other languages
 * translate it here, and a test keeps every tool and parameter covered.
 */
const TOOL_TEXTS: Partial<Record<Language, Readonly<Record<string, ToolText>>>> = { 'pt-BR': ptBR };

export function toolText(language: Language, name: string): ToolText | undefined {
  return TOOL_TEXTS[language]?.[name];
}

type Schema = Record<string, unknown>;

function isSchema(value: unknown): value is Schema {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Calls `visit` with each described property's path (`fields.label` for a property of an array's
 * items) and its schema, walking properties, items and unions the way zod's JSON Schema nests them.
 */
export function eachDescribed(schema: unknown, visit: (path: string, schema: Schema) => void, path = ''): void {
  if (!isSchema(schema)) return;
  if (path !== '' && typeof schema['description'] === 'string') visit(path, schema);
  const properties = schema['properties'];
  if (isSchema(properties)) for (const [key, value] of Object.entries(properties)) eachDescribed(value, visit, path === '' ? key : `${path}.${key}`);
  eachDescribed(schema['items'], visit, path);
  for (const key of ['anyOf', 'oneOf', 'allOf']) {
    const options = schema[key];
    if (Array.isArray(options)) for (const option of options) eachDescribed(option, visit, path);
  }
}

/** A copy of a parameters schema with its descriptions in another language; any not translated stay English. */
export function translateParameters<S>(parameters: S, params: Readonly<Record<string, string>>): S {
  const copy = structuredClone(parameters);
  eachDescribed(copy, (path, schema) => {
    const text = params[path];
    if (text !== undefined) schema['description'] = text;
  });
  return copy;
}
