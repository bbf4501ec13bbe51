export { ActionEngine, type EngineOptions } from './engine';
export { DRAG_STEPS, DRAG_STEP_MS, centerOf, interpolate } from './geometry';
export { closestCandidates, refind } from './locate';
export { resolveModifier, resolveModifiers } from './modifiers';
export { KeyTargetError } from './key-target';
