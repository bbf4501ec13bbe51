/**
 * npm run bench:action — round trip of click, set_value and type on the fixture app through
 * the whole observe-act-verify engine, settle excluded (settleMs 0). Side by side, the bare
 * native call with a pre-resolved element, so the ratio shows what resolve + verify add.
 */
import type { UiNode } from '../src/shared/ui-node';
import { findNodes } from '../src/core/ui/query';
import { startDesktop, type Desktop } from '../test/linux/desktop';
import { median, ms, quantile, timed } from './stats';

const RUNS = 30;

async function target(desktop: Desktop, pid: number, name: string, role: string): Promise<{ node: UiNode; ref: unknown }> {
  const tree = await desktop.engine.observe(pid, { fresh: true });
  const node = findNodes(tree.root, { name, role })[0]?.node;
  if (node === undefined) throw new Error(`fixture has no ${role} ${name}`);
  return { node, ref: tree.refs.get(node.id) };
}

async function main(): Promise<void> {
  const desktop = await startDesktop({ openbox: true });
  try {
    const { pid } = await desktop.launchFixture();
    const { accessibility, input } = desktop.platform;
    let flip = 0;
    const cases = [
      {
        action: 'click',
        request: async () => ({ action: 'click', id: (await target(desktop, pid, 'Enable feature', 'checkbox')).node.id }),
        bare: async ({ node, ref }: { node: UiNode; ref: unknown }) => accessibility.press(ref, node),
        find: () => target(desktop, pid, 'Enable feature', 'checkbox'),
      },
      {
        action: 'set_value',
        request: async () => ({ action: 'set_value', id: (await target(desktop, pid, 'Volume', 'slider')).node.id, value: (flip += 1) % 2 === 0 ? 30 : 70 }),
        bare: async ({ node, ref }: { node: UiNode; ref: unknown }) => accessibility.setValue(ref, node, (flip += 1) % 2 === 0 ? 30 : 70),
        find: () => target(desktop, pid, 'Volume', 'slider'),
      },
      {
        action: 'type',
        request: async () => ({ action: 'type', id: (await target(desktop, pid, 'Name', 'textfield')).node.id, text: 'ab' }),
        // The engine types through EditableText where the field takes it, as here; keys otherwise.
        bare: async ({ node, ref }: { node: UiNode; ref: unknown }) => {
          if (await accessibility.insertText?.(ref, node, 'ab')) return;
          await accessibility.focus(ref, node);
          await input.typeText('ab');
        },
        find: () => target(desktop, pid, 'Name', 'textfield'),
      },
    ];
    const all: number[] = [];
    console.log(`${RUNS} runs each, settleMs 0; engine = resolve + snapshot + act + verify, bare = the native call alone`);
    for (const testCase of cases) {
      const times: number[] = [];
      for (let run = 0; run < RUNS; run += 1) {
        const request = await testCase.request();
        const started = performance.now();
        const result = await desktop.engine.run(pid, { ...request, settleMs: 0 });
        times.push(performance.now() - started);
        if (!result.success) throw new Error(`${testCase.action} failed: ${result.error?.message}`);
      }
      const resolved = await testCase.find();
      const bare = median(await timed(RUNS, () => testCase.bare(resolved)));
      all.push(...times);
      console.log(
        `${testCase.action.padEnd(10)} median=${ms(median(times))} ms  p95=${ms(quantile(times, 0.95))} ms  bare=${ms(bare)} ms  ratio=${(median(times) / bare).toFixed(1)}x`,
      );
    }
    console.log(`action_overhead: median_ms=${ms(median(all))} p95_ms=${ms(quantile(all, 0.95))}`);
  } finally {
    await desktop.stop();
  }
}

await main();
