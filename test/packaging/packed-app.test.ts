/**
 * What the installers would hold, found by packing for real: `npm run build`, then electron-builder
 * itself packs the app for Linux into a folder (`--dir`), with a stand-in for Electron's binary,
 * which cannot be downloaded here. Its app.asar and app.asar.unpacked are exactly what every
 * installer ships besides Electron; the list lands in test/artifacts/packaging/packed-files.txt.
 */
import { execFile } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../app-build';
import { ROOT, asar, loadConfig, minimatch, yaml, type AsarEntry } from './builder';

const LIMIT_BYTES = 60 * 1000 * 1000;
const work = mkdtempSync(path.join(tmpdir(), 'deskpilot-pack-'));
const resources = path.join(work, 'dist/linux-unpacked/resources');
const archive = path.join(resources, 'app.asar');
const config = loadConfig();
const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
  dependencies: Record<string, string>;
  optionalDependencies: Record<string, string>;
};

/** Every packed file (leading slash, as asar names them): its size and whether it sits in app.asar.unpacked. */
const packed = new Map<string, { size: number; unpacked: boolean }>();

/** The production dependency folders npm installed (set in beforeAll). */
let productionPackages: string[] = [];

function collect(entry: AsarEntry, at: string): void {
  if (entry.files !== undefined) for (const [name, child] of Object.entries(entry.files)) collect(child, `${at}/${name}`);
  else packed.set(at, { size: entry.size ?? 0, unpacked: entry.unpacked === true });
}

beforeAll(async () => {
  // npm takes seconds to list the tree and needs nothing of the build: it runs meanwhile.
  const listed = listProductionPackages();
  // Awaited at the end; a failed build before then must not leave its failure unhandled.
  listed.catch(() => undefined);
  const run = promisify(execFile);
  // Made once per state of the sources, shared with test/build.test.ts.
  await buildApp();
  // electron-builder copies this folder as "Electron"; it only renames the binary and adds the app.
  const electron = path.join(work, 'electron');
  mkdirSync(path.join(electron, 'resources'), { recursive: true });
  writeFileSync(path.join(electron, 'electron'), '#!/bin/sh\n');
  chmodSync(path.join(electron, 'electron'), 0o755);
  for (const file of ['LICENSE', 'LICENSES.chromium.html', 'version']) writeFileSync(path.join(electron, file), '');
  await run(
    process.execPath,
    [
      path.join(ROOT, 'node_modules/electron-builder/cli.js'),
      '--linux',
      'dir',
      '--x64',
      '--publish',
      'never',
      `-c.electronDist=${electron}`,
      `-c.directories.output=${path.join(work, 'dist')}`,
      // The release workflow names the repository the same way (this clone may have no remote).
      '-c.publish.owner=deskpilot-releases',
      '-c.publish.repo=deskpilot',
    ],
    { cwd: ROOT, env: { ...process.env, CSC_IDENTITY_AUTO_DISCOVERY: 'false' }, maxBuffer: 16 * 1024 * 1024 },
  );
  collect(asar.getRawHeader(archive).header, '');
  const report = [...packed].map(([file, { size, unpacked }]) => `${String(size).padStart(10)} ${unpacked ? 'U' : ' '} ${file}`).join('\n');
  mkdirSync(path.join(ROOT, 'test/artifacts/packaging'), { recursive: true });
  writeFileSync(path.join(ROOT, 'test/artifacts/packaging/packed-files.txt'), `${report}\n`);
  productionPackages = await listed;
}, 300_000);

afterAll(() => rmSync(work, { recursive: true, force: true }));

const files = (): string[] => [...packed.keys()];
const inModules = (file: string): boolean => file.startsWith('/node_modules/');
/** `/node_modules/a/node_modules/@b/c/x.js` → `/node_modules/a/node_modules/@b/c`. */
const packageDir = (file: string): string | undefined => /^(.*\/node_modules\/(?:@[^/]+\/)?[^/]+)/.exec(file)?.[1];
const packageName = (dir: string): string => dir.replace(/^.*\/node_modules\//, '');

/** Node's lookup of a bare name from a packed package folder: its own node_modules, then each parent's. */
function resolvePackage(from: string, name: string, dirs: Set<string>): string | undefined {
  for (let at = from; ; at = at.slice(0, at.lastIndexOf('/node_modules/'))) {
    const candidate = `${at}/node_modules/${name}`;
    if (dirs.has(candidate)) return candidate;
    if (!at.includes('/node_modules/')) return dirs.has(`/node_modules/${name}`) ? `/node_modules/${name}` : undefined;
  }
}

/** Asks npm for the production dependency folders it installed. */
async function listProductionPackages(): Promise<string[]> {
  // npm ls exits non-zero over an extraneous or invalid package in a developer's tree; its list is still whole.
  const output = await new Promise<string>((resolve, reject) =>
    execFile('npm', ['ls', '--omit=dev', '--all', '--parseable'], { cwd: ROOT, encoding: 'utf8', maxBuffer: 16 * 1024 * 1024 }, (error, stdout) =>
      error !== null && stdout === '' ? reject(error) : resolve(stdout),
    ),
  );
  return [...new Set(output.split('\n').filter((line) => line.includes(`${path.sep}node_modules${path.sep}`)))];
}

function ownFiles(dir: string, base = dir): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    if (entry.name === 'node_modules') return [];
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return ownFiles(full, base);
    return [path.relative(ROOT, full).split(path.sep).join('/')];
  });
}

