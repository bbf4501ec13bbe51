import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { AgentEvent } from '../../shared/agent-events';
import { DocsService } from '../doc-search/service';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import { answer, finish, toolCall } from './fake-provider';
import { scriptedAgent } from './test-agent';

const dir = mkdtempSync(path.join(tmpdir(), 'deskpilot-agent-docs-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('the agent and search_docs', () => {
  it('searches the documentation, reads the snippet as data and cites the page', async () => {
    const notes = path.join(dir, 'notes');
    mkdirSync(notes, { recursive: true });
    writeFileSync(path.join(notes, 'printer.md'), '# Printer\n\n## Two-sided printing\nIn the print dialog, open Page Setup and pick Two-sided: Long edge.\n');
    const docs = new DocsService({ dataDir: path.join(dir, 'data'), env: {}, settings: () => ({ folders: [notes] }) });
    const events: AgentEvent[] = [];
    const { agent, provider } = scriptedAgent(
      [
        [toolCall('c1', 'search_docs', { query: 'print on both sides' }), finish('tool_calls')],
        answer('Open Page Setup and pick Two-sided: Long edge (Printer › Two-sided printing).'),
      ],
      { platform: new FakePlatform(), events, docs },
    );
    const result = await agent.ask('how do I print on both sides?', { pid: FIXTURE_PID });
    expect(result).toMatchObject({ reason: 'answered' });
    const system = String(provider.requests[0]?.messages[0]?.content);
    expect(system).toMatch(/search_docs first/);
    const toolMessage = String(provider.requests[1]?.messages.at(-1)?.content);
    expect(toolMessage).toMatch(/<ui_data>[\s\S]*Printer › Two-sided printing \([^)]*printer\.md#two-sided-printing\)[\s\S]*Long edge[\s\S]*<\/ui_data>/);
    const done = events.find((event): event is Extract<AgentEvent, { type: 'done' }> => event.type === 'done');
    expect(JSON.stringify(done)).toContain('Printer › Two-sided printing');
    docs.close();
  });
});
