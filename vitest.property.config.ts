import { defineConfig } from 'vitest/config';
import { PROPERTY_TESTS, RUNNER } from './vitest.config';

/** `npm run test:property`: only the property tier, with the same workers and timeouts as `npm test`. */
export default defineConfig({ test: { ...RUNNER, include: PROPERTY_TESTS } });
