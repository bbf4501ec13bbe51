import { UnsupportedOperationError } from '../shared/errors';
import type { CommandContext } from './context';
import type { TargetPid } from './workflow';

/** `deskpilot workflow record`: placeholder until the recorder lands. */
export function record(_context: CommandContext, _targetPid: TargetPid): Promise<number> {
  return Promise.reject(new UnsupportedOperationError('workflow record is not available yet'));
}
