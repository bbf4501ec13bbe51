import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, loadConfig } from './builder';
import { readPng } from './png';

const resources = path.join(ROOT, 'resources');
const read = (file: string) => readPng(readFileSync(path.join(resources, file)));

describe('icons', () => {
  it('has one source icon, 1024 px square with transparency, from which electron-builder makes every format', () => {
    const icon = read(path.basename(loadConfig().icon ?? ''));
    expect(icon).toMatchObject({ width: 1024, height: 1024, colorType: 6 });
    // Transparent corners: the rounded square leaves them empty, as macOS icons are drawn.
    expect(icon.rgba[3]).toBe(0);
    // No hand-made .icns or .ico to drift from it.
    expect(readdirSync(resources).filter((file) => /\.(icns|ico)$/.test(file))).toEqual([]);
  });

  it.each(['trayTemplate.png', 'trayTemplate@2x.png'])('%s, the macOS menu-bar icon, is monochrome: black, shaped by alpha alone', (file) => {
    const { rgba, width } = read(file);
    expect(width).toBe(file.includes('@2x') ? 32 : 16);
    let opaque = 0;
    for (let index = 0; index < rgba.length; index += 4) {
      if ((rgba[index + 3] ?? 0) === 0) continue;
      opaque += 1;
      expect([rgba[index], rgba[index + 1], rgba[index + 2]], `pixel ${index / 4}`).toEqual([0, 0, 0]);
    }
    expect(opaque).toBeGreaterThan(0);
  });

  it.each(['tray.png', 'tray@2x.png'])('%s exists at the size its name says', (file) => {
    expect(read(file).width).toBe(file.includes('@2x') ? 32 : 16);
  });
});
