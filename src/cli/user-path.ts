import path from 'node:path';

/**
 * A path the user typed, resolved against the folder they typed it in. Under `npm run
 * deskpilot -- …` the process runs in the package's folder, and npm keeps the user's own in
 * INIT_CWD; `screenshot --out shot.png` must land where the user is, not in the checkout.
 */
export function userPath(env: Readonly<Record<string, string | undefined>>, file: string): string {
  const here = env['INIT_CWD'];
  return path.resolve(here !== undefined && here !== '' && path.isAbsolute(here) ? here : process.cwd(), file);
}
