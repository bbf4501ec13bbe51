import { describe, expect, it } from 'vitest';
import { inputMonitoringCheck } from './input-monitoring';
import { FakeNative, asNative } from './testing/fake-native';

describe("the doctor's Input Monitoring line", () => {
  it('says granted, or not granted with where to grant it, without prompting and without failing the doctor', () => {
    const fake = new FakeNative({ apps: [], trusted: true, granted: true });
    expect(inputMonitoringCheck(asNative(fake))).toEqual({ id: 'mac-input-monitoring', status: 'ok', figure: 'granted' });
    fake.taps.granted = false;
    expect(inputMonitoringCheck(asNative(fake))).toMatchObject({ status: 'skip', fix: expect.stringContaining('Input Monitoring') });
    expect(fake.callsOf('CGRequestListenEventAccess')).toEqual([]);
  });
});
