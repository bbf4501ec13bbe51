import { beforeEach, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../shared/agent-events';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import type { AgentOptions } from './agent';
import { answer, toolCall, finish, type ScriptedTurn } from './fake-provider';
import type { ProviderRequest, ProviderTool } from './provider/types';
import { scriptedAgent } from './test-agent';

const target = { pid: FIXTURE_PID };
let platform: FakePlatform;
let events: AgentEvent[];

beforeEach(() => {
  platform = new FakePlatform();
  events = [];
});

function makeAgent(turns: ScriptedTurn[], options: Partial<AgentOptions> = {}) {
  return scriptedAgent(turns, { platform, events, ...options });
}

const system = (request: ProviderRequest | undefined): string => String(request?.messages[0]?.content ?? '');
/** The request's function tool of that name (every built-in is a function tool). */
function tool(request: ProviderRequest | undefined, name: string) {
  const found = request?.tools?.find((each: ProviderTool) => each.type === 'function' && each.function.name === name);
  return found?.type === 'function' ? found.function : undefined;
}
const description = (request: ProviderRequest | undefined, name: string): string => tool(request, name)?.description ?? '';

describe('Agent languages', () => {
  it('gives a Portuguese question the Portuguese prompt and tool descriptions, and an English one the English', async () => {
    const { agent, provider } = makeAgent([answer('Uma janela.'), answer('A window.')]);
    await agent.ask('O que tem nesta tela?', target);
    await agent.ask('What is on this screen?', target);
    const [portuguese, english] = provider.requests;
    expect(system(portuguese)).toContain('Você é o Deskpilot');
    expect(system(portuguese)).toContain('Responda em português do Brasil');
    expect(description(portuguese, 'ui_tree')).toMatch(/^Observar: a árvore de acessibilidade/);
    const schema = JSON.stringify(tool(portuguese, 'ui_action')?.parameters);
    expect(schema).toContain('o novo valor (campos de texto');
    expect(system(english)).toContain('You are Deskpilot');
    expect(system(english)).toContain('Answer in English');
    expect(description(english, 'ui_tree')).toMatch(/^Observe: the app's accessibility tree/);
  });

  it('falls back to the UI language when the question does not tell, and a fixed answer language wins', async () => {
    const { agent, provider } = makeAgent([answer('Ok.'), answer('Sure.')], {
      languages: () => ({ ui: 'pt-BR', answer: 'auto' }),
    });
    await agent.ask('OK', target);
    expect(system(provider.requests[0])).toContain('Responda em português');

    let answerLanguage: 'auto' | 'en' | 'pt-BR' = 'pt-BR';
    const fixed = makeAgent([answer('Certo.'), answer('Right.')], { languages: () => ({ ui: 'en', answer: answerLanguage }) });
    await fixed.agent.ask('What is this?', target);
    expect(system(fixed.provider.requests[0])).toContain('Responda em português');
    answerLanguage = 'auto';
    await fixed.agent.ask('What is this?', target);
    expect(system(fixed.provider.requests[1])).toContain('Answer in English');
  });

  it('passes the app’s own text through untranslated, as data', async () => {
    const { agent, provider } = makeAgent([answer('Tem um botão.')]);
    await agent.ask('O que tem nesta tela?', target);
    const context = provider.requests[0]?.messages.find((message) => message.role === 'user' && String(message.content).includes('<ui_data>'));
    // The fixture app's English labels reach the model as the app shows them.
    expect(String(context?.content)).toMatch(/"[A-Z][a-z]+/);
    expect(String(context?.content)).not.toContain('Você');
  });

  it('writes its own words in the answer language: the step limit', async () => {
    const loop: ScriptedTurn = [toolCall('c1', 'ui_apps', {}), finish('tool_calls')];
    const { agent } = makeAgent([loop, loop], { maxIterations: 2 });
    const result = await agent.ask('Liste os apps para mim', target);
    expect(result.text).toBe('Parei depois de 2 passos com ferramentas sem terminar. Diga como continuar ou peça de novo algo mais específico.');
  });

  it('never replays an answer cached in another language', async () => {
    let answerLanguage: 'auto' | 'pt-BR' = 'auto';
    const { agent, provider } = makeAgent([answer('A window.'), answer('Uma janela.')], { languages: () => ({ ui: 'en', answer: answerLanguage }) });
    await agent.ask('What is on this screen?', target);
    answerLanguage = 'pt-BR';
    const second = await agent.ask('What is on this screen?', target);
    expect(second).toMatchObject({ text: 'Uma janela.' });
    expect(provider.requests).toHaveLength(2);
  });
});
