/**
 * A browser's whole read two ways on the same page, for the test and the bench that check the
 * document-order read (tree-order.ts): the walk (a GetChildren per parent) and the order, node
 * for node, with the calls each made by member. Both reads go through `fetchTree` with the
 * app's own bridge, `order` on or off, on a client of their own.
 */
import type { ChildProcess } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { AtspiClient, type AtspiRef } from '../../src/core/platform/linux/client';
import { bridgeOf, type Bridge } from '../../src/core/platform/linux/bridges';
import { fetchTree } from '../../src/core/platform/linux/tree-fetch';
import type { RawNode } from '../../src/core/ui/ids';
import { FULL_READ_MAX_NODES } from '../../src/core/ui/read-cut';
import { walk } from '../../src/core/ui/tree-index';
import { bigPage, type BigPage } from '../../bench/pages/big-page';
import type { Desktop } from './desktop';
import { TOOLKIT_APPS, chromiumArgs, descendsFrom } from './toolkit-apps';
import { waitFor } from './wait-for';

export type Browser = 'chromium' | 'firefox';

export const BROWSER_BINARY: Record<Browser, string> = { chromium: '/usr/bin/chromium', firefox: '/usr/bin/firefox-esr' };

/** Opens a generated page of about `nodes` nodes and waits until a whole read holds its last button. */
export async function openBigPage(desktop: Desktop, browser: Browser, nodes: number): Promise<{ pid: number; page: BigPage; child: ChildProcess }> {
  const home = desktop.session.env['HOME'] as string;
  const page = bigPage(nodes);
  const file = path.join(home, `big-${nodes}.html`);
  writeFileSync(file, page.html);
  let args = chromiumArgs(path.join(home, 'chromium-profile'), file);
  if (browser === 'firefox') {
    TOOLKIT_APPS.find((app) => app.name === 'firefox-esr')?.prepare?.(home);
    args = ['--no-remote', '--new-instance', '--profile', path.join(home, 'firefox'), `file://${file}`];
  }
  const child = desktop.session.launch(BROWSER_BINARY[browser], args, { env: { MOZ_ENABLE_WAYLAND: '0' } });
  const launched = child.pid as number;
  // The browser this call started, not any app with a window: after another page in the same
  // session (bench/read-ab.ts firefox-page-N chromium-page-N), that one was read twice.
  const pid = await waitFor(
    async () => (await desktop.platform.apps.list().catch(() => [])).find((app) => descendsFrom(app.pid, launched) && app.windows.length > 0)?.pid,
    60_000,
    `${browser} to register`,
  );
  await waitFor(
    async () => {
      // A browser busy laying out a big page can miss a call's deadline: that is still loading.
      const root = (await desktop.engine.observe(pid, { fresh: true, maxNodes: FULL_READ_MAX_NODES - 1 }).catch(() => undefined))?.root;
      const loaded = root !== undefined && [...walk(root)].some((node) => node.name === page.lastButton);
      if (!loaded) await new Promise((resolve) => setTimeout(resolve, 1000));
      return loaded ? true : undefined;
    },
    240_000,
    'the page to load whole',
  );
  return { pid, page, child };
}

/** What a read says of a node, children and all, as one line per node (path, role, name, value, states, actions). */
export function describeTree(root: RawNode<AtspiRef>): string[] {
  const lines: string[] = [];
  const visit = (node: RawNode<AtspiRef>, depth: number): void => {
    lines.push(
      `${depth} ${node.ref.path} ${node.platformRole} ${JSON.stringify(node.name)} ${JSON.stringify(node.description ?? '')} ${JSON.stringify(node.value ?? '')} ${JSON.stringify(node.states)} ${node.actions.join(',')} ${node.ref.interfaces.join(',')}`,
    );
    for (const child of node.children ?? []) visit(child, depth + 1);
  };
  visit(root, 0);
  return lines;
}

export interface ReadTwoWays {
  walked: string[];
  ordered: string[];
  walkedCalls: Map<string, number>;
  orderedCalls: Map<string, number>;
}

/** Calls by member made through `client` while `work` runs. */
async function counted<T>(client: AtspiClient, work: () => Promise<T>): Promise<{ value: T; calls: Map<string, number> }> {
  const calls = new Map<string, number>();
  const call = client.call.bind(client);
  const property = client.property.bind(client);
  client.call = (...args: Parameters<AtspiClient['call']>) => {
    calls.set(args[2], (calls.get(args[2]) ?? 0) + 1);
    return call(...args);
  };
  client.property = (...args: Parameters<AtspiClient['property']>) => {
    calls.set(`Get ${args[2]}`, (calls.get(`Get ${args[2]}`) ?? 0) + 1);
    return property(...args);
  };
  try {
    return { value: await work(), calls };
  } finally {
    client.call = call;
    client.property = property;
  }
}

/** Reads tried before giving up on an app that never holds still between two walks. */
const STILL_ATTEMPTS = 4;

/**
 * The app's whole tree read by the walk and by the order, each on a fresh client (nothing kept
 * between them), then the order once more on a client that has read it (interfaces kept). The
 * order read is bracketed by two walks and counts only when they agree: a browser goes on making
 * objects after its page has loaded (Firefox preloads its New Tab page in the background), and a
 * tree that changed between the reads says nothing about the reads. An app that never holds still
 * gives the last attempt, whose difference the caller then reports.
 */
export async function readTwoWays(desktop: Desktop, pid: number, toolkit: string): Promise<ReadTwoWays & { repeatCalls: Map<string, number> }> {
  const { refs } = await desktop.engine.observe(pid, { fresh: true, maxNodes: FULL_READ_MAX_NODES - 1 });
  const bus = ([...refs.values()][0] as AtspiRef).bus;
  const bridge: Bridge = bridgeOf(toolkit, '');
  const options = { bounds: 'none', maxNodes: FULL_READ_MAX_NODES - 1, maxDepth: 1000 } as const;
  const read = async (order: boolean, client: AtspiClient) =>
    counted(client, () => fetchTree(client, { pid, bus, name: '', gtk4: false, bridge: { ...bridge, order } }, options));
  const fresh = async <T>(work: (client: AtspiClient) => Promise<T>): Promise<T> => {
    const client = await AtspiClient.connect(desktop.session.env);
    try {
      return await work(client);
    } finally {
      client.close();
    }
  };
  let walked = await fresh((client) => read(false, client));
  for (let attempt = 1; ; attempt += 1) {
    const { ordered, repeat } = await fresh(async (client) => ({ ordered: await read(true, client), repeat: await read(true, client) }));
    const after = await fresh((client) => read(false, client));
    const [before, since] = [describeTree(walked.value), describeTree(after.value)];
    if (attempt === STILL_ATTEMPTS || JSON.stringify(before) === JSON.stringify(since)) {
      return { walked: before, ordered: describeTree(ordered.value), walkedCalls: walked.calls, orderedCalls: ordered.calls, repeatCalls: repeat.calls };
    }
    walked = after;
  }
}

/** "GetRole=1.00 GetState=1.00 …" per node, most first. */
export function perNode(calls: ReadonlyMap<string, number>, nodes: number): string {
  return [...calls]
    .sort((a, b) => b[1] - a[1])
    .map(([member, count]) => `${member}=${(count / nodes).toFixed(2)}`)
    .join(' ');
}
