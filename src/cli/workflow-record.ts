import { UnsupportedOperationError } from '../shared/errors';
import type { CommandContext } from './context';
/** The pid from --pid or --app, else the frontmost app. */
type TargetPid = () => Promise<number>;

/** `deskpilot workflow record`: placeholder until the recorder lands. */
export function record(_context: CommandContext, _targetPid: TargetPid): Promise<number> {
  return Promise.reject(new UnsupportedOperationError('workflow record is not available yet'));
}
