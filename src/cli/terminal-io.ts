import { terminalText } from '../shared/terminal-text';
import type { CliIo } from './context';

/**
 * The CLI's one print boundary: everything a command prints, to stdout or stderr, whole or
 * streamed, passes terminalText on its way out. App names, window titles, node text, model
 * answers, MCP servers' notices and error messages all reach the terminal here, so no command
 * can forget to escape one (the approval prompt, `apps`, the tree header, tool lines, `find`).
 */
export function terminalSafe(io: CliIo): CliIo {
  const { write } = io;
  return {
    ...io,
    stdout: (text) => io.stdout(terminalText(text)),
    stderr: (text) => io.stderr(terminalText(text)),
    ...(write === undefined ? {} : { write: (text: string) => write(terminalText(text)) }),
  };
}
