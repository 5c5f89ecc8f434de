// The answer of /api/client/features for one request shape, built from a snapshot.
import { byFlagName, type ClientConstraint, type ClientStrategy, type FlagRecord, type Snapshot } from './snapshot.js';

/** Everything that decides the answer: two requests of the same shape get the same bytes. */
export interface Shape {
  environment: string;
  /** null: every project. */
  projects: string[] | null;
  /** `type:value` pairs, OR-ed; null: no tag filter. A malformed tag is kept so that it matches nothing. */
  tags: string[] | null;
  namePrefix: string | null;
  /** True for SDKs older than client spec 4.2.0: segment constraints are copied into each strategy. */
  inlineSegments: boolean;
}

export function shapeKey(shape: Shape): string {
  // A separator no name can hold keeps the parts apart.
  const SEP = '\u0000';
  return [shape.environment, shape.projects?.join(SEP + SEP) ?? '*', shape.tags?.join(SEP + SEP) ?? '*', shape.namePrefix ?? '', shape.inlineSegments ? 'i' : 's'].join(SEP);
}

/** Whether the shape's projects, name prefix and tags let `flag` through. */
export function visible(flag: FlagRecord, shape: Shape): boolean {
  if (shape.projects && !shape.projects.includes(flag.project)) return false;
  if (shape.namePrefix !== null && !flag.name.startsWith(shape.namePrefix)) return false;
  if (shape.tags && !shape.tags.some((tag) => flag.tags.has(tag))) return false;
  return true;
}

function clientStrategy(strategy: ClientStrategy, snapshot: Snapshot, inlineSegments: boolean) {
  const base = { name: strategy.name, constraints: strategy.constraints, parameters: strategy.parameters, variants: strategy.variants };
  if (!inlineSegments) return { ...base, segments: strategy.segments };
  const segmentConstraints: ClientConstraint[] = strategy.segments.flatMap((id) => snapshot.segments.get(id)?.constraints ?? []);
  return segmentConstraints.length > 0 ? { ...base, constraints: [...strategy.constraints, ...segmentConstraints] } : base;
}

/** One flag in the client shape for an environment. */
export function clientFeature(flag: FlagRecord, snapshot: Snapshot, environment: string, inlineSegments: boolean) {
  const state = flag.environments.get(environment);
  const strategies = (state?.strategies ?? []).map((s) => clientStrategy(s, snapshot, inlineSegments));
  const first = strategies[0];
  return {
    name: flag.name,
    type: flag.type,
    enabled: state?.enabled ?? false,
    stale: flag.stale,
    project: flag.project,
    description: flag.description,
    impressionData: flag.impressionData,
    strategies,
    variants: state?.variants ?? [],
    strategy: first?.name ?? 'default',
    parameters: first?.parameters ?? {},
    ...(flag.dependencies.length > 0 && { dependencies: flag.dependencies }),
  };
}

export function clientFeatures(snapshot: Snapshot, shape: Shape) {
  const flags = [...snapshot.flags.values()].filter((flag) => visible(flag, shape)).sort(byFlagName);
  const features = flags.map((flag) => clientFeature(flag, snapshot, shape.environment, shape.inlineSegments));
  if (shape.inlineSegments) return { version: 1, features };
  const used = new Set(flags.flatMap((flag) => (flag.environments.get(shape.environment)?.strategies ?? []).flatMap((s) => s.segments)));
  const segments = [...used].sort((a, b) => a - b).flatMap((id) => snapshot.segments.get(id) ?? []);
  return { version: 1, features, segments };
}
