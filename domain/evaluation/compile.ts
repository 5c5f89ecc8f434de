// Compiling the client-API flags once (per revision) into what evaluation walks: tests per strategy, constraint
// and segment, variant weight lines, dependencies linked to their parents.
import { hostname as osHostname } from 'node:os';
import type { components } from '../../generated/api.js';
import { compileConstraint, type CompiledConstraint, type ContextTest } from './constraints.js';
import { compileStrategyTest, userShareOf, type UserShare } from './strategies.js';
import { compileVariants, type CompiledVariants } from './variants.js';

type ClientFeature = components['schemas']['ClientFeature'];
type ClientStrategy = components['schemas']['ClientStrategy'];
type ClientSegment = components['schemas']['ClientSegment'];
type Dependency = components['schemas']['Dependency'];

/** A strategy as the client API serves it; the admin side may add its id and title for the playground. */
export type StrategyInput = ClientStrategy & { id?: string; title?: string | null };

/** A flag as the client API serves it (with strategies that may carry their id). */
export type FeatureInput = Omit<ClientFeature, 'strategies'> & { strategies: StrategyInput[] };

export interface CompileOptions {
  /** What applicationHostname compares with; by default $HOSTNAME or the machine's name, as in the SDKs. */
  hostname?: string;
}

export interface CompiledSegment {
  readonly id: number;
  readonly name: string;
  readonly constraints: readonly CompiledConstraint[];
}

export interface CompiledStrategy {
  readonly source: StrategyInput;
  /** Its place in the flag's strategies. */
  readonly index: number;
  /** The strategy's own test; null for a strategy that is not built in, which never applies. */
  readonly test: ContextTest | null;
  /** The same test as a share of users, when it is one. */
  readonly share: UserShare | null;
  readonly constraints: readonly CompiledConstraint[];
  /** In the strategy's order; `segment` is undefined for an id that names no segment. */
  readonly segments: readonly { id: number; segment: CompiledSegment | undefined }[];
  /** The strategy's constraints then its segments' ones, for the plain path. */
  readonly checks: readonly ContextTest[];
  /** A segment id named no segment: the strategy never applies, as in the SDKs. */
  readonly missingSegment: boolean;
  readonly variants: CompiledVariants | null;
}

export interface CompiledDependency {
  readonly source: Dependency;
  /** Undefined when no flag has that name: the dependency is then never satisfied. */
  readonly parent: CompiledFlag | undefined;
}

export interface CompiledFlag {
  readonly name: string;
  /** Its place in `CompiledFlags.flags`: per-flag tables of the callers are arrays indexed by it. */
  readonly index: number;
  readonly source: FeatureInput;
  readonly enabled: boolean;
  readonly impressionData: boolean;
  readonly strategies: readonly CompiledStrategy[];
  readonly variants: CompiledVariants | null;
  readonly dependencies: readonly CompiledDependency[];
}

export interface CompiledFlags {
  /** In the order given. */
  readonly flags: ReadonlyMap<string, CompiledFlag>;
  /** The same, as a list (what a walk over every flag reads). */
  readonly ordered: readonly CompiledFlag[];
  readonly segments: ReadonlyMap<number, CompiledSegment>;
}

export function compileFlags(features: readonly FeatureInput[], segments: readonly ClientSegment[] = [], options: CompileOptions = {}): CompiledFlags {
  const hostname = (options.hostname ?? (process.env.HOSTNAME || osHostname() || 'undefined')).toLowerCase();
  const compiledSegments = new Map<number, CompiledSegment>();
  for (const segment of segments) {
    compiledSegments.set(segment.id, { id: segment.id, name: segment.name, constraints: segment.constraints.map(compileConstraint) });
  }

  const flags = new Map<string, CompiledFlag>();
  const dependencyLists = new Map<CompiledFlag, CompiledDependency[]>();
  for (const feature of features) {
    const dependencies: CompiledDependency[] = [];
    const flag: CompiledFlag = {
      name: feature.name,
      index: flags.size,
      source: feature,
      enabled: feature.enabled,
      impressionData: feature.impressionData,
      strategies: feature.strategies.map((strategy, index) => compileStrategy(strategy, index, feature.name, hostname, compiledSegments)),
      variants: compileVariants(feature.variants ?? [], feature.name, feature.variants?.[0]?.stickiness),
      dependencies,
    };
    flags.set(feature.name, flag);
    dependencyLists.set(flag, dependencies);
  }
  // Parents are linked once every flag exists, whatever the order.
  for (const [flag, dependencies] of dependencyLists) {
    for (const source of flag.source.dependencies ?? []) dependencies.push({ source, parent: flags.get(source.feature) });
  }
  return { flags, ordered: [...flags.values()], segments: compiledSegments };
}

function compileStrategy(strategy: StrategyInput, index: number, flagName: string, hostname: string, segments: ReadonlyMap<number, CompiledSegment>): CompiledStrategy {
  const parameters = strategy.parameters ?? {};
  const constraints = (strategy.constraints ?? []).map(compileConstraint);
  const linked = (strategy.segments ?? []).map((id) => ({ id, segment: segments.get(id) }));
  const strategyVariants = strategy.variants ?? [];
  return {
    source: strategy,
    index,
    test: compileStrategyTest(strategy.name, parameters, { flagName, hostname }),
    share: userShareOf(strategy.name, parameters, flagName),
    constraints,
    segments: linked,
    checks: [...constraints, ...linked.flatMap(({ segment }) => segment?.constraints ?? [])].map((c) => c.test),
    missingSegment: linked.some(({ segment }) => !segment),
    variants: compileVariants(strategyVariants, parameters.groupId || flagName, strategyVariants[0]?.stickiness || parameters.stickiness),
  };
}
