import { describe, expect, it } from 'vitest';
import type { components } from '../generated/api.js';
import { compileFlags, evaluate, explain, type FeatureInput, type StrategyInput } from '../domain/evaluation/index.js';
import { specFiles, specState } from './support/client-specification.js';

// The playground's view of an evaluation: every strategy, constraint and segment with its own result.

type ClientConstraint = components['schemas']['ClientConstraint'];

const constraint = (contextName: string, operator: ClientConstraint['operator'], values: string[], extra: Partial<ClientConstraint> = {}): ClientConstraint => ({
  contextName,
  operator,
  values,
  caseInsensitive: false,
  inverted: false,
  ...extra,
});

const strategy = (name: string, extra: Partial<StrategyInput> = {}): StrategyInput => ({ name, parameters: {}, constraints: [], variants: [], ...extra });

const flag = (name: string, extra: Partial<FeatureInput> = {}): FeatureInput => ({
  name,
  type: 'release',
  enabled: true,
  stale: false,
  project: 'default',
  description: null,
  impressionData: false,
  strategies: [strategy('default')],
  variants: [],
  strategy: 'default',
  parameters: {},
  ...extra,
});

const segments = [
  { id: 1, name: 'beta-testers', constraints: [constraint('userId', 'IN', ['u1', 'u2'])] },
  { id: 2, name: 'norway', constraints: [constraint('country', 'IN', ['no']), constraint('appName', 'STR_STARTS_WITH', ['web'])] },
];

