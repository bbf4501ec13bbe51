import { describe, expect, it, vi } from 'vitest';
import type { AgentEvent } from '../../shared/agent-events';
import { ActionEngine } from '../actions/engine';
import { FakeProvider, answer, finish, toolCall } from '../agent/fake-provider';
import { DocsService } from '../doc-search/service';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import { findNodes } from '../ui/query';
import { createRuntime, runtimeOn } from './runtime';

describe('the core runtime', () => {
  it("builds Agents on its own platform and engine, so a program's engine sees what the agent does", async () => {
    const platform = new FakePlatform();
    // A program's own engine (the host's records what it runs): the Agent must act through it.
    class CountingEngine extends ActionEngine {
      runs = 0;
      override run(...args: Parameters<ActionEngine['run']>): ReturnType<ActionEngine['run']> {
        this.runs += 1;
        return super.run(...args);
      }
    }
    const runtime = runtimeOn(platform, { env: {}, docs: false, engine: (on) => new CountingEngine({ platform: on }) });
    const { root } = await runtime.engine.observe(FIXTURE_PID);
    const button = findNodes(root, { role: 'button' })[0]?.node;
    expect(button).toBeDefined();
    const events: AgentEvent[] = [];
    const agent = runtime.agent({
      provider: new FakeProvider([[toolCall('c1', 'ui_action', { action: 'click', id: button?.id }), finish('tool_calls')], answer('Clicked.')]),
      onEvent: (event) => events.push(event),
      approvalPolicy: 'auto',
    });
    expect((await agent.ask('click it', { pid: FIXTURE_PID })).text).toBe('Clicked.');
    expect(events.find((event) => event.type === 'tool_result')).toMatchObject({ name: 'ui_action', success: true });
    expect(runtime.engine.runs).toBe(1);
    expect(platform.app(FIXTURE_PID).clicks).toBe(1);
  });

  it('gives documentation search from the environment by default, and none when told', () => {
    const platform = new FakePlatform();
    expect(runtimeOn(platform, { env: { DESKPILOT_DATA_DIR: '/nonexistent/deskpilot' } }).docs).toBeInstanceOf(DocsService);
    expect(runtimeOn(platform, { env: {}, docs: false }).docs).toBeUndefined();
  });

  it('makes a toolbox for the given MCP servers, which has no tools when there are none', async () => {
    const toolbox = runtimeOn(new FakePlatform(), { env: {}, docs: false }).toolbox({});
    expect(await toolbox.tools()).toEqual([]);
    await toolbox.close();
  });

  it('closes the platform it assembled, never one it was given', async () => {
    const given = new FakePlatform();
    const closeGiven = vi.spyOn(given, 'close');
    await (await createRuntime({ env: {}, docs: false, platform: given })).close();
    expect(closeGiven).not.toHaveBeenCalled();

    const assembled = await createRuntime({ env: { DESKPILOT_PLATFORM: 'fake' }, docs: false });
    expect(assembled.platform.name).toBe('fake');
    const closeOwn = vi.spyOn(assembled.platform, 'close');
    await assembled.close();
    expect(closeOwn).toHaveBeenCalledOnce();
  });
});
