import { describe, expect, it } from 'vitest';
import { afterSign } from '../../scripts/after-sign.mjs';
import { loadConfig } from './builder';

type Call = [string, string[]];

/** codesign as the build machine answers it: `shown` is what -dv prints (to stderr). */
function codesign(shown: string | Error): { calls: Call[]; run: (file: string, args: string[]) => Promise<{ stdout: string; stderr: string }> } {
  const calls: Call[] = [];
  return {
    calls,
    run: (file, args) => {
      calls.push([file, args]);
      if (args[0] === '-dv')
        return shown instanceof Error
          ? Promise.reject(Object.assign(shown, { stderr: 'code object is not signed at all' }))
          : Promise.resolve({ stdout: '', stderr: shown });
      return Promise.resolve({ stdout: '', stderr: '' });
    },
  };
}

const context = (platform: string) => ({
  electronPlatformName: platform,
  appOutDir: '/out/mac-arm64',
  packager: { appInfo: { productFilename: 'Deskpilot' } },
});
const APP = '/out/mac-arm64/Deskpilot.app';

describe('afterSign: an ad-hoc signature for unsigned Mac builds (issue 29, point 10)', () => {
  it("is electron-builder.yml's afterSign hook", () => {
    expect(loadConfig()['afterSign']).toBe('./scripts/after-sign.mjs');
  });

  it("signs a build that has only Electron's linker stub ad hoc, without the hardened runtime, and verifies the seal", async () => {
    const { calls, run } = codesign(
      'Executable=/out/Deskpilot\nIdentifier=Electron\nCodeDirectory v=20400 size=512 flags=0x20002(adhoc,linker-signed) hashes=10+0\nSignature=adhoc\n',
    );
    expect(await afterSign(context('darwin'), run)).toBe('ad-hoc');
    expect(calls).toEqual([
      ['codesign', ['-dv', '--verbose=2', APP]],
      ['codesign', ['--force', '--deep', '--sign', '-', APP]],
      ['codesign', ['--verify', '--deep', '--strict', APP]],
    ]);
    // The runtime's library validation would refuse koffi's .node files under an ad-hoc signature.
    expect(calls.flatMap(([, args]) => args).filter((arg) => arg.includes('runtime'))).toEqual([]);
  });

  it('signs a bundle codesign calls not signed at all', async () => {
    const { calls, run } = codesign(new Error('exit 1'));
    expect(await afterSign(context('darwin'), run)).toBe('ad-hoc');
    expect(calls.map(([, args]) => args[0])).toEqual(['-dv', '--force', '--verify']);
  });

  it('leaves a Developer ID signature alone, and does nothing for Linux and Windows', async () => {
    const signed = codesign(
      'Identifier=io.github.deskpilot.app\nAuthority=Developer ID Application: Example (TEAM123)\nAuthority=Apple Root CA\nTeamIdentifier=TEAM123\n',
    );
    expect(await afterSign(context('darwin'), signed.run)).toBe('signed');
    expect(signed.calls).toHaveLength(1);
    const other = codesign('');
    for (const platform of ['linux', 'win32']) expect(await afterSign(context(platform), other.run)).toBe('skipped');
    expect(other.calls).toEqual([]);
  });
});
