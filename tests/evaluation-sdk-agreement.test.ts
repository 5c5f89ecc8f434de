import { createRequire } from 'node:module';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import type { components } from '../generated/api.js';
import { compileFlags, evaluate, type EvaluationContext, type FeatureInput } from '../domain/evaluation/index.js';
import { FlagOutcomes } from '../domain/evaluation/outcomes.js';

// Beyond the specification's examples: the engine and the Node SDK's own client.js, given the same random
// flags (every built-in strategy, every operator, segments, both kinds of variants, overrides, dependencies)
// and the same contexts, give the same answers. Contexts always carry what stickiness reads, so nothing is
// left to chance and the answers are comparable.

type ClientSegment = components['schemas']['ClientSegment'];

// The SDK's internals, loaded as Node loads them (the bundler's CommonJS interop disagrees with tsc's on `default`).
const load = createRequire(import.meta.url);
const { default: SdkClient } = load('unleash-client/lib/client.js') as typeof import('unleash-client/lib/client.js');
const { defaultStrategies } = load('unleash-client/lib/strategy/index.js') as typeof import('unleash-client/lib/strategy/index.js');

let state = 20240611;
const random = () => (state = (state * 1103515245 + 12345) % 2147483648) / 2147483648;
const pick = <T>(list: readonly T[]): T => list[Math.floor(random() * list.length)] as T;
const some = <T>(make: () => T, counts: readonly number[]) => Array.from({ length: pick(counts) }, make);

const operators: Record<string, () => { contextName: string; values?: string[]; value?: string; caseInsensitive?: boolean }> = {
  IN: () => ({ contextName: pick(['userId', 'environment', 'f1', 'f2']), values: [pick(['a', 'b', 'u1', ' c']), pick(['e1', 'x'])] }),
  NOT_IN: () => ({ contextName: pick(['environment', 'f2']), values: [pick(['e1', 'c', ''])] }),
  STR_CONTAINS: () => ({ contextName: pick(['f1', 'appName']), values: some(() => pick(['a', 'B', '1']), [1, 2]), caseInsensitive: random() < 0.5 }),
  STR_STARTS_WITH: () => ({ contextName: 'f1', values: [pick(['a', 'B', '1'])], caseInsensitive: random() < 0.5 }),
  STR_ENDS_WITH: () => ({ contextName: pick(['userId', 'f1']), values: ['1', '2'], caseInsensitive: random() < 0.5 }),
  NUM_EQ: () => ({ contextName: 'f1', value: pick(['0', '12', '2.5']) }),
  NUM_GT: () => ({ contextName: pick(['f1', 'f2']), value: pick(['1', '5', 'x']) }),
  NUM_GTE: () => ({ contextName: pick(['f1', 'f2']), value: pick(['2.5', '3', '12', '-1', 'x']) }),
  NUM_LT: () => ({ contextName: pick(['f1', 'f2']), value: pick(['2.5', '3', '12', '0']) }),
  NUM_LTE: () => ({ contextName: 'f2', value: pick(['3', '10']) }),
  DATE_AFTER: () => ({ contextName: 'currentTime', value: pick(['2022-01-01T00:00:00Z', '2030-01-01T00:00:00+02:00']) }),
  DATE_BEFORE: () => ({ contextName: 'currentTime', value: pick(['2022-01-01T00:00:00Z', '2030-01-01T00:00:00Z', 'soon']) }),
  SEMVER_EQ: () => ({ contextName: 'version', value: pick(['1.2.3', 'v1.2.3']) }),
  SEMVER_GT: () => ({ contextName: 'version', value: pick(['1.2.3', '2.0.0-alpha', 'bad']) }),
  SEMVER_GTE: () => ({ contextName: 'version', value: pick(['1.2.3', '1.2.4', '2.0.0-beta.1', 'v1.2.4', 'bad']) }),
  SEMVER_LT: () => ({ contextName: 'version', value: pick(['1.2.4', '2.0.0-beta.1', '2.0.0', 'v1.2.3']) }),
  SEMVER_LTE: () => ({ contextName: 'version', value: pick(['1.2.3', '2.0.0-beta.2']) }),
  REGEX: () => ({ contextName: pick(['userId', 'f1']), value: pick(['^u', '\\d$', '(bad', '(?i)^A', '^(?=a)']), caseInsensitive: random() < 0.5 }),
  IN_CIDR: () => ({ contextName: 'remoteAddress', values: some(() => pick(['10.0.0.0/8', '10.1.2.3', 'bad', '2001:db8::/32']), [1, 2]) }),
  NOT_AN_OPERATOR: () => ({ contextName: 'f1', value: 'a' }),
};

