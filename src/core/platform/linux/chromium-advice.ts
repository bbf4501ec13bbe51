import { readFileSync } from 'node:fs';
import type { RawNode } from '../../ui/ids';
import { walk } from '../../ui/tree-index';
import type { Bridge } from './bridges';
import { commandLineArgs } from './chromium-apps';

const FLAG = '--force-renderer-accessibility';
/** A relaunch command longer than this is cut: it is advice, and it comes from another process. */
const MAX_COMMAND_CHARS = 300;

/**
 * A Chromium or Electron app started without --force-renderer-accessibility shows AT-SPI its
 * windows and nothing inside them (setting ScreenReaderEnabled is no fix: on GNOME it starts
 * Orca, and Chrome 151+ ignores it). Such a tree has no document and hardly a node per window.
 */
export function isChromiumShell(bridge: Bridge, root: RawNode<unknown>): boolean {
  if (bridge.kind !== 'chromium') return false;
  let nodes = 0;
  for (const node of walk(root)) {
    if (node.role === 'document') return false;
    nodes += 1;
  }
  const windows = root.children?.length ?? 0;
  return nodes <= 1 + windows * 3;
}

function quoted(arg: string): string {
  return /^[\w@%+=:,./-]+$/.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** The app's own arguments with the flag added after the program, from /proc; undefined when they cannot be read. */
export function relaunchArgs(pid: number, proc = '/proc'): string[] | undefined {
  let args: string[];
  try {
    args = commandLineArgs(readFileSync(`${proc}/${pid}/cmdline`, 'latin1'));
  } catch {
    return undefined;
  }
  const [program, ...rest] = args;
  return program === undefined ? undefined : [program, FLAG, ...rest.filter((arg) => arg !== FLAG)];
}

/** The app's own command line with the flag added, for people to read; undefined when it cannot be read. */
export function relaunchCommand(pid: number, proc = '/proc'): string | undefined {
  const args = relaunchArgs(pid, proc);
  if (args === undefined) return undefined;
  const command = args.map(quoted).join(' ');
  return command.length > MAX_COMMAND_CHARS ? `${command.slice(0, MAX_COMMAND_CHARS)}…` : command;
}

/** What the root of such an app's tree says: how to get the real tree. */
export function chromiumAdvice(pid: number, proc = '/proc'): string {
  const command = relaunchCommand(pid, proc);
  return (
    `This Chromium or Electron app was started without ${FLAG}, so its content is not in the accessibility tree (text read off the screen stands in for it). ` +
    `Quit it and start it again with the flag${command === undefined ? '' : `: ${command}`}`
  );
}
