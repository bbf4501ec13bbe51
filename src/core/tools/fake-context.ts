/** Test helper: a ToolContext over the FakePlatform, with the log collected. Used only by tests. */
import { FakeClock, type Clock } from '../clock';
import { ActionEngine } from '../actions/engine';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import type { ToolContext } from './types';

export interface FakeContext extends ToolContext {
  platform: FakePlatform;
  logs: string[];
  controller: AbortController;
}

export function fakeContext(options: { clock?: Clock; platform?: FakePlatform } = {}): FakeContext {
  const platform = options.platform ?? new FakePlatform();
  const clock = options.clock ?? new FakeClock();
  const controller = new AbortController();
  const logs: string[] = [];
  return {
    engine: new ActionEngine({ platform, clock }),
    platform,
    targetPid: FIXTURE_PID,
    lineStyle: 'compact',
    signal: controller.signal,
    controller,
    clock,
    logs,
    log: (text) => logs.push(text),
  };
}
