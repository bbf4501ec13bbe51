/**
 * electron-builder's own configuration, schema and helpers, loaded the way electron-builder loads
 * them: through app-builder-lib's dependencies, so the checks use the parser, validator, plist
 * reader, archive reader and glob matcher it uses itself.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

export const ROOT = path.resolve(import.meta.dirname, '../..');

const builderRequire = createRequire(path.join(ROOT, 'node_modules/app-builder-lib/package.json'));

/** A file set, as electron-builder's schema allows it: a glob, or { from, to, filter }. */
export type FileSet = string | { from?: string; to?: string; filter?: string | string[] };

export interface BuilderConfig {
  appId?: string;
  productName?: string;
  icon?: string;
  files?: FileSet[];
  asar?: boolean;
  asarUnpack?: string[];
  npmRebuild?: boolean;
  directories?: { output?: string; buildResources?: string };
  publish?: { provider: string; releaseType?: string; owner?: string; repo?: string };
  mac?: {
    target?: { target: string; arch: string[] }[];
    hardenedRuntime?: boolean;
    entitlements?: string;
    entitlementsInherit?: string;
    extendInfo?: Record<string, unknown>;
    files?: unknown;
    notarize?: boolean;
  };
  linux?: { target?: { target: string; arch: string[] }[]; category?: string; executableName?: string; syncDesktopName?: boolean; files?: unknown };
  deb?: { depends?: string[] };
  win?: { target?: { target: string; arch: string[] }[]; files?: unknown };
  nsis?: { oneClick?: boolean; perMachine?: boolean };
  [key: string]: unknown;
}

export interface Minimatch {
  (file: string, pattern: string, options?: { dot?: boolean }): boolean;
}

export interface AsarEntry {
  size?: number;
  unpacked?: boolean;
  files?: Record<string, AsarEntry>;
}

export interface Asar {
  listPackage(archive: string, options: { isPack: boolean }): string[];
  getRawHeader(archive: string): { header: AsarEntry };
  extractFile(archive: string, file: string): Buffer;
}

export interface AjvError {
  instancePath: string;
  message?: string;
}

export interface Ajv {
  compile(schema: object): ((data: unknown) => boolean) & { errors?: AjvError[] | null };
}

export const yaml = builderRequire('js-yaml') as { load(text: string): unknown };
export const plist = builderRequire('plist') as { parse(text: string): unknown };
export const asar = builderRequire('@electron/asar') as Asar;
export const minimatch = (builderRequire('minimatch') as { minimatch: Minimatch }).minimatch;
const AjvClass = (builderRequire('ajv') as { default: new (options: object) => Ajv }).default;
export const newAjv = (options: object): Ajv => new AjvClass(options);

/** electron-builder's JSON schema, as shipped in its package. */
export const schema = JSON.parse(readFileSync(path.join(ROOT, 'node_modules/app-builder-lib/scheme.json'), 'utf8')) as object;

export const CONFIG_FILE = path.join(ROOT, 'electron-builder.yml');

export function loadConfig(): BuilderConfig {
  return yaml.load(readFileSync(CONFIG_FILE, 'utf8')) as BuilderConfig;
}
