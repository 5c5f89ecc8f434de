import type { Handlers } from '../domain/handler-context.js';
import { AppError } from '../kernel/errors.js';

// PLACEHOLDER while issue 28 is built: replaced by the real handlers before the issue lands.
const pending = async (): Promise<never> => {
  throw new AppError(503, 'ServiceUnavailableError', 'not built yet');
};

export const impactMetricHandlers = {
  getImpactMetrics: pending,
  getImpactMetricSeries: pending,
  getImpactMetricsPrometheus: pending,
} satisfies Partial<Handlers>;
