import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { CATALOGS, PLURAL, flatten } from '../../src/shared/i18n/catalog-keys';

const ROOT = path.resolve(import.meta.dirname, '../..');
const load = (language: string, namespace: 'translation' | 'agent') => CATALOGS[language]?.[namespace] ?? {};

/** Every file under src that may call t(). */
function sources(folder = path.join(ROOT, 'src')): string[] {
  return readdirSync(folder, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

describe('catalog keys and the code', () => {
  it('has every key the code uses, and the code uses every key', () => {
    const keys = (['translation', 'agent'] as const).flatMap((namespace) => flatten(load('en', namespace)).map(([key]) => key));
    const bases = new Set(keys.map((key) => key.replace(PLURAL, '')));
    const code = sources()
      .map((file) => readFileSync(file, 'utf8'))
      .join('\n');
    // Keys in calls: t('a.b'), i18n.t("a.b"). (The compiler checks keys held in typed constants too.)
    const called = [...code.matchAll(/\bt\(\s*['"]([^'"]+)['"]/g)].map((match) => match[1] ?? '');
    expect(called.length).toBeGreaterThan(100);
    expect(called.filter((key) => !bases.has(key))).toEqual([]);
    // Used anywhere as a quoted string: a call, or a typed constant ('docs.appHelp' as a label).
    const used = new Set([...code.matchAll(/['"]((?:[a-z][A-Za-z]*\.)+[A-Za-z0-9_-]+)['"]/g)].map((match) => match[1] ?? ''));
    // Keys built from a value (`errors.${code}`, `tool.status.${status}`) count through their prefix.
    const prefixes = [...code.matchAll(/t\(\s*`((?:[a-z][A-Za-z]*\.)+)\$\{/g)].map((match) => match[1] ?? '');
    const unused = [...bases].filter((key) => !used.has(key) && !prefixes.some((prefix) => key.startsWith(prefix)));
    expect(unused).toEqual([]);
  });
});
