import type { Platform } from '../platform/types';
import type { OcrEngine, OcrLanguage } from './ocr';
import { withScreenText, type TextReader } from './screen-text';

export { ScreenText, withScreenText, type TextReader } from './screen-text';
export { encodePng, decodePng, type RgbaImage } from '../image/png';
export { fitPixels } from '../image/scale';

/** The OCR languages for a locale: Portuguese text needs its own model (accents); English is read always. */
export function ocrLanguages(env: Record<string, string | undefined>): OcrLanguage[] {
  const locale = env['LC_ALL'] || env['LC_MESSAGES'] || env['LANG'] || '';
  return /^pt([_-]|$)/i.test(locale) ? ['por', 'eng'] : ['eng'];
}

/**
 * The platform with screen text, where it can capture windows. Tesseract loads on the first
 * read only: a CLI command or an app with a good tree never pays for it.
 */
export function withVision(platform: Platform, options: { hidePids?: () => readonly number[]; languages?: OcrLanguage[] } = {}): Platform {
  if (platform.screen === undefined) return platform;
  let engine: Promise<OcrEngine> | undefined;
  const reader: TextReader = {
    read: async (image, origin) => {
      engine ??= import('./ocr').then(({ OcrEngine }) => new OcrEngine(options.languages ?? ['eng']));
      return (await engine).read(image, origin);
    },
    close: async () => {
      if (engine !== undefined) await (await engine).close();
    },
  };
  return withScreenText(platform, { reader, ...(options.hidePids === undefined ? {} : { hidePids: options.hidePids }) });
}
