/**
 * What main hands the automation host besides its requests: the provider settings (with the
 * decrypted key, main → host only; derived from settings-schema.ts) and the conversation it
 * keeps for a restarted host. The host's methods and events themselves are declared in
 * host-service.ts.
 */
import { z } from 'zod';

/**
 * One provider message as the `openai` SDK shapes it. Main keeps them opaque: it only stores
 * the latest snapshot and hands it back to a restarted host, so only the role is checked.
 */
export const HISTORY_MESSAGE_SCHEMA = z.looseObject({ role: z.enum(['system', 'developer', 'user', 'assistant', 'tool', 'function']) });
export type HistoryMessage = z.infer<typeof HISTORY_MESSAGE_SCHEMA>;

/** The settings main sends, with the decrypted secrets: they only ever travel main → host (see settings-schema.ts). */
export { HOST_SETTINGS_SCHEMA, type HostSettings } from './settings-derive';
