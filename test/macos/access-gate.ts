/**
 * Whether the real-Mac suite may run: darwin, AXIsProcessTrusted, and then a real AX read of
 * another app. Trusted alone is not enough: a hosted runner once reported trusted and then failed
 * every read with kAXErrorCannotComplete (-25204, raullenchai/Rapid-MLX#3153), and a stale grant
 * reads as trusted and fails with kAXErrorAPIDisabled (-25211). A failed read is tried once more
 * after a pause (TCC and the AX server can still be settling right after login).
 */
export interface GateProbes {
  platform: string;
  required: boolean;
  /** AXIsProcessTrusted, or the error loading the libraries threw. */
  trusted: () => Promise<boolean>;
  /** One AX read of another app's element; the AXError code (0 is success). */
  read: () => Promise<number>;
  sleep: (ms: number) => Promise<void>;
  executable: string;
}

export interface Access {
  run: boolean;
  required: boolean;
  why: string;
}

/** The pause before the second read. */
export const RETRY_MS = 2000;

export async function decideAccess(probes: GateProbes): Promise<Access> {
  const { required } = probes;
  if (probes.platform !== 'darwin') return { run: false, required, why: `not macOS (${probes.platform})` };
  let trusted: boolean;
  try {
    trusted = await probes.trusted();
  } catch (error) {
    return { run: false, required, why: `the macOS libraries did not load: ${error instanceof Error ? error.message : String(error)}` };
  }
  if (!trusted) return { run: false, required, why: `${probes.executable} lacks the Accessibility grant` };
  let code = await probes.read();
  if (code !== 0) {
    await probes.sleep(RETRY_MS);
    code = await probes.read();
  }
  if (code !== 0) return { run: false, required, why: `trusted, but a real AX read failed twice with AXError ${code}` };
  return { run: true, required, why: 'trusted, and a real AX read answered' };
}
