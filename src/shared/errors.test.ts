import { describe, expect, it } from 'vitest';
import { DeskpilotError, NotSettableError, TimeoutError, deserializeError, serializeError } from './errors';

describe('errors', () => {
  it('carry a code, a retry hint and survive serialization', () => {
    const error = new DeskpilotError('NODE_NOT_FOUND', 'gone', { data: { candidates: ['a'] } });
    const copy = deserializeError(JSON.parse(JSON.stringify(serializeError(error))));
    expect(copy).toBeInstanceOf(DeskpilotError);
    expect(copy).toMatchObject({ code: 'NODE_NOT_FOUND', message: 'gone', isRetryable: false, data: { candidates: ['a'] } });
    expect(new TimeoutError('slow').isRetryable).toBe(true);
    expect(new NotSettableError().message).toBe("element does not support set_value; try 'type'");
  });

  it('turn foreign errors into INTERNAL', () => {
    expect(serializeError(new RangeError('boom'))).toEqual({ code: 'INTERNAL', message: 'boom', isRetryable: false });
    expect(serializeError('text')).toMatchObject({ code: 'INTERNAL', message: 'text' });
  });
});