describe('explain', () => {
  it('gives every constraint its own result, also after one has failed', () => {
    const compiled = compileFlags([
      flag('checkout', {
        strategies: [strategy('default', { id: 's-1', constraints: [constraint('environment', 'IN', ['production']), constraint('userId', 'IN', ['u1'])] })],
      }),
    ]);
    const explained = explain(compiled, 'checkout', { environment: 'staging', userId: 'u1' });
    const [only] = explained?.strategies.data ?? [];
    expect(only?.id).toBe('s-1');
    expect(only?.constraints.map((c) => [c.contextName, c.result])).toEqual([
      ['environment', false],
      ['userId', true],
    ]);
    expect(only?.result).toEqual({ evaluationStatus: 'complete', enabled: false });
    expect(explained?.isEnabled).toBe(false);
  });

  it('gives an inverted constraint the inverted result', () => {
    const compiled = compileFlags([flag('checkout', { strategies: [strategy('default', { constraints: [constraint('userId', 'IN', ['u1'], { inverted: true })] })] })]);
    expect(explain(compiled, 'checkout', { userId: 'u1' })?.strategies.data[0]?.constraints[0]?.result).toBe(false);
    expect(explain(compiled, 'checkout', { userId: 'u9' })?.strategies.data[0]?.constraints[0]?.result).toBe(true);
  });

  it('gives every segment its result and its constraints theirs, and an unknown segment false', () => {
    const compiled = compileFlags([flag('checkout', { strategies: [strategy('default', { segments: [1, 2, 404] })] })], segments);
    const explained = explain(compiled, 'checkout', { userId: 'u2', appName: 'webshop', properties: { country: 'se' } });
    expect(explained?.strategies.data[0]?.segments).toEqual([
      { id: 1, name: 'beta-testers', result: true, constraints: [{ ...segments[0]!.constraints[0], result: true }] },
      {
        id: 2,
        name: 'norway',
        result: false,
        constraints: [
          { ...segments[1]!.constraints[0], result: false },
          { ...segments[1]!.constraints[1], result: true },
        ],
      },
      { id: 404, name: '', result: false, constraints: [] },
    ]);
    expect(explained?.strategies.result).toBe(false);
  });

  it('shows a custom strategy as unknown when its constraints hold, and the flag off', () => {
    const compiled = compileFlags([flag('checkout', { strategies: [strategy('my-custom', { parameters: { tier: 'gold' }, constraints: [constraint('userId', 'IN', ['u1'])] })] })]);
    const holding = explain(compiled, 'checkout', { userId: 'u1' });
    expect(holding?.strategies.data[0]).toMatchObject({ name: 'my-custom', parameters: { tier: 'gold' }, result: { evaluationStatus: 'incomplete', enabled: 'unknown' } });
    expect(holding?.strategies.result).toBe('unknown');
    expect(holding?.isEnabled).toBe(false);
    expect(evaluate(compiled, 'checkout', { userId: 'u1' }).enabled).toBe(false);
  });

  it('shows a custom strategy as false when its constraints fail', () => {
    const compiled = compileFlags([flag('checkout', { strategies: [strategy('my-custom', { constraints: [constraint('userId', 'IN', ['u1'])] })] })]);
    const failing = explain(compiled, 'checkout', { userId: 'u2' });
    expect(failing?.strategies.data[0]?.result).toEqual({ evaluationStatus: 'incomplete', enabled: false });
    expect(failing?.strategies.result).toBe(false);
  });

  it('marks an unmet dependency, and the flag off although its strategy applies', () => {
    const compiled = compileFlags([
      flag('parent', { enabled: false }),
      flag('child', { dependencies: [{ feature: 'parent', enabled: true }, { feature: 'gone', enabled: false }] }),
    ]);
    const explained = explain(compiled, 'child', {});
    expect(explained?.dependencies).toEqual([
      { feature: 'parent', enabled: true, satisfied: false },
      { feature: 'gone', enabled: false, satisfied: false },
    ]);
    expect(explained?.hasUnsatisfiedDependency).toBe(true);
    expect(explained?.strategies.result).toBe(true);
    expect(explained?.isEnabled).toBe(false);
    expect(explained?.variant).toMatchObject({ name: 'disabled', feature_enabled: false });
  });

  it('evaluates the strategies of a flag that is off in the environment', () => {
    const compiled = compileFlags([flag('checkout', { enabled: false })]);
    const explained = explain(compiled, 'checkout', {});
    expect(explained).toMatchObject({ isEnabled: false, isEnabledInCurrentEnvironment: false, strategies: { result: true } });
    expect(explained?.strategies.data[0]?.result).toEqual({ evaluationStatus: 'complete', enabled: true });
  });

  it('shows the strategy variant on the strategy that chose it and as the flag variant', () => {
    const payload = { type: 'string' as const, value: 'blue' };
    const compiled = compileFlags([
      flag('checkout', {
        strategies: [
          strategy('flexibleRollout', { parameters: { rollout: '100', stickiness: 'default', groupId: 'checkout' }, variants: [{ name: 'blue', weight: 1000, payload }] }),
        ],
        variants: [{ name: 'flag-level', weight: 1000 }],
      }),
    ]);
    const explained = explain(compiled, 'checkout', { userId: 'u1' });
    const chosen = { name: 'blue', enabled: true, payload, feature_enabled: true, featureEnabled: true };
    expect(explained?.strategies.data[0]?.result).toEqual({ evaluationStatus: 'complete', enabled: true, variant: chosen });
    expect(explained?.variant).toEqual(chosen);
    expect(explained?.variants).toEqual([{ name: 'flag-level', weight: 1000 }]);
  });

  it('says nothing about a flag it does not know', () => {
    expect(explain(compileFlags([]), 'nowhere', {})).toBeUndefined();
  });

  it('agrees with evaluate on every test of the client specification', () => {
    for (const { spec } of specFiles()) {
      const { features, segments } = specState(spec.state);
      const compiled = compileFlags(features, segments);
      for (const { toggleName, context } of spec.tests ?? []) {
        expect(explain(compiled, toggleName, context)?.isEnabled ?? false, `${spec.name}: ${toggleName}`).toBe(evaluate(compiled, toggleName, context).enabled);
      }
      // Variants only where the spec checks them: elsewhere a missing stickiness field picks at random.
      for (const { toggleName, context } of spec.variantTests ?? []) {
        const explained = explain(compiled, toggleName, context);
        const evaluated = evaluate(compiled, toggleName, context);
        expect({ enabled: explained?.isEnabled ?? false, variant: explained?.variant ?? evaluated.variant }, `${spec.name}: ${toggleName}`).toEqual({
          enabled: evaluated.enabled,
          variant: evaluated.variant,
        });
      }
    }
  });
});
