export { ToolRegistry, toParametersSchema } from './registry';
export { builtinTools, createToolRegistry } from './builtin';
export { defineTool, type Tool, type ToolContext, type ToolResult } from './types';
export { closeShortcut } from './close-window';
export { MAX_WAIT_MS } from './wait-for';
export type { FieldResult } from './fill-form';
export type { ElementMatch } from './find-elements';
