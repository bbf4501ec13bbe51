import type { HostSettings } from '../../shared/host-protocol';
import type { ProviderSettings } from './config';

/** The provider's view of the settings main sends (main uses it too, for its cheap `configured` check). */
export function providerSettings(settings: HostSettings): ProviderSettings {
  return {
    preset: settings.preset,
    baseUrl: settings.baseUrl,
    model: settings.model,
    headers: settings.headers,
    ...(settings.apiKey === undefined ? {} : { apiKey: settings.apiKey }),
  };
}
