// Unleash's client specification (@unleash/client-specification): its files, and their states in the shape the
// client API serves today. The older files are v1 answers with fields left out; the delta files are event lists.
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { components } from '../../generated/api.js';
import type { EvaluationContext, FeatureInput } from '../../domain/evaluation/index.js';

type ClientConstraint = components['schemas']['ClientConstraint'];
type ClientSegment = components['schemas']['ClientSegment'];

/** What the spec files hold, as loosely as they hold it. */
type Loose<T> = Partial<T> & Record<string, unknown>;
type SpecConstraint = Loose<ClientConstraint>;
type SpecStrategy = Loose<{ name: string; parameters: Record<string, string>; constraints: SpecConstraint[]; variants: unknown[]; segments: number[] }>;
type SpecFeature = Loose<Omit<FeatureInput, 'strategies'>> & { name: string; strategies?: SpecStrategy[] };
type SpecSegment = { id: number; name?: string; constraints?: SpecConstraint[] };

type SpecEvent =
  | { type: 'hydration'; features: SpecFeature[]; segments?: SpecSegment[] }
  | { type: 'feature-updated'; feature: SpecFeature }
  | { type: 'feature-removed'; featureName: string }
  | { type: 'segment-updated'; segment: SpecSegment }
  | { type: 'segment-removed'; segmentId: number };

interface SpecState {
  features?: SpecFeature[];
  segments?: SpecSegment[];
  events?: SpecEvent[];
}

export interface SpecTest<Expected> {
  description: string;
  context: EvaluationContext;
  toggleName: string;
  expectedResult: Expected;
}

export interface ExpectedVariant {
  name: string;
  enabled: boolean;
  payload?: { type: string; value: string };
  feature_enabled?: boolean;
  featureEnabled?: boolean;
}

export interface SpecFile {
  name: string;
  state: SpecState;
  tests?: SpecTest<boolean>[];
  variantTests?: SpecTest<ExpectedVariant>[];
}

const folder = path.join(path.dirname(createRequire(import.meta.url).resolve('@unleash/client-specification/package.json')), 'specifications');

/** Every file the package's index lists, in its order. */
export function specFiles(): { file: string; spec: SpecFile }[] {
  const index = JSON.parse(readFileSync(path.join(folder, 'index.json'), 'utf8')) as string[];
  return index.map((file) => ({ file, spec: JSON.parse(readFileSync(path.join(folder, file), 'utf8')) as SpecFile }));
}

function constraint(c: SpecConstraint): ClientConstraint {
  return {
    contextName: c.contextName ?? '',
    // Kept as given: unknown operators (and IN_CIDR, not in the contract yet) are part of what is tested.
    operator: c.operator as ClientConstraint['operator'],
    values: c.values ?? [],
    ...(c.value !== undefined ? { value: c.value } : {}),
    caseInsensitive: c.caseInsensitive ?? false,
    inverted: c.inverted ?? false,
  };
}

function feature(f: SpecFeature): FeatureInput {
  const strategies = (f.strategies ?? []).map((s) => ({
    name: s.name ?? '',
    parameters: s.parameters ?? {},
    constraints: (s.constraints ?? []).map(constraint),
    variants: (s.variants ?? []) as FeatureInput['strategies'][number]['variants'],
    ...(s.segments ? { segments: s.segments } : {}),
  }));
  return {
    name: f.name,
    type: f.type ?? 'release',
    enabled: f.enabled ?? false,
    stale: f.stale ?? false,
    project: f.project ?? 'default',
    description: f.description ?? null,
    impressionData: f.impressionData ?? false,
    strategies,
    variants: f.variants ?? [],
    strategy: strategies[0]?.name ?? 'default',
    parameters: strategies[0]?.parameters ?? {},
    ...(f.dependencies ? { dependencies: f.dependencies } : {}),
  };
}

const segment = (s: SpecSegment): ClientSegment => ({ id: s.id, name: s.name ?? `segment-${s.id}`, constraints: (s.constraints ?? []).map(constraint) });

/** The flags and segments a state describes; a delta state's events applied in order. */
export function specState(state: SpecState): { features: FeatureInput[]; segments: ClientSegment[] } {
  const features = new Map((state.features ?? []).map((f) => [f.name, feature(f)]));
  const segments = new Map((state.segments ?? []).map((s) => [s.id, segment(s)]));
  for (const event of state.events ?? []) {
    if (event.type === 'hydration') {
      features.clear();
      segments.clear();
      for (const f of event.features) features.set(f.name, feature(f));
      for (const s of event.segments ?? []) segments.set(s.id, segment(s));
    } else if (event.type === 'feature-updated') features.set(event.feature.name, feature(event.feature));
    else if (event.type === 'feature-removed') features.delete(event.featureName);
    else if (event.type === 'segment-updated') segments.set(event.segment.id, segment(event.segment));
    else if (event.type === 'segment-removed') segments.delete(event.segmentId);
  }
  return { features: [...features.values()], segments: [...segments.values()] };
}
