/**
 * npm run bench:office-reads -- [--out DIR] [--ab] [calc|writer|impress|calc-10000 …] — a whole read of LibreOffice
 * documents with real content (a sheet with labels, figures and formulas; a report with headings,
 * a table and lists; a slide), and where its D-Bus calls go: by member and by the role of the
 * node asked. With --out, each tree is written without ids (DIR/<app>.json), so the trees a
 * change reads can be compared node for node with the old ones (`diff`). With --ab, the engine's
 * raw read with the sampled reads on and off, alternated in one process (sampledAgainstFull).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { AtspiClient, type AtspiRef } from '../src/core/platform/linux/client';
import type { RawNode } from '../src/core/ui/ids';
import { fetchTree, type AppTarget } from '../src/core/platform/linux/tree-fetch';
import { FULL_READ_MAX_NODES } from '../src/core/ui/read-cut';
import { countNodes, walk } from '../src/core/ui/tree-index';
import type { UiNode } from '../src/shared/ui-node';
import { startDesktop } from '../test/linux/desktop';
import { isInstalled, launchAppProcess, pyatspiRead, stopAppProcess, type ToolkitApp } from '../test/linux/toolkit-apps';
import { OFFICE_APPS } from './office-documents';
import { median, ms, timed } from './stats';

const RUNS = 5;
/** Calls by member and by the path asked (the role is the tree's, looked up after the read). */
const calls: { member: string; path: string }[] = [];
for (const method of ['call', 'property'] as const) {
  const original = AtspiClient.prototype[method] as (...args: unknown[]) => Promise<unknown>;
  (AtspiClient.prototype as unknown as Record<string, unknown>)[method] = function (this: AtspiClient, ...args: unknown[]) {
    const member = method === 'call' ? String(args[2]) : `Get ${String(args[2])}`;
    calls.push({ member, path: (args[0] as [string, string])[1] });
    return original.apply(this, args);
  };
}

const { values, positionals } = parseArgs({ options: { out: { type: 'string' }, ab: { type: 'boolean', default: false } }, allowPositionals: true });
const only = positionals.filter((arg) => arg !== '--');

/** A node as compared across reads: everything but the ids and refs a new process renumbers. */
function plain(node: UiNode): unknown {
  const { id: _id, children, bounds: _bounds, ...rest } = node;
  return { ...rest, ...(children === undefined ? {} : { children: children.map(plain) }) };
}

function table(rows: Map<string, number>, nodes: number, limit = 14): string {
  return [...rows]
    .sort((a, b) => b[1] - a[1])
    .slice(0, limit)
    .map(([key, count]) => `${key}=${count} (${(count / nodes).toFixed(2)}/node)`)
    .join('\n    ');
}

/** A sheet's cell objects are made again for each read (LibreOffice 7.4: new paths, the cursor's cell alone kept): compared by all else. */
function withoutCellPaths(node: RawNode<AtspiRef>): RawNode<AtspiRef> {
  const { children, ...rest } = node;
  const ref = node.role === 'cell' ? { ...node.ref, path: '' } : node.ref;
  return { ...rest, ref, ...(children === undefined ? {} : { children: children.map(withoutCellPaths) }) };
}

/**
 * The engine's raw read of the app with LibreOffice's sampled reads on and off, alternated in one
 * process (so both see the same load and the same app): medians, calls, and whether the two trees
 * are the same, refs and all.
 */
async function sampledAgainstFull(pid: number): Promise<string> {
  // The engine's own client and app entry: the connection the app's events and direct connection were set up on.
  const { client, apps } = desktop.platform.accessibility as unknown as { client: AtspiClient; apps: { get(pid: number): Promise<AppTarget> } };
  const entry = await apps.get(pid);
  {
    const read = async (sampled: boolean): Promise<{ ms: number; calls: number; tree: string }> => {
      const app: AppTarget = { ...entry, bridge: { ...entry.bridge, siblingInterfaces: sampled, rangeColumns: sampled } };
      const before = calls.length;
      const started = performance.now();
      const tree = await fetchTree(client, app, { bounds: 'none', maxNodes: FULL_READ_MAX_NODES - 1, maxDepth: 1000 });
      return { ms: performance.now() - started, calls: calls.length - before, tree: JSON.stringify(withoutCellPaths(tree)) };
    };
    const runs: Record<'full' | 'sampled', { ms: number[]; calls: number; same: boolean }> = {
      full: { ms: [], calls: 0, same: true },
      sampled: { ms: [], calls: 0, same: true },
    };
    const reference = (await read(false)).tree;
    for (let run = 0; run < RUNS * 2; run += 1) {
      const kind = run % 2 === 0 ? 'sampled' : 'full';
      const { ms: took, calls: made, tree } = await read(kind === 'sampled');
      runs[kind].ms.push(took);
      runs[kind].calls = made;
      runs[kind].same &&= tree === reference;
      if (tree !== reference && values.out !== undefined) {
        mkdirSync(values.out, { recursive: true });
        writeFileSync(path.join(values.out, `ab-reference.json`), reference);
        writeFileSync(path.join(values.out, `ab-${kind}.json`), tree);
      }
    }
    const line = (kind: 'full' | 'sampled'): string =>
      `${kind} ${ms(median(runs[kind].ms))} ms, ${runs[kind].calls} calls, tree ${runs[kind].same ? 'same' : 'DIFFERENT'}`;
    return `  --ab (raw reads alternated, median of ${RUNS}): ${line('sampled')}; ${line('full')}; ratio ${(median(runs.full.ms) / median(runs.sampled.ms)).toFixed(2)}x\n`;
  }
}

