import { z } from 'zod';
import { UnsupportedOperationError } from '../../shared/errors';
import type { UiNode } from '../../shared/ui-node';
import { walk } from '../ui/tree-index';
import { fitPixels } from '../image/scale';
import { encodeWithin } from './image-budget';
import { resolveApp, targetFields } from './target';
import { defineTool } from './types';
import { argText, argumentLine } from './gist';

/** About a megapixel: what vision models take without scaling again, and UI text stays readable. */
const DEFAULT_MAX_PIXELS = 1_000_000;

/**
 * 1000000 → "1,000,000", as toLocaleString('en') writes it, without it: this runs as the module
 * loads, and the first toLocaleString loads ICU's locale data, tens of ms of every CLI start.
 */
function grouped(count: number): string {
  return String(count).replace(/\B(?=(\d{3})+(?!\d))/g, ',');
}

const schema = z.strictObject({
  ...targetFields,
  ocr: z.boolean().optional().describe("Also read the window's text (default true): its lines join the tree as nodes with ids you can click"),
  maxPixels: z
    .number()
    .int()
    .min(50_000)
    .max(4_000_000)
    .optional()
    .describe(`Most pixels in the image (default ${grouped(DEFAULT_MAX_PIXELS)}); a larger window is scaled down`),
});

const box = z.object({ x: z.number(), y: z.number(), width: z.number(), height: z.number() });

const output = z.object({
  pid: z.number(),
  app: z.string(),
  /** The window on the screen, before any scaling. */
  window: box,
  /** The image's size, and its pixels per screen point (1: one pixel a point; 2 on a Retina capture sent whole). */
  width: z.number(),
  height: z.number(),
  scale: z.number(),
  ocr: z.array(z.object({ id: z.string(), text: z.string(), bounds: box })),
});

/** The OCR nodes the tree now carries, in reading order. */
function screenText(root: UiNode): UiNode[] {
  return [...walk(root)].filter((node) => node.source === 'ocr' && node.role === 'text');
}

export const screenshotTool = defineTool({
  name: 'ui_screenshot',
  title: 'Window screenshot',
  describe: (args) => {
    const app = argText(args['app']);
    return { verb: 'capture', ...(app === undefined ? {} : { target: app }), unnamed: 'window', key: argumentLine(args) };
  },
  description: [
    "Observe: an image of the app's window, and its text read by OCR. Use it where the tree shows too little: a canvas, a game, an image, a remote desktop, a window whose tree has no names.",
    'Text lines become nodes of the tree (role text, "read from screen") with ids: click one with ui_action, then type or press keys. OCR can misread; check names against the image.',
    'Password fields are blacked out in the image.',
  ].join(' '),
  promptSnippet: 'when the tree has no names where you need them, read the window with ui_screenshot, then click its text lines by id',
  schema,
  output,
  effects: 'read',
  // The image and its OCR lines show the whole window: a web page in it is content read.
  safety: { target: 'app', readRoot: () => undefined },
  async handler(args, context) {
    const vision = context.platform.vision;
    if (vision === undefined) throw new UnsupportedOperationError(`window capture is not available on ${context.platform.name}`);
    const app = await resolveApp(context, args);
    const reading = args.ocr === false ? { image: await vision.capture(app.pid), lines: [] } : await vision.read(app.pid);
    // The tree now carries the lines as nodes; reading it gives them their ids.
    const lines = args.ocr === false ? [] : screenText((await context.engine.observe(app.pid, { signal: context.signal })).root);
    const { image } = reading;
    const byPixels = fitPixels(image, args.maxPixels ?? DEFAULT_MAX_PIXELS);
    // Bounded in bytes as well: a noisy window compresses badly, and an MCP message over 10 MB ends the client's session.
    const encoded = encodeWithin(byPixels);
    const fitted = { ...encoded.image, scale: byPixels.scale * encoded.scale };
    const pixelsPerPoint = image.scale ?? 1;
    const ocr = lines.map((node) => ({ id: node.id, text: node.name, bounds: node.bounds ?? { x: 0, y: 0, width: 0, height: 0 } }));
    const size = `${fitted.width}×${fitted.height}${fitted.scale === 1 ? '' : ` (scaled ${fitted.scale.toFixed(2)}× from ${image.width}×${image.height})`}`;
    const text = [
      `# ${app.name} (pid ${app.pid}): window image ${size}, at ${image.x},${image.y} on the screen`,
      ...(args.ocr === false
        ? []
        : ocr.length === 0
          ? ['No text read off the screen that the tree does not already have.']
          : [
              `${ocr.length} text line${ocr.length === 1 ? '' : 's'} read from the screen (ids to click):`,
              ...ocr.map((line) => `${line.id} ${JSON.stringify(line.text)} @${line.bounds.x},${line.bounds.y} ${line.bounds.width}x${line.bounds.height}`),
            ]),
    ].join('\n');
    return {
      success: true,
      message: text,
      data: {
        pid: app.pid,
        app: app.name,
        // The window in screen points; a Retina capture has `image.scale` pixels a point.
        window: { x: image.x, y: image.y, width: image.width / pixelsPerPoint, height: image.height / pixelsPerPoint },
        width: fitted.width,
        height: fitted.height,
        scale: fitted.scale * pixelsPerPoint,
        ocr,
      },
      images: [{ mimeType: 'image/png', data: encoded.base64 }],
    };
  },
});
