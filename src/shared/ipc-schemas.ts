import { z } from 'zod';
import { CHANNELS, type IpcChannel } from './ipc';

/** The payload each channel accepts; main rejects anything else before a handler runs. */
export const REQUEST_SCHEMAS = {
  [CHANNELS.appInfo]: z.undefined(),
} as const satisfies Record<IpcChannel, z.ZodType>;
