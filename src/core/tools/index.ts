export { builtinTools } from './builtin';
export { defineTool, isReadOnly, type Tool, type ToolContext, type ToolEffects, type ToolReport, type ToolResult, type TypedText } from './types';
export { OwnAppError, resolveApp, nodeById, visibleApps, type AppTarget, type TargetScope } from './target';
export { AppAllowList } from './allow-list';
export { closeShortcut } from './close-window';
export { MAX_WAIT_MS } from './wait-for';
export { summarizeAction, errorText } from './action';
export type { FieldResult } from './fill-form';
export type { ElementMatch } from './find';
