import { describe, expect, it } from 'vitest';
import { LANGUAGES } from '../../../shared/i18n/i18n';
import { createToolRegistry } from '../tool-registry/registry';
import { eachDescribed, toolText, translateParameters } from './tool-text';

const registry = createToolRegistry();
const functions = (language: 'en' | 'pt-BR') => registry.definitions(language).flatMap((tool) => (tool.type === 'function' ? [tool.function] : []));
const english = functions('en');

describe('tool descriptions in other languages', () => {
  for (const language of LANGUAGES.filter((each) => each !== 'en')) {
    it(`${language} translates every built-in tool: description, prompt note and every described parameter`, () => {
      for (const tool of english) {
        const text = toolText(language, tool.name);
        expect(text?.description, `${tool.name} description`).toBeTruthy();
        const definition = registry.tool(tool.name);
        expect(text?.snippet === undefined, `${tool.name} snippet`).toBe(definition?.promptSnippet === undefined);
        const paths: string[] = [];
        eachDescribed(tool.parameters, (path) => paths.push(path));
        expect(Object.keys(text?.params ?? {}).sort(), `${tool.name} params`).toEqual([...new Set(paths)].sort());
      }
    });

    it(`${language} keeps the schema itself: only descriptions change`, () => {
      const translated = functions(language);
      const strip = (value: unknown): unknown => JSON.parse(JSON.stringify(value, (key, inner: unknown) => (key === 'description' ? undefined : inner)));
      expect(translated.map((tool) => strip(tool))).toEqual(english.map((tool) => strip(tool)));
      expect(translated.map((tool) => tool.name)).toEqual(english.map((tool) => tool.name));
    });
  }

  it('leaves untranslated parameters (a plugin tool’s) in English and never touches the original', () => {
    const schema = {
      type: 'object',
      properties: { a: { type: 'string', description: 'A' }, b: { type: 'array', items: { type: 'object', properties: { c: { description: 'C' } } } } },
    };
    const copy = translateParameters(schema, { 'b.c': 'Cê' });
    expect(copy.properties.b.items.properties.c.description).toBe('Cê');
    expect(copy.properties.a.description).toBe('A');
    expect(schema.properties.b.items.properties.c.description).toBe('C');
  });
});
