import { IFACE } from '../../../../native/linux/atspi';
import { DbusCallError } from '../../../../native/linux/dbus';
import { DeskpilotError, ObjectGoneError, isObjectGone } from '../../../shared/errors';
import { overlay } from '../overlay';
import { mapDbusError, type AtspiClient, type AtspiRef } from './client';

function unknownMember(error: unknown): error is DbusCallError {
  return error instanceof DbusCallError && (error.errorName.endsWith('UnknownObject') || error.errorName.endsWith('UnknownMethod'));
}

/**
 * The typed error for a failed call on an element, on the act path. UnknownObject says the
 * object is gone (ObjectGoneError, which the engine may recover from). UnknownMethod means either
 * a dead path (as some bridges answer) or a method this live object lacks, so the path is asked
 * GetRole, which every accessible answers: failing the same way, it is gone; answering, it is
 * there and the method is not, which no new read would change (ACTION_FAILED).
 */
export async function actError(client: AtspiClient, target: AtspiRef, error: unknown): Promise<unknown> {
  const mapped = mapDbusError(error, target.pid);
  if (isObjectGone(mapped) || !(error instanceof DbusCallError) || !error.errorName.endsWith('UnknownMethod')) return mapped;
  try {
    await client.call([target.bus, target.path], IFACE.accessible, 'GetRole');
  } catch (look) {
    if (unknownMember(look)) return new ObjectGoneError(undefined, { cause: error });
    return mapped;
  }
  return new DeskpilotError('ACTION_FAILED', `the element does not answer ${error.call.interface}.${error.call.member} (UnknownMethod)`, { cause: error });
}

/**
 * A client that counts the calls it sends, for the act path: the engine compares the count
 * around an action to know whether the call that failed was the first of it (AccessibilityBackend.actCalls).
 * Every other member is the client's own.
 */
export function countingClient(client: AtspiClient, count: () => void): AtspiClient {
  return overlay(client, {
    call: (...args: Parameters<AtspiClient['call']>) => {
      count();
      return client.call(...args);
    },
    property: (...args: Parameters<AtspiClient['property']>) => {
      count();
      return client.property(...args);
    },
    setProperty: (...args: Parameters<AtspiClient['setProperty']>) => {
      count();
      return client.setProperty(...args);
    },
  });
}