const randomConstraint = (operator = pick(Object.keys(operators))) => {
  return { values: [], caseInsensitive: false, inverted: random() < 0.25, operator, ...operators[operator]!() };
};

// userId may be missing from a context, so no variant is sticky on it (that would pick at random).
const variants = (count: number, stickiness: string | undefined, overrides: boolean) =>
  Array.from({ length: count }, (_, i) => ({
    name: `v${i}`,
    weight: pick([0, 1, 50, 100, 250, 500]),
    ...(stickiness ? { stickiness } : {}),
    ...(random() < 0.5 ? { payload: { type: 'string' as const, value: `p${i}` } } : {}),
    ...(overrides && random() < 0.3 ? { overrides: [{ contextName: pick(['userId', 'f1']), values: ['u1', 'b'] }] } : {}),
  }));

// The host both evaluate on, as both read it; listed in another case so that its comparison is case-insensitive.
const host = (process.env.HOSTNAME || hostname()).toUpperCase();
// Random stickiness only where the rollout decides alone (0 or 100); a missing stickiness or groupId takes the default.
const randomRollout = (flagName: string) => {
  const percent = pick(['0', '10', '50', '100', '100']);
  const stickiness = pick(['default', 'userId', 'sessionId', 'f1', undefined, ...(percent === '0' || percent === '100' ? ['random'] : [])]);
  return { rollout: percent, ...(stickiness ? { stickiness } : {}), groupId: pick([flagName, 'shared']) };
};

function randomStrategy(flagName: string) {
  const name = pick(['flexibleRollout', 'flexibleRollout', 'default', 'userWithId', 'gradualRolloutUserId', 'gradualRolloutSessionId', 'remoteAddress', 'applicationHostname', 'custom']);
  const parameters: Record<string, string> = {
    flexibleRollout: randomRollout(flagName),
    userWithId: { userIds: pick(['u1, u2,u3', 'u4', '']) },
    gradualRolloutUserId: { percentage: pick(['0', '30', '100']), ...(random() < 0.7 ? { groupId: flagName } : {}) },
    gradualRolloutSessionId: { percentage: pick(['20', '70']), ...(random() < 0.5 ? { groupId: 'shared' } : {}) },
    remoteAddress: { IPs: pick(['10.0.0.0/8, 1.2.3.4', '192.168.1.1,bad', '2001:db8::1']) },
    applicationHostname: { hostNames: pick(['not-this-host', `other-host, ${host}`, '']) },
  }[name] ?? {};
  return {
    name,
    parameters,
    constraints: some(randomConstraint, [0, 1, 1, 2]),
    // Variants without a stickiness take the rollout's, which must not be random.
    variants: name === 'flexibleRollout' && random() < 0.5 ? variants(pick([1, 2, 3]), pick([...(parameters.stickiness === 'random' ? [] : [undefined]), 'sessionId', 'f1']), false) : [],
    ...(random() < 0.3 ? { segments: [pick([1, 2, 3, 404])] } : {}),
  };
}

