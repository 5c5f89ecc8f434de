// What an edge holds for one upstream scope (an environment and the projects of a client token): the flags as the
// upstream answered them, kept as a snapshot the client API, deltas, streams, frontend API and OFREP serve from.
import type { components } from '../../generated/api.js';
import { ServedSnapshots } from '../client-features/cache.js';
import type { FlagChange } from '../client-features/delta.js';
import type { ClientSegment, FlagRecord, Snapshot } from '../client-features/snapshot.js';
import { clientFeatures } from '../client-features/body.js';
import { serviceUnavailable } from '../../kernel/errors.js';

type ClientFeature = components['schemas']['ClientFeature'];
export type ClientFeatures = components['schemas']['ClientFeatures'];
export type ClientDeltaEvent = components['schemas']['ClientDeltaEvent'];

/** How long a request waits for a scope's first state before it is answered 503. */
const FIRST_STATE_WAIT_MS = 10_000;

/** Where the scope's state came from last. */
export type Origin = 'upstream' | 'cache' | 'file';

function recordOf(feature: ClientFeature, environment: string): FlagRecord {
  return {
    name: feature.name,
    project: feature.project,
    type: feature.type,
    description: feature.description ?? null,
    stale: feature.stale ?? false,
    impressionData: feature.impressionData ?? false,
    // The client API does not carry tags: a tag filter at an edge is answered by the upstream (see edge/tag-filter).
    tags: new Set(),
    environments: new Map([
      [
        environment,
        {
          enabled: feature.enabled,
          variants: feature.variants ?? [],
          strategies: (feature.strategies ?? []).map((s) => ({
            name: s.name,
            parameters: s.parameters ?? {},
            constraints: s.constraints ?? [],
            variants: s.variants ?? [],
            segments: s.segments ?? [],
          })),
        },
      ],
    ]),
    dependencies: feature.dependencies ?? [],
  };
}

const sameFlag = (a: FlagRecord | undefined, b: FlagRecord | undefined) =>
  a !== undefined && b !== undefined && JSON.stringify({ ...a, tags: null, environments: [...a.environments] }) === JSON.stringify({ ...b, tags: null, environments: [...b.environments] });

export class EdgeScope extends ServedSnapshots {
  /** When the upstream last confirmed this state (a stream event, a heartbeat, a 200 or a 304); 0 when never. */
  lastSync = 0;
  origin: Origin | undefined;
  private firstState: Promise<void>;
  private arrived!: () => void;
  private readonly listeners: (() => void)[] = [];

  constructor(
    readonly environment: string,
    /** null: every project. */
    readonly projects: string[] | null,
  ) {
    super();
    this.firstState = new Promise((resolve) => (this.arrived = resolve));
  }

  get revision(): number | undefined {
    return this.snapshot?.revision;
  }

  protected get upToDate(): boolean {
    return true;
  }

  async current(): Promise<Snapshot> {
    if (this.snapshot) return this.snapshot;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, FIRST_STATE_WAIT_MS)));
    await Promise.race([this.firstState, late]).finally(() => clearTimeout(timer));
    if (!this.snapshot) throw serviceUnavailable(`This edge has no flags for the environment "${this.environment}" yet: its upstream has not answered.`);
    return this.snapshot;
  }

  /** Called after every change of state (the edge's own SDK streams are then brought up to date). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** The whole state (a hydration, a polled answer, a cached or exported state): what changed is worked out flag by flag. */
  replaceAll(body: { features: ClientFeature[]; segments?: ClientSegment[] }, revision: number, origin: Origin): void {
    const flags = new Map(body.features.map((f) => [f.name, recordOf(f, this.environment)] as const));
    const segments = new Map((body.segments ?? []).map((s) => [s.id, s] as const));
    const previous = this.snapshot;
    let changed: Map<string, FlagChange> | 'all' = 'all';
    if (previous && JSON.stringify([...previous.segments]) === JSON.stringify([...segments])) {
      changed = new Map();
      for (const name of new Set([...previous.flags.keys(), ...flags.keys()])) {
        const before = previous.flags.get(name);
        const after = flags.get(name);
        if (sameFlag(before, after)) continue;
        changed.set(name, this.changeOf(before, after));
      }
      if (changed.size === 0 && revision <= previous.revision) return this.confirmed(origin);
    }
    this.apply({ revision: Math.max(revision, previous ? previous.revision + (changed === 'all' || changed.size > 0 ? 1 : 0) : revision), flags, segments }, changed, origin);
  }

  /** The events of an upstream delta or stream message, in order. */
  applyEvents(events: ClientDeltaEvent[], origin: Origin): void {
    for (const event of events) {
      if (event.type === 'hydration') {
        this.replaceAll({ features: event.features ?? [], segments: event.segments ?? [] }, event.eventId, origin);
        continue;
      }
      const previous = this.snapshot;
      if (!previous) continue;
      const flags = new Map(previous.flags);
      let segments = previous.segments;
      let changed: Map<string, FlagChange> | 'all' = new Map();
      if (event.type === 'feature-updated' && event.feature) {
        const after = recordOf(event.feature, this.environment);
        changed.set(after.name, this.changeOf(flags.get(after.name), after));
        flags.set(after.name, after);
      } else if (event.type === 'feature-removed' && event.featureName !== undefined) {
        const before = flags.get(event.featureName);
        changed.set(event.featureName, this.changeOf(before, undefined, event.project));
        flags.delete(event.featureName);
      } else if (event.type === 'segment-updated' && event.segment) {
        segments = new Map(segments).set(event.segment.id, event.segment);
        changed = 'all';
      } else if (event.type === 'segment-removed' && event.segmentId !== undefined) {
        segments = new Map(segments);
        segments.delete(event.segmentId);
        changed = 'all';
      }
      this.apply({ revision: Math.max(event.eventId, previous.revision), flags, segments }, changed, origin);
    }
  }

  /** The upstream confirmed the state without changing it. */
  confirmed(origin: Origin = 'upstream'): void {
    if (origin === 'upstream') this.lastSync = Date.now();
  }

  private changeOf(before: FlagRecord | undefined, after: FlagRecord | undefined, project?: string): FlagChange {
    const projects = new Set<string>([before?.project, after?.project, project].filter((p): p is string => p !== undefined));
    return { projects, environments: new Set([this.environment]) };
  }

  private apply(snapshot: Snapshot, changed: Map<string, FlagChange> | 'all', origin: Origin): void {
    if (this.snapshot) this.deltas.recordFlags(snapshot.revision, changed);
    this.install(snapshot);
    this.origin = origin;
    this.confirmed(origin);
    this.arrived();
    for (const listener of this.listeners) listener();
  }

  /** The scope's state as the client API answers it (unfiltered, segments apart): what the cache folder keeps. */
  state(): (ClientFeatures & { revision: number }) | undefined {
    const snapshot = this.snapshot;
    if (!snapshot) return undefined;
    const shape = { environment: this.environment, projects: null, tags: null, namePrefix: null, inlineSegments: false };
    return { ...(clientFeatures(snapshot, shape) as ClientFeatures), revision: snapshot.revision };
  }
}
