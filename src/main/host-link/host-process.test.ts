import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';

class FakeUtilityProcess extends EventEmitter {
  readonly posted: unknown[] = [];
  postMessage(message: unknown): void {
    this.posted.push(message);
  }
  kill = vi.fn(() => true);
}
const forks: { modulePath: string; args: string[]; options: unknown; child: FakeUtilityProcess }[] = [];

vi.mock('electron', () => ({
  utilityProcess: {
    fork: (modulePath: string, args: string[], options: unknown) => {
      const child = new FakeUtilityProcess();
      forks.push({ modulePath, args, options, child });
      return child;
    },
  },
}));

const { spawnUtilityHost } = await import('./host-process');

describe('spawnUtilityHost', () => {
  it("forks the host entry as a utilityProcess that knows main's pid, and adapts its events", () => {
    const host = spawnUtilityHost('/app/out/main/host.js', '/home/ada/.config/Deskpilot');
    const fork = forks[0];
    expect(fork).toMatchObject({
      modulePath: '/app/out/main/host.js',
      args: [`--main-pid=${process.pid}`],
      options: { serviceName: 'Deskpilot automation host', env: { DESKPILOT_DATA_DIR: '/home/ada/.config/Deskpilot' } },
    });
    const messages: unknown[] = [];
    const exits: unknown[] = [];
    host.onMessage((raw) => messages.push(raw));
    host.onExit((code) => exits.push(code));
    fork?.child.emit('message', { rpc: 'event', event: 'ready', payload: { pid: 9 } });
    fork?.child.emit('exit', 3);
    host.postMessage({ rpc: 'notify', method: 'stop', params: {} });
    host.kill();
    expect(messages).toEqual([{ rpc: 'event', event: 'ready', payload: { pid: 9 } }]);
    expect(exits).toEqual([3]);
    expect(fork?.child.posted).toEqual([{ rpc: 'notify', method: 'stop', params: {} }]);
    expect(fork?.child.kill).toHaveBeenCalled();
  });
});
