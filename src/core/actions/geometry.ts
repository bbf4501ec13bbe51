import { DeskpilotError } from '../../shared/errors';
import type { UiNode } from '../../shared/ui-node';
import type { Point } from '../platform/types';

export const DRAG_STEPS = 10;
export const DRAG_STEP_MS = 16;

/** The centre of a node's bounds, rounded to whole pixels; synthetic input needs a point on screen. */
export function centerOf(node: UiNode): Point {
  const { bounds } = node;
  if (bounds === undefined || bounds.width <= 0 || bounds.height <= 0 || node.states.visible === false) {
    throw new DeskpilotError(
      'ACTION_FAILED',
      `element [${node.id}] ${node.role} "${node.name}" is not on screen, so synthetic input cannot reach it; scroll it into view or use another element`,
    );
  }
  return { x: Math.round(bounds.x + bounds.width / 2), y: Math.round(bounds.y + bounds.height / 2) };
}

/** `steps` evenly spaced points after `from`, the last one exactly `to`. */
export function interpolate(from: Point, to: Point, steps = DRAG_STEPS): Point[] {
  return Array.from({ length: steps }, (_unused, index) => {
    const t = (index + 1) / steps;
    return { x: Math.round(from.x + (to.x - from.x) * t), y: Math.round(from.y + (to.y - from.y) * t) };
  });
}
