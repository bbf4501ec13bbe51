import { readFileSync } from 'node:fs';
import type { RawNode } from '../../ui/ids';
import { walk } from '../../ui/tree-index';

/** An app younger than this may still be building its window: a page loading, a document opening. */
const YOUNG_MS = 20_000;
/** Most time a first read spends waiting for the tree to hold still. */
const MAX_WAIT_MS = 2000;
const PAUSE_MS = 150;
/** Linux reports process start times in clock ticks; 100 a second on every common kernel configuration. */
const TICKS_PER_SECOND = 100;

function size(tree: RawNode<unknown>): number {
  let count = 0;
  for (const _node of walk(tree)) count += 1;
  return count;
}

/** How long ago the process started; undefined when /proc cannot say. */
export function processAgeMs(pid: number, proc = '/proc'): number | undefined {
  try {
    const stat = readFileSync(`${proc}/${pid}/stat`, 'utf8');
    // Fields after "(comm)": state is field 3, starttime field 22.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const startTicks = Number(fields[19]);
    const uptime = Number(readFileSync(`${proc}/uptime`, 'utf8').split(' ')[0]);
    if (!Number.isFinite(startTicks) || !Number.isFinite(uptime)) return undefined;
    return Math.max(0, uptime * 1000 - (startTicks / TICKS_PER_SECOND) * 1000);
  } catch {
    return undefined;
  }
}

export interface FirstReadOptions {
  /** GTK 4 makes accessible objects only when first asked, and says nothing of them: with no age known, it is taken as young. */
  lazyToolkit: boolean;
  ageMs: number | undefined;
  /**
   * How many accessibility events the app has sent so far (a running count). Events that arrive
   * during the first read say its content is still arriving (a page loading, a document opening).
   */
  eventCount?: () => number;
  now?: () => number;
  sleep?: (ms: number) => Promise<void>;
}

/**
 * The first read of an app in this process. An app that just started, or one whose events show
 * content arriving while it was read, is read again after a pause until two reads agree on the
 * node count, within a bound, so the first answer holds the open document and its ids are the
 * ones the next read gives. An app that has been running and was quiet during the read is read
 * once: a CLI call (always a first read) to an idle app pays no wait.
 */
export async function settledFirstRead<Ref>(read: () => Promise<RawNode<Ref>>, options: FirstReadOptions): Promise<RawNode<Ref>> {
  const now = options.now ?? (() => performance.now());
  const sleep = options.sleep ?? ((ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms)));
  const events = options.eventCount ?? (() => 0);
  const eventsBefore = events();
  let tree = await read();
  const young = options.ageMs === undefined ? options.lazyToolkit : options.ageMs < YOUNG_MS;
  const arriving = events() > eventsBefore;
  if (!young && !arriving) return tree;
  const deadline = now() + MAX_WAIT_MS;
  let count = size(tree);
  while (now() < deadline) {
    await sleep(PAUSE_MS);
    tree = await read();
    const next = size(tree);
    if (next === count) break;
    count = next;
  }
  return tree;
}
