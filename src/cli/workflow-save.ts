import { writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ToolRegistry } from '../core/agent/tool-registry';
import type { Platform } from '../core/platform/types';
import { workflowApp } from '../core/workflows/app-identity';
import { listWorkflows, workflowsDir } from '../core/workflows/folder';
import { workflowTool } from '../core/workflows/tools';
import { workflowFromActions } from '../core/workflows/from-actions';
import { formatWorkflow, parseWorkflow } from '../core/workflows/load';
import { RecordingEngine } from '../core/workflows/recording-engine';
import { askBeforeInputFor } from './keep-devices';
import type { CommandContext } from './context';

/** A recording engine when `ask --save-workflow FILE` asks for one. */
export function recordingFor(context: CommandContext): { engine: RecordingEngine; file: string } | undefined {
  const file = context.values['save-workflow'];
  if (typeof file !== 'string' || file === '') return undefined;
  return { engine: new RecordingEngine({ platform: context.platform, ...askBeforeInputFor(context.values) }), file: path.resolve(file) };
}

/**
 * Writes what the agent did as a workflow: verified actions become steps, values from the
 * question become parameters. Says on stderr what it wrote, or why it wrote nothing.
 */
export async function saveWorkflow(
  recording: { engine: RecordingEngine; file: string },
  question: string,
  pid: number,
  platform: Platform,
  stderr: (text: string) => void,
): Promise<void> {
  const actions = recording.engine.actions.filter((action) => action.pid === pid);
  if (actions.length === 0) {
    stderr('deskpilot: no verified action to save as a workflow; nothing written');
    return;
  }
  const app = (await platform.apps.list().catch(() => [])).find((each) => each.pid === pid);
  const built = workflowFromActions(actions, {
    name: path.basename(recording.file, path.extname(recording.file)) || 'workflow',
    question,
    app: workflowApp(app),
  });
  // Through the same validation every loaded file passes, so what is written can be run.
  const text = formatWorkflow(parseWorkflow(formatWorkflow(built), recording.file));
  writeFileSync(recording.file, text, { mode: 0o600 });
  const parameters = Object.keys(built.parameters ?? {});
  stderr(
    `deskpilot: saved ${built.steps.length} step${built.steps.length === 1 ? '' : 's'} to ${recording.file}${parameters.length === 0 ? '' : ` (parameters: ${parameters.join(', ')})`}`,
  );
}

/** The saved workflows as tools the agent's model can call (`workflow_<name>`); a broken file is skipped and said so. */
export async function withWorkflowTools(registry: ToolRegistry, env: Record<string, string | undefined>, log: (text: string) => void): Promise<ToolRegistry> {
  const saved = await listWorkflows(workflowsDir(env), (file, reason) => log(`skipped workflow ${file}: ${reason.slice(0, 200)}`));
  for (const each of saved) {
    try {
      registry.registerTool(workflowTool(each));
    } catch (error) {
      log(`skipped workflow ${each.file}: ${error instanceof Error ? error.message : String(error)}`);
    }
  }
  return registry;
}
