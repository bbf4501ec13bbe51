/**
 * Images from tools through the real openai SDK path: what the request body carries, and the
 * fallback when an OpenAI-compatible server refuses images with its usual 400.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { AgentEvent } from '../../src/shared/agent-events';
import { OpenAICompatibleProvider } from '../../src/core/agent/provider';
import { scriptedAgent } from '../../src/core/agent/test-agent';
import { ToolRegistry } from '../../src/core/agent/tool-registry/registry';
import { FIXTURE_PID, FakePlatform } from '../../src/core/platform/fake/fake-platform';
import { defineTool } from '../../src/core/tools/types';
import { startFakeOpenAIServer, textSteps, toolCallSteps, type FakeOpenAIServer, type RecordedRequest } from './fake-openai-server';

const PNG = 'iVBORw0KGgo=';
let server: FakeOpenAIServer;

beforeAll(async () => {
  server = await startFakeOpenAIServer();
});
afterAll(async () => {
  await server.close();
});
beforeEach(() => {
  server.requests.length = 0;
});

function agent(events: AgentEvent[]) {
  const env = { DESKPILOT_BASE_URL: server.baseUrl, DESKPILOT_API_KEY: 'sk-test', DESKPILOT_MODEL: 'test/vision-model' };
  const provider = new OpenAICompatibleProvider({ settings: () => ({ preset: 'openai' }), env: () => env, fetch: globalThis.fetch });
  const tools = new ToolRegistry([
    defineTool({
      name: 'files__shot',
      description: 'screenshot',
      schema: z.object({}),
      effects: 'read',
      handler: () => Promise.resolve({ success: true, message: '[image image/png, 8 bytes]', images: [{ mimeType: 'image/png', data: PNG }] }),
    }),
  ]);
  return scriptedAgent([], { platform: new FakePlatform(), events, provider, tools, cache: false }).agent;
}

type Part = { type: string; image_url?: { url: string } };
const lastMessage = (request: RecordedRequest | undefined) => ((request?.body['messages'] ?? []) as { role: string; content: unknown }[]).at(-1);
const imageUrls = (request: RecordedRequest | undefined): string[] =>
  ((request?.body['messages'] ?? []) as { content: unknown }[]).flatMap((message) =>
    Array.isArray(message.content) ? (message.content as Part[]).flatMap((part) => (part.image_url === undefined ? [] : [part.image_url.url])) : [],
  );

describe('images from tools over the wire', () => {
  it('the request after the tool round carries the image_url part in a user message', async () => {
    server.reply(
      { kind: 'stream', steps: toolCallSteps([{ id: 'c1', name: 'files__shot', arguments: '{}' }]) },
      { kind: 'stream', steps: textSteps(['A chart.']) },
    );
    const answer = await agent([]).ask('what is on the screen?', { pid: FIXTURE_PID });
    expect(answer.text).toBe('A chart.');
    expect(lastMessage(server.requests[1])).toMatchObject({
      role: 'user',
      content: [{ type: 'text' }, { type: 'image_url' }, { type: 'text', text: '</ui_data>' }],
    });
    expect(imageUrls(server.requests[1])).toEqual([`data:image/png;base64,${PNG}`]);
  });

  it('a 400 refusing images is retried once without them, and the answer comes', async () => {
    const events: AgentEvent[] = [];
    server.reply(
      { kind: 'stream', steps: toolCallSteps([{ id: 'c1', name: 'files__shot', arguments: '{}' }]) },
      {
        kind: 'error',
        status: 400,
        body: { error: { message: 'Invalid content type. image_url is only supported by certain models.', type: 'invalid_request_error' } },
      },
      { kind: 'stream', steps: textSteps(['Only its name.']) },
    );
    const answer = await agent(events).ask('what is on the screen?', { pid: FIXTURE_PID });
    expect(answer.text).toBe('Only its name.');
    expect(server.requests).toHaveLength(3);
    expect(imageUrls(server.requests[1])).toHaveLength(1);
    expect(imageUrls(server.requests[2])).toEqual([]);
    expect(events.filter((event) => event.type === 'tool_log')).toHaveLength(1);
    expect(events.filter((event) => event.type === 'error')).toEqual([]);
  });
});