const names = Array.from({ length: 200 }, (_, i) => `flag-${i}`);
const features: FeatureInput[] = names.map((name, i) => {
  const strategies = some(() => randomStrategy(name), [0, 1, 1, 1, 2, 3]);
  const parent = i > 4 && random() < 0.25 ? pick([...names.slice(0, i), 'no-such-flag']) : undefined;
  return {
    name,
    type: 'release',
    enabled: random() < 0.85,
    stale: false,
    project: 'default',
    description: null,
    impressionData: false,
    strategies,
    variants: random() < 0.6 ? variants(pick([1, 2, 3, 4]), pick([undefined, 'default', 'sessionId', 'f1']), true) : [],
    strategy: strategies[0]?.name ?? 'default',
    parameters: strategies[0]?.parameters ?? {},
    ...(parent ? { dependencies: [{ feature: parent, ...(random() < 0.3 ? { enabled: false } : {}), ...(random() < 0.3 ? { variants: ['v0', 'disabled'] } : {}) }] } : {}),
  } as FeatureInput;
});
const segments: ClientSegment[] = [1, 2, 3].map((id) => ({ id, name: `segment-${id}`, constraints: some(randomConstraint, [0, 1, 2]) as ClientSegment['constraints'] }));
// Each operator also alone, in flags whose only strategy is `default` with one constraint, so that no other
// strategy, constraint or segment hides its answer (boundaries such as NUM_GTE at the context's own value).
const operatorFlags = Object.keys(operators).flatMap((operator) =>
  Array.from({ length: 8 }, (_, i) => {
    const strategies = [{ name: 'default', parameters: {}, constraints: [randomConstraint(operator)], variants: [] }];
    return { name: `${operator}-${i}`, type: 'release', enabled: true, stale: false, project: 'default', description: null, impressionData: false, strategies, variants: [], strategy: 'default', parameters: {} } as FeatureInput;
  }),
);
const allFeatures = [...features, ...operatorFlags];

function context(): EvaluationContext {
  const withUser = random() < 0.7;
  return {
    ...(withUser ? { userId: pick(['u1', 'u2', `u${Math.floor(random() * 1000)}`]) } : {}),
    sessionId: `s${Math.floor(random() * 1000)}`,
    ...(random() < 0.5 ? { remoteAddress: pick(['10.1.2.3', '1.2.3.4', '192.168.1.1', '2001:db8::1', 'bad']) } : {}),
    ...(random() < 0.5 ? { environment: pick(['e1', 'e2']) } : {}),
    ...(random() < 0.5 ? { appName: pick(['a', 'Ba']) } : {}),
    ...(random() < 0.5 ? { currentTime: pick(['2025-01-01T00:00:00Z', '2021-06-01T00:00:00Z']) } : {}),
    properties: {
      f1: pick(['a', 'b', 'B1', '12', '2.5', 'u1']),
      ...(random() < 0.5 ? { f2: pick(['c', '3', 'x', '']) } : {}),
      ...(random() < 0.5 ? { version: pick(['1.2.3', '1.2.4', 'v1.2.3', '2.0.0-beta.1', 'bad']) } : {}),
    },
  };
}

/**
 * Where the engine and the SDK disagree on the flags for the contexts, and how many answers were on; both ways of the
 * engine are compared: one flag at a time, and every flag at once (FlagOutcomes, for the flags it decides itself).
 */
