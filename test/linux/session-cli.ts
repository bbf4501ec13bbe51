/**
 * A private headless desktop by hand.
 *   npm run session                  start one (with openbox), print `export` lines, stop on Ctrl-C
 *   npm run session -- bash          a shell inside one, with its private HOME; your own shell is left alone
 *   npm run session -- cmd args...   run cmd inside one, stop, exit with cmd's code
 */
import { constants } from 'node:os';
import { startSession } from './session';
import { environmentLines } from './session-env';

async function main(argv: string[]): Promise<number> {
  const [command, ...args] = argv[0] === '--' ? argv.slice(1) : argv;
  const session = await startSession({ openbox: true });
  try {
    if (command === undefined) {
      process.stdout.write(`${environmentLines(session.env, process.env).join('\n')}\n`);
      process.stderr.write(
        `# session on ${session.display} ready in ${session.startupMs} ms; accessibility bus ${session.a11yBusAddress}; Ctrl-C stops it\n` +
          '# these lines change HOME and the XDG folders of the shell you paste them into; npm run session -- bash opens a shell of its own instead\n',
      );
      // Signal listeners alone don't keep Node running, and the session's servers are unreferenced.
      const keepAlive = setInterval(() => {}, 1 << 30);
      const signal = await new Promise<NodeJS.Signals>((resolve) => {
        // `on`, not `once`: Ctrl-C reaches this process twice (directly and relayed by tsx), and a
        // second signal with no listener would kill it halfway through stop().
        for (const name of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(name, resolve);
      });
      clearInterval(keepAlive);
      return 128 + constants.signals[signal];
    }

    // Not detached: the command stays in the terminal's foreground group so it can read stdin and get Ctrl-C itself.
    const child = session.launch(command, args, { output: 'inherit', detached: false });
    // Ctrl-C in a terminal already reached the command through the process group; don't send it twice.
    process.on('SIGINT', () => process.stdin.isTTY || child.kill('SIGINT'));
    for (const name of ['SIGTERM', 'SIGHUP'] as const) process.on(name, () => child.kill(name));
    const code = await new Promise<number>((resolve) => {
      child.once('error', (error) => {
        process.stderr.write(`${command}: ${error.message}\n`);
        resolve(127);
      });
      child.once('exit', (exitCode, signal) => resolve(exitCode ?? 128 + (signal === null ? 0 : constants.signals[signal])));
    });
    return code;
  } finally {
    await session.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    process.stderr.write(`session: ${error instanceof Error ? error.message : String(error)}\n`);
    process.exit(1);
  },
);
