// How a context sent to the service is read by every endpoint that evaluates flags for one (the frontend API, the
// playground, OpenFeature's): a field that is null is absent, at the top and in `properties`, as in Unleash's frontend
// API and its client specification.
import type { EvaluationContext } from './index.js';

/** The context without its null fields, at the top and in `properties` (a null `properties` is left out too). */
export function presentFields(context: object): EvaluationContext {
  const present: EvaluationContext = {};
  for (const [field, value] of Object.entries(context)) {
    if (value === null || value === undefined) continue;
    present[field] = field === 'properties' && typeof value === 'object' ? presentFields(value as object) : value;
  }
  return present;
}
