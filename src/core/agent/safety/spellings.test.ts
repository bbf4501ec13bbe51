import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../../shared/agent-events';
import { ActionEngine } from '../../actions/engine';
import { FakeClock } from '../../clock';
import { FIXTURE_PID, FakePlatform, NOTES_PID } from '../../platform/fake/fake-platform';
import { walk } from '../../ui/tree-index';
import { answer, finish, toolCall } from '../fake-provider';
import { scriptedAgent } from '../test-agent';
import type { ApprovalDecision } from './types';

/**
 * Property: whatever the spelling (padding, case, aliases, app by pid or by name, key instead of
 * click or typing, a fill instead of an action), a risky call reaches the engine only after the user's
 * approval, and never when it is denied. Seeded, so a failure is repeatable: the seed is fixed
 * unless DESKPILOT_PROPERTY_SEED says otherwise, and DESKPILOT_PROPERTY_RUNS sets the count.
 */
const SEED = Number(process.env['DESKPILOT_PROPERTY_SEED'] ?? 20_251_126);
const RUNS = Number(process.env['DESKPILOT_PROPERTY_RUNS'] ?? 120);

/** mulberry32: small, fast and good enough to pick spellings. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
  };
}

type Random = () => number;
const pick = <T>(random: Random, items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;

function recase(random: Random, text: string): string {
  const mode = pick(random, ['same', 'upper', 'lower', 'mixed'] as const);
  if (mode === 'upper') return text.toUpperCase();
  if (mode === 'lower') return text.toLowerCase();
  if (mode === 'mixed') return [...text].map((char) => (random() < 0.5 ? char.toUpperCase() : char.toLowerCase())).join('');
  return text;
}

const PADS = ['', ' ', '  ', '\n', '\t', '\r\n', ' \n '];
const pad = (random: Random, text: string): string => `${pick(random, PADS)}${text}${pick(random, PADS)}`;
const respace = (random: Random, text: string): string => text.replace(/ /g, () => pick(random, [' ', '  ', '\t', ' \n']));

const RISKY_LABELS = ['Delete', 'Delete everything', 'Move to Trash', 'Empty Trash', 'Quit', 'Close', 'Sign out', 'Overwrite', 'Uninstall', 'Reset'];
const RISKY_LABELS_PT = ['Excluir', 'Apagar', 'Sair', 'Mover para a Lixeira', 'Esvaziar lixeira', 'Não salvar'];
const COMMAND_MODIFIERS = ['ctrl', 'Ctrl', 'CONTROL', 'cmd', 'Command', 'mod', 'cmdorctrl', 'CmdOrCtrl', 'super', 'meta', 'win'];
const ACTIVATING_KEYS = ['return', 'Return', 'enter', 'ENTER', 'space', 'Space', ' ', 'spacebar'];

interface Case {
  description: string;
  tool: string;
  args: Record<string, unknown>;
  /** Whether the app shows any effect of the call. */
  effect: (platform: FakePlatform) => boolean;
}

/** Where the risky thing is, and how the call names that app. */
function addressing(random: Random): { pid: number; names: Record<string, unknown> } {
  if (random() < 0.4) return { pid: FIXTURE_PID, names: random() < 0.5 ? {} : { pid: FIXTURE_PID } };
  const names = pick(random, [{ pid: NOTES_PID }, { app: pad(random, recase(random, 'notes')).trim() || 'Notes' }, { app: recase(random, 'Notes') }]);
  return { pid: NOTES_PID, names };
}

async function idOf(engine: ActionEngine, pid: number, match: (name: string, role: string) => boolean): Promise<string> {
  const { root } = await engine.observe(pid, { fresh: true });
  const node = [...walk(root)].find((each) => match(each.name, each.role));
  if (node === undefined) throw new Error('fixture node missing');
  return node.id;
}

