import { describe, expect, it } from 'vitest';
import { FakeClock } from '../clock';
import { FIXTURE_PID, FakePlatform } from '../platform/fake/fake-platform';
import type { Point, WindowOwner } from '../platform/types';
import { walk } from '../ui/tree-index';
import { ActionEngine } from './engine';

/** A desktop where another process's window lies over part of the fixture app. */
function covered(owner: (point: Point) => WindowOwner | undefined): { platform: FakePlatform; engine: ActionEngine; asked: Point[] } {
  const platform = new FakePlatform();
  const asked: Point[] = [];
  platform.apps.windowAt = (point) => {
    asked.push(point);
    return Promise.resolve(owner(point));
  };
  return { platform, engine: new ActionEngine({ platform, clock: new FakeClock() }), asked };
}

async function idOf(engine: ActionEngine, name: string): Promise<string> {
  const { root } = await engine.observe(FIXTURE_PID, { fresh: true });
  return [...walk(root)].find((node) => node.name === name)?.id as string;
}

describe('synthetic input over another window', () => {
  it('is not sent when another process owns the window at the point', async () => {
    const { platform, engine, asked } = covered(() => ({ pid: 9999 }));
    const result = await engine.run(FIXTURE_PID, { action: 'scroll', id: await idOf(engine, 'Items') });
    expect(result).toMatchObject({ success: false, error: { code: 'ACTION_FAILED', message: expect.stringMatching(/covered by another window/) } });
    expect(result.error?.message).not.toContain('9999');
    expect(platform.inputLog).toEqual([]);
    expect(asked).toHaveLength(1);
  });

  it('is sent where the window at the point is the app’s, by pid or by one of its window titles', async () => {
    for (const owner of [{ pid: FIXTURE_PID }, { title: 'Deskpilot Fixture' }]) {
      const { platform, engine } = covered(() => owner);
      const result = await engine.run(FIXTURE_PID, { action: 'scroll', id: await idOf(engine, 'Items') });
      expect(result.success, JSON.stringify(owner)).toBe(true);
      expect(platform.inputLog).toEqual(['scroll down 3']);
    }
  });

  it('checks both ends of a drag, and a window with another title is not the app’s', async () => {
    const { platform, engine, asked } = covered((point) => (point.y > 150 ? { title: 'Other' } : { pid: FIXTURE_PID }));
    const result = await engine.run(FIXTURE_PID, { action: 'drag', id: await idOf(engine, 'Drag me'), toId: await idOf(engine, 'Drop here') });
    expect(result.success).toBe(false);
    expect(asked).toHaveLength(2);
    expect(platform.inputLog).toEqual([]);
  });

  it('leaves the accessibility path alone: a native press needs no point', async () => {
    const { platform, engine, asked } = covered(() => ({ pid: 9999 }));
    const result = await engine.run(FIXTURE_PID, { action: 'click', id: await idOf(engine, 'Clicked 0 times') });
    expect(result).toMatchObject({ success: true, method: 'accessibility' });
    expect(asked).toEqual([]);
    expect(platform.app(FIXTURE_PID).clicks).toBe(1);
  });
});
