export { loadMacNative, registerStructs } from './load';
export { ASYNC_DECLARATIONS, DECLARATIONS, EVENT_TAP_CALLBACK, LIBRARY_PATHS, STRUCTS, VARIABLES } from './declarations';
export type { DeclarationName, Declaration, LibraryName, VariableName } from './declarations';
export type * from './types';
