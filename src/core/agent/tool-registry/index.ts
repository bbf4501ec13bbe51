export { ToolRegistry, createToolRegistry, toParametersSchema } from './registry';
