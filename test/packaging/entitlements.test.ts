import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, loadConfig, plist } from './builder';

/**
 * Every entitlement Deskpilot may have, and why. Anything else in the plist fails the test: an
 * entitlement widens what a compromised app could do, so each one needs a reason here first.
 */
const ALLOWED: Record<string, string> = {
  'com.apple.security.cs.allow-jit': "V8 compiles JavaScript and WebAssembly (the OCR engine) into MAP_JIT memory; Electron's documented requirement",
};

/** Never: the App Sandbox forbids the Accessibility API on other apps; the rest switch hardening off for nothing Deskpilot needs. */
const FORBIDDEN = [
  'com.apple.security.app-sandbox',
  'com.apple.security.cs.disable-library-validation',
  'com.apple.security.cs.allow-dyld-environment-variables',
  'com.apple.security.get-task-allow',
];

describe('macOS entitlements', () => {
  const config = loadConfig();
  const files = [...new Set([config.mac?.entitlements, config.mac?.entitlementsInherit])].map((file) => path.join(ROOT, file ?? ''));

  it.each(files)('%s parses and holds only allowed keys, each switched on', (file) => {
    const parsed = plist.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
    expect(typeof parsed).toBe('object');
    const keys = Object.keys(parsed);
    expect(keys.length).toBeGreaterThan(0);
    expect(keys.filter((key) => !(key in ALLOWED))).toEqual([]);
    expect(keys.filter((key) => FORBIDDEN.includes(key))).toEqual([]);
    for (const key of keys) expect(parsed[key], key).toBe(true);
  });

  it('gives each allowed key a reason', () => {
    for (const [key, why] of Object.entries(ALLOWED)) expect(why.length, key).toBeGreaterThan(20);
  });
});