function compare(flags: FeatureInput[], contexts: EvaluationContext[]) {
  // Compiled here, in the test, so that a compiler that throws fails it (mutation testing counts only failed tests).
  const compiled = compileFlags(flags, segments);
  const outcomes = new FlagOutcomes(compiled);
  const slots = new Int32Array(flags.length);
  let decidedAtOnce = 0;
  const client = new SdkClient(
    { getToggle: (name: string) => flags.find((f) => f.name === name), getSegment: (id: number) => segments.find((s) => s.id === id) } as never,
    defaultStrategies,
  );
  client.on('warn', () => {});
  const differences: string[] = [];
  let enabled = 0;
  for (const ctx of contexts) {
    const decided = outcomes.decideAll(ctx, slots);
    for (const [index, { name }] of flags.entries()) {
      const ours = evaluate(compiled, name, ctx);
      const sdkEnabled = client.isEnabled(name, ctx as never, () => false);
      const sdkVariant = client.getVariant(name, ctx as never);
      const theirs = JSON.stringify({ enabled: sdkEnabled, name: sdkVariant.name, on: sdkVariant.enabled, payload: sdkVariant.payload, flag: sdkVariant.feature_enabled });
      const mine = JSON.stringify({ enabled: ours.enabled, name: ours.variant.name, on: ours.variant.enabled, payload: ours.variant.payload, flag: ours.variant.feature_enabled });
      if (mine !== theirs) differences.push(`${name} ${JSON.stringify(ctx)}: ${mine} ≠ ${theirs}`);
      if (ours.enabled) enabled++;
      if (!decided || slots[index]! < 0) continue;
      decidedAtOnce++;
      const variant = outcomes.variantOf(slots[index]!);
      const atOnce = JSON.stringify({ enabled: variant.feature_enabled, name: variant.name, on: variant.enabled, payload: variant.payload, flag: variant.feature_enabled });
      if (atOnce !== theirs) differences.push(`${name} at once ${JSON.stringify(ctx)}: ${atOnce} ≠ ${theirs}`);
    }
  }
  return { differences: differences.slice(0, 5), enabled, decidedAtOnce };
}