describe.skipIf(process.platform === 'win32')('the packed app', () => {
  it('holds the built app, the tray images and package.json, and nothing else of the project', () => {
    for (const file of ['/out/main/index.js', '/out/main/host.js', '/out/preload/index.cjs', '/out/renderer/index.html', '/package.json']) {
      expect(packed.has(file), file).toBe(true);
    }
    for (const file of ['tray.png', 'tray@2x.png', 'trayTemplate.png', 'trayTemplate@2x.png']) expect(packed.has(`/resources/${file}`), file).toBe(true);
    const outside = files().filter(
      (file) => !inModules(file) && !/^\/out\/(main|preload|renderer)\//.test(file) && !/^\/resources\/tray[^/]*\.png$/.test(file),
    );
    expect(outside).toEqual(['/package.json']);
  });

  it('stays under 60 MB without Electron', () => {
    const bytes = [...packed.values()].reduce((sum, { size }) => sum + size, 0);
    // The archive and the unpacked folder as they are on disk: what the installers add to Electron.
    const unpacked = (dir: string): number =>
      readdirSync(dir, { withFileTypes: true }).reduce((sum, entry) => {
        const full = path.join(dir, entry.name);
        return sum + (entry.isDirectory() ? unpacked(full) : statSync(full).size);
      }, 0);
    const onDisk = statSync(archive).size + unpacked(`${archive}.unpacked`);
    process.stdout.write(`packed app: ${(bytes / 1e6).toFixed(1)} MB in ${packed.size} files (${(onDisk / 1e6).toFixed(1)} MB on disk)\n`);
    expect(bytes).toBeLessThan(LIMIT_BYTES);
    expect(onDisk).toBeLessThan(LIMIT_BYTES);
  });

  it('leaves out the Node runtime packages, tsx, tests, benches, fixtures and examples', () => {
    const runtimes = Object.keys(packageJson.optionalDependencies).filter((name) => /^node-(darwin|linux|win)-/.test(name));
    expect(runtimes.length).toBeGreaterThan(0);
    const dirs = new Set(
      files()
        .map(packageDir)
        .filter((dir) => dir !== undefined),
    );
    const names = new Set([...dirs].map(packageName));
    for (const name of [...runtimes, 'tsx', 'esbuild', 'typescript', 'vitest', 'electron']) expect(names.has(name), name).toBe(false);
    expect(files().filter((file) => /\/(test|tests|__tests__|spec|bench|benchmark|benchmarks|fixtures|example|examples)\//.test(file))).toEqual([]);
    expect(files().filter((file) => /\.(test|spec|bench)\.[cm]?[jt]s$/.test(file))).toEqual([]);
  });

  it('unpacks every .node file of the production dependencies, whatever the OS', () => {
    const natives = productionPackages.flatMap((dir) => ownFiles(dir).filter((file) => file.endsWith('.node')));
    // koffi's and libnut's binaries at least; the other OSes' libnut binaries are installed here too.
    expect(natives.some((file) => file.includes('koffi'))).toBe(true);
    expect(natives.filter((file) => file.includes('libnut')).length).toBeGreaterThanOrEqual(3);
    const unpack = config.asarUnpack ?? [];
    expect(natives.filter((file) => !unpack.some((pattern) => minimatch(file, pattern, { dot: true })))).toEqual([]);
    // And in the archive itself: no binary left inside, every packed one beside it.
    const packedNatives = files().filter((file) => file.endsWith('.node'));
    expect(packedNatives.length).toBeGreaterThan(0);
    expect(packedNatives.filter((file) => packed.get(file)?.unpacked !== true)).toEqual([]);
    for (const file of packedNatives) expect(existsSync(path.join(`${archive}.unpacked`, file)), file).toBe(true);
  });

  it("packs every package main, the host and preload import, and every packed package's dependencies", () => {
    const dirs = new Set(
      files()
        .map(packageDir)
        .filter((dir) => dir !== undefined),
    );
    const bare = (specifier: string): string => (specifier.startsWith('@') ? specifier.split('/').slice(0, 2).join('/') : (specifier.split('/')[0] ?? ''));
    const imported = new Set<string>();
    for (const file of files().filter((name) => /^\/out\/(main|preload)\/.*\.c?js$/.test(name))) {
      const text = asar.extractFile(archive, file.slice(1)).toString('utf8');
      for (const match of text.matchAll(/(?:^\s*(?:import|export)\b[^'"]*?\bfrom\s*|^\s*import\s*|\bimport\(\s*|\brequire\(\s*)["']([^"'./][^"']*)["']/gm)) {
        imported.add(bare(match[1] ?? ''));
      }
    }
    const external = [...imported].filter((name) => name !== 'electron' && !name.startsWith('node:') && !builtinModules.includes(name));
    expect(external.length).toBeGreaterThan(5);
    expect(external.filter((name) => resolvePackage('', name, dirs) === undefined)).toEqual([]);
    // libnut requires the binary package of the OS it runs on (dist/import_libnut.js); the others are left out.
    const ownOs = `@nut-tree-fork/libnut-${process.platform}`;
    const otherOs = (name: string): boolean => /^@nut-tree-fork\/libnut-(darwin|linux|win32)$/.test(name) && name !== ownOs;
    const missing: string[] = [];
    for (const dir of dirs) {
      const manifest = JSON.parse(asar.extractFile(archive, `${dir.slice(1)}/package.json`).toString('utf8')) as { dependencies?: Record<string, string> };
      for (const name of Object.keys(manifest.dependencies ?? {}))
        if (!otherOs(name) && resolvePackage(dir, name, dirs) === undefined) missing.push(`${packageName(dir)} → ${name}`);
    }
    expect(missing).toEqual([]);
    expect(resolvePackage('/node_modules/@nut-tree-fork/libnut', ownOs, dirs)).toBeDefined();
  });

  it('resolves every relative require and import of the packed JavaScript to a packed file', () => {
    // Known dead references: files that are never loaded at run time.
    const DEAD = new Set([
      '/node_modules/load-bmfont/test-server.js', // a demo server in the package root
      '/node_modules/readable-stream/lib/internal/streams/lazy_transform.js', // copied from Node's core, never required
      '/node_modules/tesseract.js-core/index.js', // the browser entry; under Node tesseract.js requires the -lstm cores by name
    ]);
    const names = new Set(files());
    const ENDINGS = ['', '.js', '.json', '.cjs', '.mjs', '.node', '/index.js', '/index.json', '/index.cjs', '/index.mjs', '/package.json'];
    const broken: string[] = [];
    for (const file of files().filter((name) => inModules(name) && /\.[cm]?js$/.test(name) && !DEAD.has(name))) {
      let text = (packed.get(file)?.unpacked ? readFileSync(path.join(`${archive}.unpacked`, file)) : asar.extractFile(archive, file.slice(1))).toString(
        'utf8',
      );
      // Bundles carry their own module table; their "./x" are not files.
      if (/__webpack_require__|function\s*\(\s*require\s*,\s*module\s*,\s*exports\s*\)/.test(text)) continue;
      text = text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
      for (const match of text.matchAll(
        /(?:\brequire\(\s*|^\s*(?:import|export)\b[^'"]*?\bfrom\s*|^\s*import\s*|\bimport\(\s*)['"](\.{1,2}(?:\/[^'"]*)?)['"]/gm,
      )) {
        const target = path.posix.join(path.posix.dirname(file), match[1] ?? '').replace(/\/$/, '');
        if (!ENDINGS.some((ending) => names.has(target + ending))) broken.push(`${file} → ${match[1]}`);
      }
    }
    expect(broken).toEqual([]);
  });

  it('packs what OCR loads under Node, and unpacks the models it links into a temp folder', () => {
    for (const core of ['tesseract-core-lstm', 'tesseract-core-simd-lstm', 'tesseract-core-relaxedsimd-lstm']) {
      for (const ending of ['.js', '.wasm']) expect(packed.has(`/node_modules/tesseract.js-core/${core}${ending}`), core + ending).toBe(true);
    }
    expect(packed.has('/node_modules/tesseract.js/src/worker-script/node/index.js')).toBe(true);
    // The legacy-engine cores are left out: the code must keep to the LSTM engine.
    const sources = ownFiles(path.join(ROOT, 'src')).filter((file) => /\.tsx?$/.test(file));
    for (const source of sources) {
      const text = readFileSync(path.join(ROOT, source), 'utf8');
      if (!text.includes("from 'tesseract.js'")) continue;
      expect(text, source).not.toMatch(/OEM\.(TESSERACT_ONLY|TESSERACT_LSTM_COMBINED)/);
      const model = /const MODEL = '([^']+)'/.exec(text)?.[1];
      if (model === undefined) continue;
      for (const language of ['eng', 'por']) {
        const file = `/node_modules/@tesseract.js-data/${language}/${model}/${language}.traineddata.gz`;
        expect(packed.get(file), file).toMatchObject({ unpacked: true });
      }
    }
  });

  it('tells the updater where releases are', () => {
    expect(yaml.load(readFileSync(path.join(resources, 'app-update.yml'), 'utf8'))).toMatchObject({
      provider: 'github',
      owner: 'deskpilot-releases',
      repo: 'deskpilot',
    });
  });
});
