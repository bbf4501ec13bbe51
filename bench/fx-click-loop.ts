/**
 * tsx bench/fx-click-loop.ts [iterations] — a fresh Firefox on a one-check-box page each time,
 * clicked as soon as the box is found (test/linux/truth.test.ts's case), twice; logs the path
 * each click took (DoAction and its answer, extents), the box's and the document's states, and
 * whether the click landed. Bounded: iterations × 2 clicks. --first-sight clicks the read that
 * first showed the box, at once (the harshest timing for a page whose data comes late).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { findNodes } from '../src/core/ui/query';
import { startDesktop } from '../test/linux/desktop';
import { hasState } from '../src/core/platform/linux/states';

/** AT-SPI's interface names (benches may not import native/). */
const IFACE = { action: 'org.a11y.atspi.Action', accessible: 'org.a11y.atspi.Accessible' };

const ITERATIONS = Math.min(30, Number(process.argv.find((arg) => /^\d+$/.test(arg)) ?? 8));
const FIRST_SIGHT = process.argv.includes('--first-sight');
const desktop = await startDesktop({ openbox: true });
const accessibility = desktop.platform.accessibility as unknown as { client: { call: (...args: unknown[]) => Promise<unknown[]> } };
const client = accessibility.client;
const log: string[] = [];
const original = client.call.bind(client);
client.call = async (...args: unknown[]) => {
  const [object, iface, method] = args as [[string, string], string, string];
  const answer = await original(...args);
  if (iface === IFACE.action || method === 'GetExtents') log.push(`${method}(${object[1]})=${JSON.stringify(answer).slice(0, 80)}`);
  return answer;
};
const property = (client as unknown as { property: (...args: unknown[]) => Promise<unknown> }).property.bind(client);
(client as unknown as { property: (...args: unknown[]) => Promise<unknown> }).property = async (...args: unknown[]) => {
  const [object, iface, name] = args as [[string, string], string, string];
  const answer = await property(...args);
  if (iface === IFACE.action) log.push(`${name}(${object[1]})=${JSON.stringify(answer)}`);
  return answer;
};
const states = async (object: [string, string]) => {
  const [bits] = await original(object, IFACE.accessible, 'GetState');
  return [3, 4, 25, 30]
    .filter((bit) => hasState(bits as number[], bit))
    .map((bit) => ({ 3: 'busy', 4: 'checked', 25: 'showing', 30: 'visible' })[bit])
    .join(',');
};
let failures = 0;
let clicks = 0;
try {
  for (let iteration = 0; iteration < ITERATIONS; iteration += 1) {
    const home = desktop.session.env['HOME'] as string;
    const profile = path.join(home, `ff-${iteration}`);
    mkdirSync(profile, { recursive: true });
    const page = path.join(home, 'form.html');
    writeFileSync(page, '<!doctype html><title>Form</title><label><input type="checkbox"> Subscribe</label>');
    const app = await desktop.launch('firefox-esr', ['--no-remote', '--new-instance', '--profile', profile, `file://${page}`], {
      MOZ_ACCESSIBILITY_ENABLED: '1',
    });
    try {
      let seen;
      for (let tries = 0; tries < 50 && seen === undefined; tries += 1) {
        const tree = await desktop.engine.observe(app.pid, { fresh: true });
        if (findNodes(tree.root, { role: 'checkbox', name: 'Subscribe' }).length > 0) seen = tree;
        else await new Promise((resolve) => setTimeout(resolve, FIRST_SIGHT ? 20 : 200));
      }
      for (const wanted of [true, false]) {
        // --first-sight: the first click goes to the read that first showed the box, as soon as it does.
        const tree = FIRST_SIGHT && wanted && seen !== undefined ? seen : await desktop.engine.observe(app.pid, { fresh: true });
        const box = findNodes(tree.root, { role: 'checkbox', name: 'Subscribe' })[0]?.node;
        if (box === undefined) throw new Error('no box');
        const ref = tree.refs.get(box.id) as { bus: string; path: string; interfaces: string[] };
        const doc = findNodes(tree.root, { role: 'document' })[0]?.node;
        const docRef = doc === undefined ? undefined : (tree.refs.get(doc.id) as { bus: string; path: string });
        const pre = `${FIRST_SIGHT && wanted ? 'first-sight ' : ''}box ${ref.path} ifaces=${ref.interfaces.map((name) => name.split('.').pop()).join('/')} states=${await states([ref.bus, ref.path])} doc=${docRef === undefined ? '-' : `${docRef.path}:${await states([docRef.bus, docRef.path])}`}`;
        log.length = 0;
        const result = await desktop.engine.run(app.pid, { action: 'click', id: box.id });
        let after = '';
        for (let look = 0; look < 10; look += 1) {
          after = await states([ref.bus, ref.path]).catch((error: unknown) => `gone:${String(error)}`);
          if (after.includes('checked') === wanted) break;
          await new Promise((resolve) => setTimeout(resolve, 200));
        }
        const landed = after.includes('checked') === wanted;
        const ok = result.success && result.changed && landed;
        clicks += 1;
        if (!ok) failures += 1;
        console.log(
          `${ok ? 'ok  ' : 'FAIL'} it=${iteration} wanted=${wanted} method=${result.method} via=${result.via} changed=${result.changed} err=${result.error?.code ?? '-'}:${(result.error?.message ?? '').slice(0, 80)} landed=${landed} | ${pre} | calls: ${log.join(' ')}`,
        );
      }
    } finally {
      await desktop.quit(app);
    }
  }
} finally {
  console.log(`fx-click: clicks=${clicks} failures=${failures}`);
  await desktop.stop();
}