async function makeCase(random: Random, platform: FakePlatform, engine: ActionEngine): Promise<Case> {
  const { pid, names } = addressing(random);
  const app = platform.app(pid);
  const kind = pick(random, ['button', 'described', 'combo', 'fill', 'close', 'drop', 'focused'] as const);
  const label = recase(random, respace(random, pick(random, [...RISKY_LABELS, ...RISKY_LABELS_PT])));
  const clicked = (): boolean => app.clicks > 0 || platform.inputLog.length > 0;
  switch (kind) {
    case 'button':
    case 'described': {
      const button = app.get('button');
      if (kind === 'button') button.name = label;
      else {
        button.name = '';
        button.description = label;
      }
      const id = pad(random, await idOf(engine, pid, (_name, role) => role === 'button'));
      const action = pick(random, [
        { action: 'click', id },
        { action: 'key', id, key: pick(random, ACTIVATING_KEYS) },
        { action: 'type', id, text: ' ' },
      ]);
      return { description: `${kind} ${JSON.stringify(label)}`, tool: 'ui_action', args: { ...names, ...action }, effect: clicked };
    }
    case 'focused': {
      app.get('button').name = label;
      app.focus('button');
      if (pid !== platform.frontmostPid) platform.frontmostPid = pid;
      return {
        description: `focused ${JSON.stringify(label)}`,
        tool: 'ui_action',
        args: { ...names, action: 'key', key: pick(random, ACTIVATING_KEYS) },
        effect: clicked,
      };
    }
    case 'combo': {
      const modifier = pick(random, COMMAND_MODIFIERS);
      const key = recase(random, pick(random, ['q', 'w']));
      const spelled = pick(random, [
        { key: `${modifier}+${key}` },
        { key, modifiers: [modifier] },
        { key: `shift+${modifier}+${key}` },
        { key: `${modifier}+${key}`, modifiers: ['shift'] },
      ]);
      return { description: `combo ${JSON.stringify(spelled)}`, tool: 'ui_action', args: { ...names, action: 'key', ...spelled }, effect: clicked };
    }
    case 'fill': {
      app.get('toggle').name = label;
      const value = pick(random, [true, 'yes', 'on', 1, 'checked']);
      const spelled = recase(random, respace(random, label));
      return {
        description: `fill ${JSON.stringify(spelled)}`,
        tool: 'ui_fill_form',
        args: { ...names, fields: [{ label: spelled, value }] },
        effect: () => app.get('toggle').checked === true || platform.inputLog.length > 0,
      };
    }
    case 'close':
      return { description: 'close window', tool: 'ui_close_window', args: names, effect: clicked };
    case 'drop': {
      app.get('drop').name = label;
      const id = pad(random, await idOf(engine, pid, (name) => name === 'Drag me'));
      const toId = pad(random, await idOf(engine, pid, (_name, role) => role === 'group' && _name !== ''));
      return { description: `drop on ${JSON.stringify(label)}`, tool: 'ui_action', args: { ...names, action: 'drag', id, toId }, effect: clicked };
    }
  }
}

describe('risky calls in any spelling', () => {
  it(`reach the engine only after approval (seed ${SEED}, ${RUNS} cases)`, async () => {
    const random = generator(SEED);
    const failures: string[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const platform = new FakePlatform();
      const engine = new ActionEngine({ platform, clock: new FakeClock() });
      const made = await makeCase(random, platform, engine);
      const order: string[] = [];
      const original = engine.run.bind(engine);
      engine.run = (pid, request, signal) => {
        order.push('run');
        return original(pid, request, signal);
      };
      const decision: ApprovalDecision = random() < 0.75 ? 'deny' : 'allow_once';
      const events: AgentEvent[] = [];
      const { agent } = scriptedAgent([[toolCall('c1', made.tool, made.args), finish('tool_calls')], answer('done')], {
        platform,
        events,
        engine,
        cache: false,
        decide: () => {
          order.push('ask');
          return Promise.resolve(decision);
        },
      });
      await agent.ask('do it', { pid: FIXTURE_PID });
      const label = `#${run} ${made.description} ${JSON.stringify(made.args)} (${decision})`;
      if (order[0] === 'run') failures.push(`${label}: ran before any approval`);
      if (decision === 'deny' && (order.includes('run') || made.effect(platform))) failures.push(`${label}: acted though denied`);
    }
    expect(failures).toEqual([]);
  });
});