const desktop = await startDesktop({ openbox: true });
try {
  for (const app of OFFICE_APPS.filter((each: ToolkitApp) => (only.length === 0 || only.includes(each.name)) && isInstalled(each))) {
    const { pid, child } = await launchAppProcess(desktop, app);
    try {
      const whole = { fresh: true, maxNodes: FULL_READ_MAX_NODES - 1 } as const;
      calls.length = 0;
      const { root, refs } = await desktop.engine.observe(pid, whole);
      const nodes = countNodes(root);
      const roleOf = new Map<string, string>();
      for (const node of walk(root)) {
        const ref = refs.get(node.id) as { path?: string } | undefined;
        if (ref?.path !== undefined) roleOf.set(ref.path, node.role);
      }
      const byMember = new Map<string, number>();
      const byRole = new Map<string, number>();
      const byBoth = new Map<string, number>();
      for (const { member, path: at } of calls) {
        const role = roleOf.get(at) ?? '(not in tree)';
        byMember.set(member, (byMember.get(member) ?? 0) + 1);
        byRole.set(role, (byRole.get(role) ?? 0) + 1);
        byBoth.set(`${role} ${member}`, (byBoth.get(`${role} ${member}`) ?? 0) + 1);
      }
      // Which interface lists each role comes with: a role that always has one list need not be asked it per node.
      const lists = new Map<string, Map<string, number>>();
      for (const node of walk(root)) {
        const ref = refs.get(node.id) as { interfaces?: string[] } | undefined;
        const key = (ref?.interfaces ?? []).map((name) => name.replace('org.a11y.atspi.', '')).join(',');
        const byList = lists.get(node.platformRole) ?? new Map<string, number>();
        byList.set(key, (byList.get(key) ?? 0) + 1);
        lists.set(node.platformRole, byList);
      }
      const nodeRoles = new Map<string, number>();
      for (const node of walk(root)) nodeRoles.set(node.role, (nodeRoles.get(node.role) ?? 0) + 1);
      const total = calls.length;
      const ours = median(await timed(RUNS, () => desktop.engine.observe(pid, whole)));
      const py = await pyatspiRead(desktop.session.env, pid, RUNS);
      process.stdout.write(
        `${app.name}: nodes=${nodes}/${py.nodes} calls=${total} (${(total / nodes).toFixed(2)}/node) ours=${ms(ours)} ms pyatspi=${ms(py.median_ms)} ms ratio=${(py.median_ms / ours).toFixed(1)}x\n` +
          `  by member:\n    ${table(byMember, nodes)}\n  by role of the node asked:\n    ${table(byRole, nodes)}\n` +
          `  by role and member:\n    ${table(byBoth, nodes, 24)}\n  nodes by role:\n    ${table(nodeRoles, nodes, 10)}\n` +
          `  interface lists by role:\n    ${[...lists].map(([role, byList]) => `${role}: ${[...byList].map(([list, count]) => `${count}×[${list}]`).join(' ')}`).join('\n    ')}\n`,
      );
      if (values.ab) process.stdout.write(await sampledAgainstFull(pid));
      if (values.out !== undefined) {
        mkdirSync(values.out, { recursive: true });
        writeFileSync(path.join(values.out, `${app.name}.json`), `${JSON.stringify(plain(root), null, 1)}\n`);
      }
    } catch (error) {
      process.stdout.write(`${app.name} failed: ${error instanceof Error ? error.message : String(error)}\n`);
    } finally {
      await stopAppProcess({ pid, child });
    }
  }
} finally {
  await desktop.stop();
}
process.exit(0);
