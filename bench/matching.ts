/**
 * npm run bench:matching — what the longest arguments cost to match: a megabyte name and id
 * against a 5,000-node tree (refused by the tools' bounds, but the matcher must stay linear
 * should one reach it), and the largest allowed name (1,000 characters) and id (64). Beside
 * them, the least any matcher must do, in the same run: put the megabyte in normal form once
 * and look for it in every name. The matcher should cost a small multiple of that, never the
 * product of the two lengths (edit distance on a megabyte).
 */
import { ActionEngine } from '../src/core/actions/engine';
import { closestCandidates } from '../src/core/actions/locate';
import { FIXTURE_PID, FakePlatform } from '../src/core/platform/fake/fake-platform';
import { findNodes } from '../src/core/ui/query';
import type { UiNode } from '../src/shared/ui-node';
import { median, ms, timed } from './stats';

const RUNS = 15;
const MB = 'x'.repeat(1_000_000);

async function main(): Promise<void> {
  const { root } = await new ActionEngine({ platform: new FakePlatform() }).observe(FIXTURE_PID);
  const rows: UiNode[] = Array.from({ length: 5_000 }, (_unused, index) => ({
    ...root,
    id: `r${String(index).padStart(4, '0')}`,
    name: `Row ${index} of a long list`,
    children: [],
  }));
  const big: UiNode = { ...root, children: rows };
  const names = rows.map((row) => row.name.toLowerCase());
  const figures = {
    mb_name_ms: median(await timed(RUNS, async () => findNodes(big, { name: MB }))),
    mb_id_ms: median(await timed(RUNS, async () => closestCandidates(big, MB, undefined))),
    longest_name_ms: median(await timed(RUNS, async () => findNodes(big, { name: 'y'.repeat(1_000) }))),
    longest_id_ms: median(await timed(RUNS, async () => closestCandidates(big, 'z'.repeat(64), undefined))),
    scan_ms: median(
      await timed(RUNS, async () => {
        const wanted = MB.normalize('NFKC').toLowerCase();
        return names.some((name) => name.includes(wanted));
      }),
    ),
  };
  for (const [name, value] of Object.entries(figures)) console.log(`${name.padEnd(16)} ${ms(value)}`);
  const worst = Math.max(figures.mb_name_ms, figures.mb_id_ms, figures.longest_name_ms, figures.longest_id_ms);
  console.log(
    `matching: mb_name_ms=${ms(figures.mb_name_ms)} mb_id_ms=${ms(figures.mb_id_ms)} longest_name_ms=${ms(figures.longest_name_ms)} vs_scan=${(worst / Math.max(figures.scan_ms, 0.01)).toFixed(1)}`,
  );
}

await main();
