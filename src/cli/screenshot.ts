import { writeFileSync } from 'node:fs';
import { screenshotTool } from '../core/tools/screenshot';
import type { ToolContext } from '../core/tools/types';
import type { CommandContext } from './context';
import { userPath } from './user-path';

/**
 * `deskpilot screenshot`: the app's window as a PNG (password fields painted black), written to
 * --out or to screenshot-<pid>.png in the folder the user ran it from (INIT_CWD under npm run). --ocr also prints the text read off it, each line with
 * the id `act` clicks it by. The image is the full window, never scaled: a file has no budget.
 */
export async function screenshot(context: CommandContext, tools: ToolContext): Promise<number> {
  const ocr = context.values['ocr'] === true;
  const result = await screenshotTool.handler({ ocr, maxPixels: 4_000_000 }, tools);
  const data = result.data as { pid: number };
  const file = userPath(context.io.env, typeof context.values['out'] === 'string' ? context.values['out'] : `screenshot-${data.pid}.png`);
  writeFileSync(file, Buffer.from(result.images?.[0]?.data ?? '', 'base64'));
  if (context.values['json']) context.io.stdout(JSON.stringify({ ...data, file }, null, 2));
  else context.io.stdout(`${result.message}\nsaved ${file}`);
  return 0;
}
