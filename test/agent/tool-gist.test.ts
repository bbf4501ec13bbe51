import { describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../src/shared/agent-events';
import { createI18n } from '../../src/shared/i18n/i18n';
import { applyAgentEvent, type ChatEntry } from '../../src/shared/transcript';
import { FIXTURE_PID, FakePlatform } from '../../src/core/platform/fake/fake-platform';
import { answer, finish, toolCall } from '../../src/core/agent/fake-provider';
import { scriptedAgent } from '../../src/core/agent/test-agent';
import { toolLabel } from '../../src/renderer/src/components/tool-summary';
import { summarizeArguments } from '../../src/cli/ask';

/**
 * A tool's own description of a call travels in the agent's tool_call event, and the window
 * and the CLI show it: neither knows a tool by name.
 */
describe('tool gists from the agent to the window and the terminal', () => {
  it('the window says each call in the user language and the CLI prints its short key', async () => {
    const platform = new FakePlatform();
    const events: AgentEvent[] = [];
    const { agent } = scriptedAgent(
      [
        [
          toolCall('c1', 'ui_find', { role: 'checkbox', name: 'Enable feature' }),
          toolCall('c2', 'ui_tree', {}),
          toolCall('c3', 'ui_fill_form', {
            fields: [
              { label: 'Name', value: 'Ada' },
              { label: 'Email', value: 'ada@example.com' },
            ],
          }),
          toolCall('c4', 'my_plugin_tool', {}),
          finish('tool_calls'),
        ],
        answer('done'),
      ],
      { platform, events, approvalPolicy: 'auto' },
    );
    await agent.ask('look around', { pid: FIXTURE_PID });
    const calls = events.filter((event) => event.type === 'tool_call');
    expect(calls.map((event) => event.gist?.verb)).toEqual(['find', 'look', 'fill', 'run']);
    expect(calls.map(summarizeArguments)).toEqual(['role="checkbox" name="Enable feature"', '', expect.stringMatching(/^fields=\[/), '']);

    const entries = events.reduce<ChatEntry[]>((list, event) => applyAgentEvent(list, event, 0), []);
    const tools = entries.filter((entry) => entry.kind === 'tool');
    const said = (language: 'en' | 'pt-BR') => {
      const i18n = createI18n(language);
      return tools.map((entry) => {
        const { before, strong, after } = toolLabel(entry, i18n.t, i18n.language);
        return `${before}[${strong}]${after}`;
      });
    };
    // The fixture has no such form and no plugin: a failed call reads as tried, not done.
    expect(tools.map((entry) => entry.status)).toEqual(['ok', 'ok', 'failed', 'failed']);
    expect(said('en')).toEqual(['Looked for [“Enable feature”]', 'Read [the window]', 'Filling in [Name and Email]', 'Running [my_plugin_tool]']);
    expect(said('pt-BR')).toEqual(['Procurei [“Enable feature”]', 'Li [a janela]', 'Preenchendo [Name e Email]', 'Executando [my_plugin_tool]']);
  });
});
