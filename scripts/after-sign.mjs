// @ts-check
// electron-builder's afterSign hook (electron-builder.yml). electron-builder 26 calls it on macOS
// whether or not it signed (app-builder-lib MacPackager.signApp answers true either way).
//
// An unsigned build keeps only the linker's ad-hoc stub from Electron's prebuilt binary, which no
// longer matches the repacked bundle ("code has no resources but signature indicates they must
// be present", tomfunk/fungible#158). On Apple silicon such an app, once quarantined by a
// download, is reported as "damaged" with no way to open it (electron-builder#5850). So a build
// with no real signature is signed ad hoc here: a valid seal, which turns "damaged" into the
// usual "unidentified developer" prompt. Without the hardened runtime: an ad-hoc signature has no
// Team ID, so the runtime's library validation would refuse to load koffi's and libnut's .node
// files (electron-builder warns the same for `identity: '-'`, MacTargetHelper.findSigningIdentity).
// A build signed with a Developer ID (an "Authority=" line in codesign -dv) is left as it is.
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';

/** @typedef {(file: string, args: string[]) => Promise<{ stdout: string; stderr: string }>} Run */

/** @type {Run} */
const defaultRun = (file, args) => promisify(execFile)(file, args, { encoding: 'utf8' });

/**
 * @param {{ electronPlatformName: string; appOutDir: string; packager: { appInfo: { productFilename: string } } }} context
 * @param {Run} run
 * @returns {Promise<'skipped' | 'signed' | 'ad-hoc'>}
 */
export async function afterSign(context, run = defaultRun) {
  if (context.electronPlatformName !== 'darwin') return 'skipped';
  const app = path.join(context.appOutDir, `${context.packager.appInfo.productFilename}.app`);
  // codesign -d writes what it displays to stderr; an unsigned file makes it fail.
  const shown = await run('codesign', ['-dv', '--verbose=2', app]).catch((/** @type {{ stderr?: string }} */ error) => ({
    stdout: '',
    stderr: error.stderr ?? '',
  }));
  if (/^Authority=/m.test(shown.stderr)) return 'signed';
  await run('codesign', ['--force', '--deep', '--sign', '-', app]);
  // Fails the build here rather than shipping an app that will not open.
  await run('codesign', ['--verify', '--deep', '--strict', app]);
  return 'ad-hoc';
}

export default afterSign;
