/**
 * The agent's side of bench:replay: the same form task done once by the agent with a scripted
 * model (the local SSE test server), its verified actions saved as a workflow the way
 * `ask --save-workflow` saves them, and the model tokens that one run cost (estimated from
 * every request the model received, tools and all), against replay's 0.
 */
import { Agent } from '../src/core/agent';
import { OpenAICompatibleProvider } from '../src/core/agent/provider';
import { createToolRegistry } from '../src/core/agent/tool-registry';
import { estimateTokens } from '../src/core/ui/token-estimate';
import { workflowFromActions } from '../src/core/workflows/from-actions';
import { formatWorkflow, parseWorkflow } from '../src/core/workflows/load';
import { RecordingEngine } from '../src/core/workflows/recording-engine';
import type { Workflow } from '../src/core/workflows/schema';
import { lastToolResult, startFakeOpenAIServer, textSteps, toolCallSteps } from '../test/agent/fake-openai-server';
import type { Desktop, LaunchedApp } from '../test/linux/desktop';

export interface AgentRecording {
  workflow: Workflow;
  tokens: number;
  ms: number;
}

export async function agentRecording(desktop: Desktop, app: LaunchedApp, values: Record<string, string>): Promise<AgentRecording> {
  const started = performance.now();
  const server = await startFakeOpenAIServer();
  try {
    const question = `Sign up as ${values['name']}, email ${values['email']}, phone ${values['phone']}, city ${values['city']}, plan ${values['plan']}, password ${values['password']}; subscribe, accept the terms, and save.`;
    const fields = [
      { label: 'Name', value: values['name'] },
      { label: 'Email', value: values['email'] },
      { label: 'Phone', value: values['phone'] },
      { label: 'City', value: values['city'] },
      { label: 'Plan', value: values['plan'] },
      { label: 'Password', value: values['password'] },
      { label: 'Subscribe', value: true },
      { label: 'Terms', value: true },
    ];
    server.reply(
      { kind: 'stream', steps: toolCallSteps([{ id: 'fill', name: 'ui_fill_form', arguments: JSON.stringify({ fields }) }]) },
      { kind: 'stream', steps: toolCallSteps([{ id: 'find', name: 'ui_find', arguments: JSON.stringify({ role: 'button', name: 'Save' }) }]) },
      (request) => {
        const id = /(\w{5}) button Save(?: |$)/m.exec(lastToolResult(request))?.[1] ?? '';
        return { kind: 'stream', steps: toolCallSteps([{ id: 'save', name: 'ui_action', arguments: JSON.stringify({ action: 'click', id }) }]) };
      },
      { kind: 'stream', steps: textSteps(['Signed up and saved.']) },
    );
    const engine = new RecordingEngine({ platform: desktop.platform });
    const provider = new OpenAICompatibleProvider({
      settings: () => ({}),
      env: () => ({ DESKPILOT_BASE_URL: server.baseUrl, DESKPILOT_API_KEY: 'dummy-key', DESKPILOT_MODEL: 'fake-model' }),
    });
    const agent = new Agent({ provider, tools: createToolRegistry(), engine, platform: desktop.platform, approvalPolicy: 'auto', onEvent: () => undefined });
    await agent.ask(question, { pid: app.pid });
    const tokens = server.requests.reduce((sum, request) => sum + estimateTokens(JSON.stringify(request.body)), 0);
    const built = workflowFromActions(
      engine.actions.filter((action) => action.pid === app.pid),
      { name: 'sign-up (agent)', question, app: { name: 'replay-form.py' } },
    );
    return { workflow: parseWorkflow(formatWorkflow(built)), tokens, ms: performance.now() - started };
  } finally {
    await server.close();
  }
}
