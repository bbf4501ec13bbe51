import { runDoctor } from '../core/doctor/doctor';
import { checkLine } from '../core/doctor/labels';
import type { CliIo } from './context';

/** `deskpilot doctor [--online] [--json]`: exit 0 when every check passed, 1 when one failed. */
export async function doctorCommand(values: Record<string, string | boolean | string[] | undefined>, io: CliIo): Promise<number> {
  const report = await runDoctor({ env: io.env, online: values['online'] === true });
  io.stdout(values['json'] === true ? JSON.stringify(report, null, 2) : report.checks.map(checkLine).join('\n'));
  return report.ok ? 0 : 1;
}
