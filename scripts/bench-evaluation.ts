// The evaluation engine alone: 200 flags (flexibleRollout with constraints, segments, flag and strategy variants,
// a few dependencies) compiled once, then all 200 evaluated for each of 10,000 different users.
// Run: npx tsx scripts/bench-evaluation.ts
import { pathToFileURL } from 'node:url';
import type { components } from '../generated/api.js';
import { compileFlags, evaluateAll, type EvaluationContext, type FeatureInput, type StrategyInput } from '../domain/evaluation/index.js';

type ClientConstraint = components['schemas']['ClientConstraint'];

export interface EvaluationFigures {
  flags: number;
  contexts: number;
  compileMs: number;
  evaluationsPerSecond: number;
  /** All flags for one context. */
  microsecondsPerContext: number;
  enabledShare: number;
}

const constraint = (contextName: string, operator: ClientConstraint['operator'], values: string[], value?: string): ClientConstraint => ({
  contextName,
  operator,
  values,
  ...(value === undefined ? {} : { value }),
  caseInsensitive: false,
  inverted: false,
});

const variants = (names: string[]) => names.map((name, i) => ({ name, weight: Math.floor(1000 / names.length) + (i === 0 ? 1000 % names.length : 0), stickiness: 'default' }));

function strategiesOf(i: number, name: string): StrategyInput[] {
  const rollout = (percent: number) => ({ rollout: String(percent), stickiness: 'default', groupId: name });
  switch (i % 4) {
    case 0:
      return [{ name: 'flexibleRollout', parameters: rollout(50), constraints: [constraint('environment', 'IN', ['production', 'staging'])], variants: [] }];
    case 1:
      return [
        {
          name: 'flexibleRollout',
          parameters: rollout(100),
          constraints: [constraint('plan', 'STR_STARTS_WITH', ['pro', 'enterprise']), constraint('seats', 'NUM_GT', [], '5')],
          variants: variants(['blue', 'green']),
        },
      ];
    case 2:
      return [
        { name: 'userWithId', parameters: { userIds: 'user-1, user-2, user-3' }, constraints: [], variants: [] },
        { name: 'flexibleRollout', parameters: rollout(30), constraints: [constraint('version', 'SEMVER_GT', [], '1.4.0')], variants: [], segments: [1] },
      ];
    default:
      return [
        {
          name: 'flexibleRollout',
          parameters: rollout(80),
          constraints: [constraint('email', 'REGEX', [], '@example\\.(com|org)$'), constraint('currentTime', 'DATE_AFTER', [], '2024-01-01T00:00:00Z')],
          variants: [],
        },
      ];
  }
}

export function benchFlags(count = 200): FeatureInput[] {
  return Array.from({ length: count }, (_, i) => {
    const name = `bench.flag-${String(i).padStart(3, '0')}`;
    const strategies = strategiesOf(i, name);
    return {
      name,
      type: 'release',
      enabled: i % 10 !== 9,
      stale: false,
      project: 'default',
      description: null,
      impressionData: i % 7 === 0,
      strategies,
      variants: i % 3 === 0 ? variants(['control', 'treatment-a', 'treatment-b']).map((v, j) => (j === 1 ? { ...v, overrides: [{ contextName: 'userId', values: ['user-7'] }] } : v)) : [],
      strategy: strategies[0]?.name ?? 'default',
      parameters: strategies[0]?.parameters ?? {},
      ...(i % 20 === 5 ? { dependencies: [{ feature: `bench.flag-${String(i - 1).padStart(3, '0')}`, enabled: true }] } : {}),
    };
  });
}

const benchSegments = [{ id: 1, name: 'internal', constraints: [constraint('appName', 'IN', ['web', 'ios'])] }];

function contextOf(i: number): EvaluationContext {
  return {
    userId: `user-${i}`,
    sessionId: `session-${i % 977}`,
    environment: i % 5 === 0 ? 'development' : 'production',
    appName: i % 2 === 0 ? 'web' : 'android',
    properties: {
      plan: ['free', 'pro', 'enterprise'][i % 3],
      seats: String(i % 40),
      version: `1.${i % 9}.${i % 4}`,
      email: `person${i}@example.${i % 2 === 0 ? 'com' : 'net'}`,
    },
  };
}

export function measureEvaluation(flagCount = 200, contextCount = 10_000): EvaluationFigures {
  const features = benchFlags(flagCount);
  const compileStart = performance.now();
  const compiled = compileFlags(features, benchSegments);
  const compileMs = performance.now() - compileStart;
  const contexts = Array.from({ length: contextCount }, (_, i) => contextOf(i));

  for (let i = 0; i < 1000; i++) evaluateAll(compiled, contexts[i % contextCount] as EvaluationContext); // warm-up
  let enabled = 0;
  const start = performance.now();
  for (const context of contexts) {
    for (const answer of evaluateAll(compiled, context)) if (answer.enabled) enabled++;
  }
  const seconds = (performance.now() - start) / 1000;
  const evaluations = flagCount * contextCount;
  return {
    flags: flagCount,
    contexts: contextCount,
    compileMs: Math.round(compileMs * 10) / 10,
    evaluationsPerSecond: Math.round(evaluations / seconds),
    microsecondsPerContext: Math.round((seconds / contextCount) * 1e6 * 10) / 10,
    enabledShare: Math.round((enabled / evaluations) * 100) / 100,
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const figures = measureEvaluation();
  console.log(
    `evaluation: ${figures.flags} flags compiled in ${figures.compileMs} ms; ${figures.contexts} contexts × ${figures.flags} flags: ` +
      `${figures.evaluationsPerSecond.toLocaleString('en')} evaluations/s, ${figures.microsecondsPerContext} µs for all flags of one context ` +
      `(${Math.round(figures.enabledShare * 100)}% enabled)`,
  );
}
