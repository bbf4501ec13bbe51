import type { IpcMainInvokeEvent } from 'electron';
import type { z } from 'zod';
import { CHANNELS, type DeskpilotApi } from '../../shared/ipc';
import { REQUEST_SCHEMAS } from '../../shared/ipc-schemas';
import { handle } from './ipc';

type ApiName = keyof typeof CHANNELS;
type Payload<Name extends ApiName> = z.infer<(typeof REQUEST_SCHEMAS)[(typeof CHANNELS)[Name]]>;
type Reply<Name extends ApiName> = Awaited<ReturnType<DeskpilotApi[Name]>>;

/**
 * One handler per channel, named like the preload's API method it answers (CHANNELS' keys are
 * those names). The type has every channel as a required key, so a channel added to the
 * contract without a handler fails to compile.
 */
export type MainHandlers = { [Name in ApiName]: (payload: Payload<Name>) => Promise<Reply<Name>> | Reply<Name> };

/** Registers every channel through `handle()`: sender check and schema validation first. */
export function registerIpcHandlers(handlers: MainHandlers, isTrustedSender: (event: IpcMainInvokeEvent) => boolean): void {
  for (const name of Object.keys(CHANNELS) as ApiName[]) {
    const channel = CHANNELS[name];
    const handler = handlers[name] as (payload: unknown) => unknown;
    handle(channel, REQUEST_SCHEMAS[channel], isTrustedSender, (payload) => handler(payload));
  }
}
