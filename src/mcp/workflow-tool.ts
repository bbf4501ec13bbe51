import { workflowsDir } from '../core/workflows/folder';
import { workflowRunTool } from '../core/workflows/tools';
import type { Tool } from '../core/tools/types';

/**
 * The MCP server's workflow tool, registered beside the built-ins: `workflow_run` over the
 * saved workflows' folder (DESKPILOT_WORKFLOWS_DIR, else the data folder's `workflows`).
 */
export function workflowMcpTools(env: Record<string, string | undefined> = process.env): Tool[] {
  return [workflowRunTool(workflowsDir(env))];
}
