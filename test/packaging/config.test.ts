import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRequire } from 'node:module';
import { ROOT, loadConfig, newAjv, schema } from './builder';

const config = loadConfig();
const packageJson = JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as { desktopName?: string; scripts: Record<string, string> };

describe('electron-builder.yml', () => {
  it("validates against electron-builder's own JSON schema, without type coercion", () => {
    // electron-builder validates with coerceTypes on, so "true" would pass for true; this does not.
    // strict is off only for the schema's own `typeof` keyword, which ajv does not know.
    const validate = newAjv({ allErrors: true, strict: false }).compile(schema);
    expect(validate(config), JSON.stringify(validate.errors, null, 2)).toBe(true);
    expect(validate({ ...config, mac: { ...config.mac, hardnedRuntime: true } })).toBe(false);
  });

  it('keeps every file rule at the top level', () => {
    // A platform section's `files` becomes a second matcher, and the first one then packs the whole project.
    for (const platform of ['mac', 'linux', 'win'] as const) expect(config[platform]?.files, platform).toBeUndefined();
  });

  it('builds dmg and zip for both Mac architectures, with a hardened runtime and entitlements', () => {
    expect(config.mac?.target).toEqual([
      { target: 'dmg', arch: ['arm64', 'x64'] },
      { target: 'zip', arch: ['arm64', 'x64'] },
    ]);
    expect(config.mac?.hardenedRuntime).toBe(true);
    for (const file of [config.mac?.entitlements, config.mac?.entitlementsInherit]) expect(existsSync(path.join(ROOT, file ?? '')), file).toBe(true);
    // Never sandboxed: no sandbox entitlement (entitlements.test.ts), and no Mac App Store target.
    expect(JSON.stringify(config)).not.toMatch(/"mas"|app-sandbox/);
  });

  it('names the app in its Info.plist and runs as a menu-bar app', () => {
    expect(config.productName).toBe('Deskpilot');
    expect(config.mac?.extendInfo).toMatchObject({ CFBundleDisplayName: 'Deskpilot', LSUIElement: true });
    // No usage string for a permission Deskpilot never asks for.
    expect(Object.keys(config.mac?.extendInfo ?? {}).filter((key) => key.endsWith('UsageDescription'))).toEqual([]);
  });

  it('builds an AppImage and a deb that depends on the AT-SPI registry and XTest, with a categorised .desktop file', () => {
    expect(config.linux?.target?.map((target) => target.target)).toEqual(['AppImage', 'deb']);
    expect(config.deb?.depends).toEqual(expect.arrayContaining(['at-spi2-core', 'libxtst6']));
    // Setting depends replaces electron-builder's own list, so Electron's needs must be there too.
    expect(config.deb?.depends).toEqual(expect.arrayContaining(['libgtk-3-0', 'libnss3', 'libatspi2.0-0', 'libsecret-1-0']));
    expect(config.linux?.category).toMatch(/^Utility(;|$)/);
    // The Wayland shortcut portal finds the app by package.json's desktopName.
    expect(config.linux?.syncDesktopName).toBe(true);
    expect(packageJson.desktopName).toBe(`${config.linux?.executableName ?? ''}.desktop`);
  });

  it('builds a per-user NSIS installer for Windows', () => {
    expect(config.win?.target).toEqual([{ target: 'nsis', arch: ['x64'] }]);
    expect(config.nsis).toMatchObject({ oneClick: true, perMachine: false });
  });

  it('publishes to GitHub Releases as drafts, which the updater reads', () => {
    expect(config.publish).toMatchObject({ provider: 'github', releaseType: 'draft' });
  });

  it("names the installers as the README's download links do", () => {
    // electron-builder's own naming of architectures per format (x64 is x86_64 for AppImage, amd64 for deb).
    const { Arch, getArtifactArchName } = createRequire(path.join(ROOT, 'node_modules/app-builder-lib/package.json'))('builder-util') as {
      Arch: Record<string, number>;
      getArtifactArchName(arch: number, ext: string): string;
    };
    const name = (pattern: string, os: string, arch: string, ext: string): string =>
      pattern
        .replaceAll('${productName}', config.productName ?? '')
        .replaceAll('${os}', os)
        .replaceAll('${arch}', getArtifactArchName(Arch[arch] ?? -1, ext))
        .replaceAll('${ext}', ext);
    const pattern = String(config['artifactName']);
    const nsis = String((config.nsis as { artifactName?: string } | undefined)?.artifactName ?? pattern);
    const installers = [
      name(pattern, 'mac', 'arm64', 'dmg'),
      name(pattern, 'mac', 'x64', 'dmg'),
      name(pattern, 'linux', 'x64', 'AppImage'),
      name(pattern, 'linux', 'x64', 'deb'),
      name(nsis, 'win', 'x64', 'exe'),
    ];
    expect(installers).toEqual([
      'Deskpilot-mac-arm64.dmg',
      'Deskpilot-mac-x64.dmg',
      'Deskpilot-linux-x86_64.AppImage',
      'Deskpilot-linux-amd64.deb',
      'Deskpilot-win-x64-setup.exe',
    ]);
    const readme = readFileSync(path.join(ROOT, 'README.md'), 'utf8');
    for (const file of installers) expect(readme, file).toContain(`(../../releases/latest/download/${file})`);
  });

  it('converts one source icon, a PNG of at least 512 px', () => {
    expect(config.icon).toBe('resources/icon.png');
  });

  it('has a script per platform that builds first, and never publishes from a laptop', () => {
    for (const script of ['dist', 'dist:mac', 'dist:linux', 'dist:win']) {
      expect(packageJson.scripts[script], script).toMatch(/^npm run build && electron-builder .*--publish never$/);
    }
  });
});
