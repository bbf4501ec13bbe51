import { UnsupportedOperationError } from '../../../../shared/errors';
import type { Bounds } from '../../../../shared/ui-node';
import type { WindowImage } from '../../types';
import { intersect, paintBlack } from '../../window-image';
import { X11Connection } from './connection';
import { belongsTo, OPCODE, pick, words, X11Session, type WindowMatch } from './session';
import { screenStack } from './stack';

type TopLevel = Awaited<ReturnType<X11Session['topLevel']>>;

const Z_PIXMAP = 2;
const ALL_PLANES = 0xffffffff;

function int16(value: number): Buffer {
  const buffer = Buffer.alloc(2);
  buffer.writeInt16LE(value, 0);
  return buffer;
}

/** A window's rectangle on the screen: its origin translated to the root, its own size. */
export async function screenRect(session: X11Session, window: number): Promise<Bounds> {
  const { x } = session;
  const [geometry, origin] = await Promise.all([
    x.request(OPCODE.getGeometry, 0, words(window), 'GetGeometry'),
    x.request(OPCODE.translateCoordinates, 0, Buffer.concat([words(window, x.root), int16(0), int16(0)]), 'TranslateCoordinates'),
  ]);
  return { x: origin.readInt16LE(12), y: origin.readInt16LE(14), width: geometry.readUInt16LE(16), height: geometry.readUInt16LE(18) };
}

/** The 32-bit ZPixmap of a 24- or 32-deep TrueColor screen, little-endian (B, G, R, pad), as RGBA. */
function toRgba(pixels: Buffer, count: number): Buffer {
  const rgba = Buffer.alloc(count * 4);
  for (let index = 0; index < count * 4; index += 4) {
    rgba[index] = pixels[index + 2] as number;
    rgba[index + 1] = pixels[index + 1] as number;
    rgba[index + 2] = pixels[index] as number;
    rgba[index + 3] = 255;
  }
  return rgba;
}

/**
 * Paints black every shown window stacked above the app's that is not the app's own: another
 * app's window or popup (a dialog, a notification, a password prompt) lying over it, and
 * Deskpilot's own (`hidePids`). A capture of an app holds that app's pixels only, so a program
 * allowed one app (`--apps`) never sees another's text through it, and OCR never reads it as the
 * app's. Windows are taken in the screen's real stacking order (screenStack), unmanaged popups
 * included; when the app's window is not found there, the window manager's list above it is used.
 */
async function blackOutOthers(
  session: X11Session,
  image: WindowImage,
  window: number,
  topLevel: TopLevel,
  match: WindowMatch,
  hidePids: readonly number[],
): Promise<void> {
  const stack = await screenStack(session, topLevel.managed ? topLevel.windows : undefined);
  const at = stack.findIndex((entry) => entry.client === window);
  const above = at >= 0 ? stack.slice(at + 1) : topLevel.windows.slice(topLevel.windows.indexOf(window) + 1).map((other) => ({ top: other, client: other }));
  for (const { top, client } of above) {
    const own = !hidePids.includes((await session.pidOf(client)) ?? -1) && (await belongsTo(session, client, match));
    if (own || !(await session.viewable(top))) continue;
    paintBlack(image, await screenRect(session, top));
  }
}

/**
 * The pixels of an app's top-level window as the screen shows them (GetImage on the root over
 * the window's rectangle, cut to the screen), with every other process's window that overlaps
 * it painted black (blackOutOthers): Deskpilot's own window and other apps never show in a capture. Core X11 only,
 * so it works under Xvfb and any X server, with no compositor or extension.
 */
export async function captureWindow(
  env: Record<string, string | undefined>,
  match: WindowMatch,
  hidePids: readonly number[],
  timeoutMs = 2000,
): Promise<WindowImage> {
  const x = await X11Connection.open(env, timeoutMs);
  try {
    const session = new X11Session(x);
    const topLevel = await session.topLevel();
    const window = await pick(session, topLevel.windows, match);
    if (window === undefined) throw new UnsupportedOperationError(`pid ${match.pid} has no window on this display to capture`);
    const screen = await x.request(OPCODE.getGeometry, 0, words(x.root), 'GetGeometry(root)');
    const shown = intersect(await screenRect(session, window), { x: 0, y: 0, width: screen.readUInt16LE(16), height: screen.readUInt16LE(18) });
    if (shown.width === 0 || shown.height === 0) throw new UnsupportedOperationError(`pid ${match.pid}'s window is off the screen`);
    const body = Buffer.concat([
      words(x.root),
      int16(shown.x),
      int16(shown.y),
      Buffer.from([shown.width & 0xff, shown.width >> 8, shown.height & 0xff, shown.height >> 8]),
      words(ALL_PLANES),
    ]);
    const reply = await x.request(OPCODE.getImage, Z_PIXMAP, body, 'GetImage');
    const depth = reply.readUInt8(1);
    const count = shown.width * shown.height;
    if ((depth !== 24 && depth !== 32) || reply.length < 32 + count * 4) {
      throw new UnsupportedOperationError(`the screen is ${depth} bits deep; window capture reads 24- and 32-bit TrueColor screens`);
    }
    const image: WindowImage = { ...shown, data: toRgba(reply.subarray(32), count) };
    await blackOutOthers(session, image, window, topLevel, match, hidePids);
    return image;
  } finally {
    x.close();
  }
}
