import { describe, expect, it } from 'vitest';
import {
  DeskpilotError,
  ERROR_CODES,
  NodeNotFoundError,
  NotSettableError,
  ObjectGoneError,
  StoppedError,
  TimeoutError,
  ValidationError,
  deserializeError,
  hasErrorCode,
  isDeskpilotError,
  isErrorCode,
  isObjectGone,
  isSerializedError,
  serializeError,
} from './errors';

describe('errors', () => {
  it('carry a code, a retry hint and survive serialization', () => {
    const error = new DeskpilotError('NODE_NOT_FOUND', 'gone', { data: { candidates: ['a'] } });
    const copy = deserializeError(JSON.parse(JSON.stringify(serializeError(error))));
    expect(copy).toBeInstanceOf(DeskpilotError);
    expect(copy).toMatchObject({ code: 'NODE_NOT_FOUND', message: 'gone', isRetryable: false, data: { candidates: ['a'] } });
    expect(new TimeoutError('slow').isRetryable).toBe(true);
    expect(new NotSettableError().message).toBe("element does not support set_value; try 'type'");
  });

  it('say an object was gone on both sides of a boundary, and a plain NODE_NOT_FOUND does not', () => {
    const gone = new ObjectGoneError(undefined, { data: { id: 'abc12' } });
    expect(gone.code).toBe('NODE_NOT_FOUND');
    expect(gone.data).toEqual({ id: 'abc12', reason: 'object-gone' });
    expect(isObjectGone(gone)).toBe(true);
    expect(isObjectGone(deserializeError(serializeError(gone)))).toBe(true);
    expect(isObjectGone(new NodeNotFoundError('node not found'))).toBe(false);
  });

  it('turn foreign errors into INTERNAL', () => {
    expect(serializeError(new RangeError('boom'))).toEqual({ code: 'INTERNAL', message: 'boom', isRetryable: false });
    expect(serializeError('text')).toMatchObject({ code: 'INTERNAL', message: 'text' });
  });

  it('keep their identity across a boundary: marker, code and kind survive serialization', () => {
    const copy = deserializeError(JSON.parse(JSON.stringify(serializeError(new NodeNotFoundError('gone')))));
    expect(DeskpilotError.isInstance(copy)).toBe(true);
    expect(copy).toBeInstanceOf(NodeNotFoundError);
    expect(hasErrorCode(copy, 'NODE_NOT_FOUND')).toBe(true);
    expect(deserializeError({ code: 'VALIDATION', message: 'bad', isRetryable: false })).toBeInstanceOf(ValidationError);
    // Another copy of this module (a bundle, a worker) makes errors `instanceof` cannot see; the marker can.
    const foreign = Object.assign(new Error('from elsewhere'), { [Symbol.for('deskpilot.error')]: true, code: 'TIMEOUT', isRetryable: true });
    expect(foreign).not.toBeInstanceOf(DeskpilotError);
    expect(isDeskpilotError(foreign)).toBe(true);
    expect(serializeError(foreign)).toMatchObject({ code: 'TIMEOUT', message: 'from elsewhere', isRetryable: true });
    expect(isDeskpilotError(new Error('plain'))).toBe(false);
    expect(isDeskpilotError({ code: 'TIMEOUT' })).toBe(false);
    expect(isDeskpilotError(null)).toBe(false);
  });

  it("report a user's stop as its own kind, not INTERNAL, on both sides of a boundary", () => {
    const stop = new StoppedError();
    expect(serializeError(stop)).toEqual({ code: 'STOPPED', message: 'stopped by the user', isRetryable: false });
    const copy = deserializeError(serializeError(new StoppedError('Stopped before it started.', { data: { reason: 'stopped' } })));
    expect(copy).toBeInstanceOf(StoppedError);
    expect(copy).toMatchObject({ code: 'STOPPED', data: { reason: 'stopped' } });
  });

  it('name every code in one list, DENIED and SECRET_FIELD included', () => {
    for (const code of ['DENIED', 'SECRET_FIELD', 'STOPPED', 'TOOL_SERVER', 'PROVIDER_TIMEOUT', 'ACTION_FAILED']) expect(isErrorCode(code)).toBe(true);
    expect(isErrorCode('SOMETHING_NEW')).toBe(false);
    expect(new Set(ERROR_CODES).size).toBe(ERROR_CODES.length);
    expect(isSerializedError({ code: 'DENIED', message: 'no', isRetryable: false })).toBe(true);
    expect(isSerializedError({ code: 'NOPE', message: 'no', isRetryable: false })).toBe(false);
  });
});
