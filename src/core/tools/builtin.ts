import { actionTool } from './action';
import { appsTool, focusAppTool } from './apps';
import { closeWindowTool } from './close-window';
import { docsSearchTool } from './docs-search';
import { fillFormTool } from './fill-form';
import { findTool } from './find';
import { readTool } from './read';
import { screenshotTool } from './screenshot';
import { treeTool } from './tree';
import type { AnyTool } from './types';
import { waitForTool } from './wait-for';

/**
 * The built-in tools, one definition each, in the order a model sees them: apps, look, find,
 * read, act. The agent (agent/tool-registry/registry.ts) and the MCP server (mcp/server.ts) are
 * thin adapters over this list.
 */
export function builtinTools(): AnyTool[] {
  return [appsTool, treeTool, findTool, readTool, screenshotTool, actionTool, fillFormTool, waitForTool, focusAppTool, closeWindowTool, docsSearchTool];
}
