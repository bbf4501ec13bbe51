import { createInterface } from 'node:readline';
import type { ApprovalDecider, ApprovalDecision, ApprovalRequest } from '../core/agent/safety';
import { createI18n, type Language, type Translator } from '../shared/i18n/i18n';
import { riskText } from '../shared/risk';
import { terminalLine } from '../shared/terminal-text';
import type { CommandContext } from './context';

/** One line from process.stdin, or undefined at end of input. */
function readStdinLine(): Promise<string | undefined> {
  return new Promise((resolve) => {
    const reader = createInterface({ input: process.stdin, terminal: false });
    let answered = false;
    reader.once('line', (line) => {
      answered = true;
      reader.close();
      resolve(line);
    });
    reader.once('close', () => {
      if (!answered) resolve(undefined);
    });
  });
}

export function describeRequest(request: ApprovalRequest, args = request.summary, i18n: Translator = createI18n('en')): string {
  const { t } = i18n;
  // Each part on one line: an app name, an argument or a button's name cannot start a line of its own or hide the choices.
  const where =
    request.app !== undefined ? t('cli.inApp', { app: terminalLine(request.app) }) : request.pid !== undefined ? t('cli.inPid', { pid: request.pid }) : '';
  return [terminalLine(request.tool), terminalLine(args), where].filter((part) => part !== '').join(' ') + `: ${terminalLine(riskText(request.why, i18n))}`;
}

/** y or s (sim) = allow once, a = allow for this app, anything else (or no answer) = deny; in either language. */
export function parseDecision(line: string | undefined): ApprovalDecision {
  const answer = (line ?? '').trim().toLowerCase();
  if (['y', 'yes', 's', 'sim'].includes(answer)) return 'allow_once';
  if (answer === 'a' || answer === 'app') return 'allow_app';
  return 'deny';
}

/**
 * Terminal approvals in the terminal's language: a prompt on stderr and one line from stdin;
 * with no terminal, a denial that says to pass --yes.
 */
export function terminalDecider(
  io: CommandContext['io'],
  argsOf: (request: ApprovalRequest) => string = (request) => request.summary,
  language: Language = 'en',
): ApprovalDecider {
  const i18n = createI18n(language);
  return async (request) => {
    const described = describeRequest(request, argsOf(request), i18n);
    const tty = io.stdinIsTTY ?? process.stdin.isTTY === true;
    if (!tty) {
      io.stderr(i18n.t('cli.deniedNoTerminal', { request: described }));
      return 'deny';
    }
    io.stderr(i18n.t('cli.approvePrompt', { request: described }));
    const decision = parseDecision(await (io.readLine ?? readStdinLine)());
    if (decision === 'deny') io.stderr(i18n.t('cli.denied'));
    return decision;
  };
}