describe('agreement with the Node SDK', () => {
  it('gives every flag the same enabled state and variant for 400 random contexts', () => {
    const contexts = Array.from({ length: 400 }, context);
    const { differences, enabled } = compare(allFeatures, contexts);
    expect(differences).toEqual([]);
    // Both outcomes are well represented, so the agreement means something.
    expect(enabled).toBeGreaterThan(contexts.length * allFeatures.length * 0.15);
    expect(enabled).toBeLessThan(contexts.length * allFeatures.length * 0.85);
  });

  it('decides the common flags at once as the SDK does: one rollout or default strategy over shared constraints and segments, variants sticky on the userId', () => {
    // Strategy variants only on rollouts: the SDK hashes them with the strategy's groupId, which `default` lacks.
    const rolloutStrategy = (flagName: string) => ({
      name: 'flexibleRollout',
      parameters: { rollout: pick(['0', '0.5', '10', '33.5', '50', '100', '150', 'x']), ...(random() < 0.5 ? { stickiness: pick(['default', 'userId']) } : {}), groupId: pick([flagName, 'shared']) },
      variants: random() < 0.4 ? variants(pick([1, 2, 3]), pick([undefined, 'default', 'userId']), false) : [],
    });
    const commonStrategy = (flagName: string) => ({
      ...(random() < 0.7 ? rolloutStrategy(flagName) : { name: 'default', parameters: {}, variants: [] }),
      // Constraints drawn from a few, so that flags share them.
      constraints: some(() => pick(sharedConstraints), [0, 1, 1, 2]),
      ...(random() < 0.3 ? { segments: [pick([1, 2, 3])] } : {}),
    });
    const sharedConstraints = Array.from({ length: 6 }, () => randomConstraint(pick(['IN', 'NOT_IN', 'STR_CONTAINS', 'NUM_GT', 'SEMVER_GTE'])));
    const flags = Array.from({ length: 120 }, (_, i) => {
      const name = `common-${i}`;
      const strategies = random() < 0.15 ? [] : [commonStrategy(name)];
      return {
        ...allFeatures[0]!,
        name,
        enabled: random() < 0.9,
        strategies,
        dependencies: [],
        variants: random() < 0.5 ? variants(pick([1, 2, 3, 4]), pick([undefined, 'default', 'userId']), false) : [],
      } as FeatureInput;
    });
    const contexts = Array.from({ length: 300 }, () => ({ ...context(), userId: `user-${Math.floor(random() * 100000)}` }));
    const { differences, enabled, decidedAtOnce } = compare(flags, contexts);
    expect(differences).toEqual([]);
    expect(decidedAtOnce).toBe(flags.length * contexts.length);
    expect(enabled).toBeGreaterThan(flags.length * contexts.length * 0.15);
    expect(enabled).toBeLessThan(flags.length * contexts.length * 0.85);
  });

  it('picks the same variant by remoteAddress for contexts without userId and sessionId', () => {
    // Flags without strategies, so that only the variants' default stickiness reads the context.
    const flags = Array.from({ length: 20 }, (_, i) => ({
      ...allFeatures[0]!,
      name: `by-address-${i}`,
      enabled: true,
      strategies: [],
      variants: variants(pick([2, 3, 4]), pick([undefined, 'default']), false),
      dependencies: [],
    }));
    const contexts = Array.from({ length: 100 }, () => ({ remoteAddress: `10.0.${Math.floor(random() * 256)}.${Math.floor(random() * 256)}`, properties: {} }));
    const { differences } = compare(flags, contexts);
    expect(differences).toEqual([]);
  });

  it('puts ids of any length and any characters in the same rollout bucket and variant', () => {
    // Group ids of every length modulo 4 (the hash works in 4-byte blocks), ids from empty-ish to long, with
    // characters past Latin-1 and lone surrogates: the SDK hashes the low byte of each UTF-16 code unit.
    const characters = ['a', 'Z', '9', ':', 'é', 'ß', '€', '中', '😀', '\ud800', ' '];
    const id = () => Array.from({ length: 1 + Math.floor(random() * 23) }, () => pick(characters)).join('');
    const flags = ['g', 'gr', 'gro', 'grou', 'group', 'groupé', 'группа'].map((groupId, i) => ({
      ...allFeatures[0]!,
      name: `buckets-${i}`,
      enabled: true,
      dependencies: [],
      strategies: [{ name: 'flexibleRollout', parameters: { rollout: '50', stickiness: 'userId', groupId }, constraints: [], variants: variants(3, 'userId', false) }],
      variants: [],
    })) as FeatureInput[];
    const contexts = Array.from({ length: 300 }, () => ({ userId: id(), properties: {} }));
    const { differences, enabled } = compare(flags, contexts);
    expect(differences).toEqual([]);
    expect(enabled).toBeGreaterThan(flags.length * contexts.length * 0.3);
    expect(enabled).toBeLessThan(flags.length * contexts.length * 0.7);
  });

  it('picks the same variant on weight lines of any length, up to and past 2^16', () => {
    const totals = [1, 7, 999, 1000, 46340, 46341, 65536, 100000, 2 ** 31 - 1];
    const flags = totals.map((total, i) => ({
      ...allFeatures[0]!,
      name: `weights-${i}`,
      enabled: true,
      strategies: [],
      dependencies: [],
      variants: [Math.floor(total / 3), total - Math.floor(total / 3)].map((weight, v) => ({ name: `v${v}`, weight, stickiness: 'userId' })),
    })) as FeatureInput[];
    const contexts = Array.from({ length: 300 }, (_, i) => ({ userId: `user-${i * 7919}`, properties: {} }));
    const { differences } = compare(flags, contexts);
    expect(differences).toEqual([]);
  });

  it('lets IN_CIDR match an address in any one of its ranges', () => {
    const lists = [['10.0.0.0/8', '2001:db8::/32'], ['1.2.3.4', '10.0.0.0/8'], ['bad', '10.1.2.3'], ['192.168.0.0/16', '10.0.0.0/8', '1.2.3.4']];
    const flags = lists.map((values, i) => {
      const cidr = { contextName: 'remoteAddress', operator: 'IN_CIDR' as string, values, caseInsensitive: false, inverted: false };
      return { ...operatorFlags[0]!, name: `cidr-${i}`, strategies: [{ name: 'default', parameters: {}, constraints: [cidr], variants: [] }] } as FeatureInput;
    });
    const contexts = ['10.1.2.3', '1.2.3.4', '2001:db8::1', '192.168.1.1'].map((remoteAddress) => ({ remoteAddress, sessionId: 's1' }));
    const { differences, enabled } = compare(flags, contexts);
    expect(differences).toEqual([]);
    expect(enabled).toBe(8);
  });
});
