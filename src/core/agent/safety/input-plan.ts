import type { InputRequest } from '../../actions/engine';
import type { ActionPlan } from '../../../shared/risk';
import { MASK } from './secrets';

/**
 * What the user is asked about: the input step itself ("type 'hello' into Name", "press
 * ctrl+s"), never the tool call around it, which may do many things without input. Text bound
 * for a secret field is masked, as in every other approval.
 */
export function inputPlan(input: InputRequest): { plan: ActionPlan; summary: string } {
  const name = input.target === undefined ? undefined : input.target.name.trim() === '' ? input.target.role : input.target.name;
  const value = input.value === undefined ? undefined : input.action === 'type' && input.target?.secret === true ? MASK : input.value;
  const plan: ActionPlan = { verb: input.action, ...(name === undefined ? {} : { target: name }), ...(value === undefined ? {} : { value }) };
  const summary = JSON.stringify({
    action: input.action,
    via: input.via,
    ...(input.target === undefined ? {} : { id: input.target.id }),
    ...(value === undefined ? {} : { value }),
  });
  return { plan, summary };
}
