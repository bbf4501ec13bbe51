/** The `npm run session` lines that give another shell the private session's environment. */

const shellQuote = (value: string) => `'${value.replaceAll("'", `'\\''`)}'`;

/**
 * Every variable the session's own children get that differs from this shell's, and the ones
 * it takes away: pasted into another shell, apps started there see exactly what the session's
 * apps see. GSK_RENDERER=cairo among them: without it GTK 4 apps spin the CPU under Xvfb and never appear.
 */
export function environmentLines(session: NodeJS.ProcessEnv, outer: NodeJS.ProcessEnv): string[] {
  const set = Object.keys(session)
    .filter((name) => session[name] !== undefined && session[name] !== outer[name])
    .sort()
    .map((name) => `export ${name}=${shellQuote(session[name] ?? '')}`);
  const removed = Object.keys(outer)
    .filter((name) => outer[name] !== undefined && session[name] === undefined)
    .sort()
    .map((name) => `unset ${name}`);
  return [...set, ...removed];
}
