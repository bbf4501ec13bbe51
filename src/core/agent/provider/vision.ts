import { DeskpilotError } from '../../../shared/errors';
import type { Environment } from '../../provider-config/environment';

/**
 * Whether images from tools go to the model. `auto` sends them and, when the provider refuses
 * a request for its images, goes on without them; `on` always sends them (a refusal is an
 * error); `off` only names them in text.
 */
export type VisionMode = 'auto' | 'on' | 'off';

const MODES: readonly VisionMode[] = ['auto', 'on', 'off'];

/** DESKPILOT_VISION, for a model known to have (or lack) vision; anything else is `auto`. */
export function visionFromEnv(env: Environment): VisionMode {
  const value = env['DESKPILOT_VISION']?.trim().toLowerCase();
  return MODES.find((mode) => mode === value) ?? 'auto';
}

/** How servers word it: "image input is not supported", "model does not support vision", "No endpoints found that support image input", "multimodal". */
const IMAGE_WORDS = /image|vision|multi-?modal/i;

/**
 * Statuses of a request refused for what it holds: 400 (OpenAI, LM Studio, vLLM), 404
 * (OpenRouter: no endpoint of the model takes images), 415 and 422 (other gateways).
 */
const REFUSED = new Set([400, 404, 415, 422]);

/**
 * Whether a refusal is about images, by its status and the server's words. The model's own name
 * is left out of the words: "model llava-vision not found" is not about images.
 */
export function refusesImages(status: number, serverWords: string, model = ''): boolean {
  return REFUSED.has(status) && IMAGE_WORDS.test(model === '' ? serverWords : serverWords.split(model).join(''));
}

/**
 * Whether the provider refused a request because it had images. The openai-compatible provider
 * marks its error (`data.images`, see map-error); another provider's error is judged by its
 * `status` and message. Only asked of requests that had images.
 */
export function rejectsImages(error: unknown): boolean {
  if (error instanceof DeskpilotError) return error.data?.['images'] === true;
  const status = (error as { status?: unknown } | undefined)?.status;
  return error instanceof Error && typeof status === 'number' && refusesImages(status, error.message);
}
