import { describe, expect, it } from 'vitest';
import type { ApprovalRequest } from '../core/agent/safety';
import { parseDecision, terminalDecider } from './approval';
import type { CommandContext } from './context';

const REQUEST = {
  id: 'p1',
  askId: 'a1',
  callId: 'c1',
  tool: 'ui_action',
  summary: 'click k3x9a',
  reason: 'clicks "Delete"',
  why: { code: 'clicks', values: { name: '"Delete"' } },
  plan: { verb: 'click', target: 'Delete' },
  app: 'gedit',
} as ApprovalRequest;

function terminal(answer: string | undefined, tty = true): { io: CommandContext['io']; lines: string[] } {
  const lines: string[] = [];
  const io = { stdout: () => undefined, stderr: (line: string) => lines.push(line), env: {}, stdinIsTTY: tty, readLine: () => Promise.resolve(answer) };
  return { io: io as unknown as CommandContext['io'], lines };
}

describe('terminal approvals', () => {
  it('asks in Brazilian Portuguese and takes s (sim) for yes', async () => {
    const { io, lines } = terminal('s');
    expect(await terminalDecider(io, undefined, 'pt-BR')(REQUEST)).toBe('allow_once');
    expect(lines).toEqual([
      '? permitir ui_action click k3x9a em gedit: "Delete" pode apagar, enviar ou comprar algo, o que nem sempre dá para desfazer — [s] uma vez, [a] neste app, [n] não:',
    ]);
  });

  it('asks in English by default, and says why it denies without a terminal, in the chosen language', async () => {
    const english = terminal('n');
    expect(await terminalDecider(english.io)(REQUEST)).toBe('deny');
    expect(english.lines).toEqual([
      '? allow ui_action click k3x9a in gedit: "Delete" may delete, send or buy something, which cannot always be undone — [y] once, [a] for this app, [n] no:',
      '  denied',
    ]);
    const none = terminal(undefined, false);
    expect(await terminalDecider(none.io, undefined, 'pt-BR')(REQUEST)).toBe('deny');
    expect(none.lines[0]).toMatch(
      /^deskpilot: ui_action click k3x9a em gedit: "Delete" pode apagar, enviar ou comprar algo, o que nem sempre dá para desfazer negado\. .*--yes/,
    );
  });

  it('reads answers in either language', () => {
    expect(['y', 'yes', 's', 'SIM', 'a', 'app', 'n', 'não', '', undefined].map(parseDecision)).toEqual([
      'allow_once',
      'allow_once',
      'allow_once',
      'allow_once',
      'allow_app',
      'allow_app',
      'deny',
      'deny',
      'deny',
      'deny',
    ]);
  });
});
