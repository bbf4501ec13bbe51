/**
 * Runs a bench's main and ends the process: a bench leaves D-Bus connections and app handles
 * open that would keep Node alive, so it exits 0 when main is done, and 1 with the error's stack
 * on stderr (after `<name>: ` when a name is given) when it fails.
 */
export function runMain(main: () => Promise<void>, name?: string): void {
  main().then(
    () => process.exit(0),
    (error: unknown) => {
      const text = error instanceof Error ? (error.stack ?? error.message) : String(error);
      process.stderr.write(`${name === undefined ? '' : `${name}: `}${text}\n`);
      process.exit(1);
    },
  );
}
