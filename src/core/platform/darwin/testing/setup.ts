import { expect } from 'vitest';
import type { InputBackend, Platform } from '../../types';
import { createDarwinPlatform, type DarwinDependencies } from '../index';
import { FakeNative, asNative } from './fake-native';
import type { FakeApp, FakeWorld } from './fake-world';

export interface Harness {
  fake: FakeNative;
  platform: Platform;
  nut: RecordingNut;
  sleeps: number[];
  /** Closes the platform and asserts every Create/Copy was released exactly once. */
  finish(): Promise<void>;
}

/** A nut-js stand-in that records calls, or fails each one when `failing`. */
export class RecordingNut implements InputBackend {
  readonly calls: string[] = [];
  failing = false;
  private step(name: string): Promise<void> {
    this.calls.push(name);
    return this.failing ? Promise.reject(new Error('nut-js: no accessibility grant')) : Promise.resolve();
  }
  click = () => this.step('click');
  moveMouse = () => this.step('moveMouse');
  mouseDown = () => this.step('mouseDown');
  mouseUp = () => this.step('mouseUp');
  typeText = (text: string) => this.step(`typeText ${text}`);
  pressKey = (key: string) => this.step(`pressKey ${key}`);
  scroll = () => this.step('scroll');
}

export async function harness(apps: FakeApp[], world: Partial<FakeWorld> = {}, dependencies: Partial<DarwinDependencies> = {}): Promise<Harness> {
  const fake = new FakeNative({ apps, trusted: true, granted: true, clockMs: 0, ...world });
  const nut = new RecordingNut();
  const sleeps: number[] = [];
  const platform = await createDarwinPlatform({
    native: asNative(fake),
    loadNut: () => Promise.resolve(nut),
    sleep: (ms) => {
      sleeps.push(ms);
      fake.world.clockMs = (fake.world.clockMs ?? 0) + ms;
      return Promise.resolve();
    },
    now: () => fake.world.clockMs ?? 0,
    isAlive: (pid) => apps.some((app) => app.pid === pid && app.dead !== true),
    ownPids: [1],
    ...dependencies,
  });
  return {
    fake,
    platform,
    nut,
    sleeps,
    finish: async () => {
      await platform.close();
      expect(fake.leaks()).toEqual([]);
      expect(fake.objc.pools).toBe(0);
    },
  };
}
