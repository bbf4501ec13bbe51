/**
 * npm run bench:context — tokens of the compact context the model gets (serializeTree in
 * the agent's style: bare five-character ids) against the OSWorld linearized accessibility
 * table for the same tree, on real GTK apps. Tokens are counted with js-tiktoken's
 * o200k_base encoding (bundled, no downloads); `estimate` is the runtime estimator the
 * budgets use (ui/token-estimate), shown beside the real count as a calibration check.
 */
import { getEncoding } from 'js-tiktoken';
import { CONTEXT_TREE_BUDGET } from '../src/core/agent/context-message';
import { serializeTree } from '../src/core/ui/serialize';
import { estimateTokens } from '../src/core/ui/token-estimate';
import { countNodes } from '../src/core/ui/tree-index';
import { startDesktop, type Desktop } from '../test/linux/desktop';
import { osworldTable } from './osworld-table';

const APPS = [
  { name: 'gtk3-widget-factory', command: 'gtk3-widget-factory' },
  { name: 'mousepad', command: 'mousepad' },
  { name: 'gtk4-widget-factory', command: 'gtk4-widget-factory' },
] as const;

const encoding = getEncoding('o200k_base');
const tokens = (text: string): number => encoding.encode(text).length;

interface Row {
  name: string;
  nodes: number;
  ours: number;
  estimate: number;
  budgeted: number;
  osworld: number;
}

async function measure(desktop: Desktop, app: (typeof APPS)[number]): Promise<Row> {
  const { pid } = await desktop.launch(app.command);
  await new Promise((resolve) => setTimeout(resolve, 1000));
  const { root } = await desktop.engine.observe(pid, { fresh: true, bounds: 'all' });
  const unbudgeted = serializeTree(root, { ...CONTEXT_TREE_BUDGET, maxNodes: Number.POSITIVE_INFINITY, maxTokens: Number.POSITIVE_INFINITY });
  return {
    name: app.name,
    nodes: countNodes(root),
    ours: tokens(unbudgeted),
    estimate: estimateTokens(unbudgeted),
    budgeted: tokens(serializeTree(root, CONTEXT_TREE_BUDGET)),
    osworld: tokens(osworldTable(root)),
  };
}

async function main(): Promise<void> {
  const desktop = await startDesktop();
  try {
    console.log(
      "tokens: js-tiktoken o200k_base. ours = the agent's serializeTree style without budgets (nothing truncated); budgeted = with the agent's CONTEXT_TREE_BUDGET; estimate = ui/token-estimate on ours.",
    );
    const ratios: number[] = [];
    for (const app of APPS) {
      const row = await measure(desktop, app);
      const ratio = row.ours / row.osworld;
      ratios.push(ratio);
      console.log(
        `${row.name.padEnd(20)} nodes=${row.nodes}  ours=${row.ours}  osworld=${row.osworld}  ratio=${ratio.toFixed(3)}  | budgeted=${row.budgeted}  estimate=${row.estimate}`,
      );
    }
    console.log(`context_tokens: max_ratio_vs_osworld=${Math.max(...ratios).toFixed(3)}`);
  } finally {
    await desktop.stop();
  }
}

await main();
