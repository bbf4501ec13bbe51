import { parseUiActionRequest, type UiActionRequest, type UiActionResult } from '../../shared/ui-action';
import type { UiNode } from '../../shared/ui-node';
import { ActionEngine, type EngineOptions } from '../actions/engine';
import type { TreeOptions } from '../platform/types';
import type { BuiltTree } from '../ui/ids';
import { findById } from '../ui/tree-index';
import { windowsIn } from './target-wait';

/** One action that ran and was verified, with the tree it was aimed at and the windows around it. */
export interface RecordedAction {
  pid: number;
  request: UiActionRequest;
  treeBefore: UiNode;
  result: UiActionResult;
  windowsBefore: UiNode[];
  windowsAfter: UiNode[];
  exited: boolean;
}

/** Most actions one recording keeps: an agent stops at 10 rounds, a fill may run a few dozen. */
const MAX_RECORDED = 500;

/**
 * The engine, keeping every action that succeeded and changed something (or scrolled, or typed into a secret field) with the
 * tree it was aimed at: what `ask --save-workflow` turns into steps. The engine's own work is
 * untouched; recording adds one tree read before and one after each action.
 */
export class RecordingEngine extends ActionEngine {
  readonly actions: RecordedAction[] = [];
  /** Each app's tree as last observed, by anyone: one tree per app. */
  private readonly lastSeen = new Map<number, UiNode>();
  private readonly treeBounds: 'none' | 'interactive';

  /**
   * `treeBounds: 'none'` leaves screen rectangles out of the tree kept before each action: the
   * window's agent records every ask, and reading extents is most of what recording costs. Bounds
   * only break a tie the ordinal could not, so a workflow recorded without them halts there instead.
   */
  constructor(options: EngineOptions & { treeBounds?: 'none' | 'interactive' }) {
    super(options);
    this.treeBounds = options.treeBounds ?? 'interactive';
  }

  override async observe(pid: number, options?: TreeOptions): Promise<BuiltTree> {
    const built = await super.observe(pid, options);
    this.lastSeen.set(pid, built.root);
    return built;
  }

  override async run(pid: number, input: unknown, signal?: AbortSignal): Promise<UiActionResult> {
    const request = parseUiActionRequest(input);
    // The tree the caller last saw, where it found the ids it aims at (a combo box's popup items, read fresh as it opened).
    const seen = this.lastSeen.get(pid);
    let treeBefore: UiNode | undefined;
    try {
      const read = (await this.observe(pid, { bounds: this.treeBounds, ...(signal === undefined ? {} : { signal }) })).root;
      treeBefore = read;
      // A read served from a kept tree can lag the app by a moment: the step is recorded against the tree its ids came from.
      const aimedAt = [request.id, request.action === 'drag' ? request.toId : undefined].filter((id) => id !== undefined);
      const missing = (tree: UiNode): boolean => aimedAt.some((id) => findById(tree, id) === undefined);
      if (missing(read) && seen !== undefined && !missing(seen)) treeBefore = seen;
    } catch {
      treeBefore = undefined; // The engine reports the dead app or missing tree itself.
    }
    const result = await super.run(pid, request, signal);
    // A secret field's value is never read, so typing into one shows no change: success is all there is to see.
    const secret = result.nodeBefore?.states.secret === true && (request.action === 'set_value' || request.action === 'type');
    // A click or key whose effect the tree does not show (a Save that writes a file) ran all the same: it is kept, with nothing to expect.
    const unseen = request.action === 'click' || request.action === 'key';
    const verified = result.success && (result.changed || request.action === 'scroll' || secret || unseen);
    if (!verified || treeBefore === undefined || this.actions.length >= MAX_RECORDED) return result;
    let windowsAfter: UiNode[] = [];
    let exited = false;
    try {
      windowsAfter = windowsIn((await this.observe(pid, { bounds: 'none', fresh: true })).root);
    } catch {
      exited = result.changes.includes('the process exited');
    }
    this.actions.push({
      pid,
      request,
      treeBefore,
      result,
      windowsBefore: windowsIn(treeBefore),
      windowsAfter,
      exited: exited || result.changes.includes('the process exited'),
    });
    return result;
  }
}
