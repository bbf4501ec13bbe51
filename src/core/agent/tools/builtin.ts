import { focusAppTool, listAppsTool } from './apps';
import { closeWindowTool } from './close-window';
import { fillFormTool } from './fill-form';
import { findElementsTool } from './find-elements';
import { getUiTool } from './get-ui';
import { readElementTool } from './read-element';
import { ToolRegistry } from './registry';
import type { Tool } from './types';
import { uiActionTool } from './ui-action';
import { waitForTool } from './wait-for';

/** The built-in tools, in the order the model sees them: look, find, read, act, then apps. */
export function builtinTools(): Tool[] {
  return [
    getUiTool,
    findElementsTool,
    readElementTool,
    uiActionTool,
    fillFormTool,
    waitForTool,
    listAppsTool,
    focusAppTool,
    closeWindowTool,
  ] as unknown as Tool[];
}

/** A registry with the built-ins; apps and plugins add theirs with registerTool. */
export function createToolRegistry(): ToolRegistry {
  return new ToolRegistry(builtinTools());
}
