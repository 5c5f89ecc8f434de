// Deltas for SDKs: which flags changed after a revision an SDK holds, as the events its delta and streaming modes
// apply (hydration, feature-updated, feature-removed).
import { sdkFlagEventTypes } from '../../generated/events.js';
import type { Change, ChangedEvent } from '../events/event-log.js';
import { clientFeature, clientFeatures, visible, type Shape } from './body.js';
import { byFlagName, type Snapshot } from './snapshot.js';

/** Whether the event changes its flag for SDKs (which types do, the contract's x-event-meaning says). */
export const changesFlag = (event: ChangedEvent): event is ChangedEvent & { featureName: string } =>
  event.featureName !== null && sdkFlagEventTypes.has(event.type);

/** Changes remembered: an SDK further behind gets a hydration. */
const LOG_SIZE = 2000;

export interface FlagChange {
  /** The projects its events named (a flag moved between projects names both over time). */
  projects: Set<string>;
  /** The environments its events named; null for changes to every environment (metadata, archiving). */
  environments: Set<string | null>;
}

interface Entry {
  revision: number;
  /** Changed flags, or 'all' for a change whose reach is not known flag by flag (segments, environments). */
  flags: Map<string, FlagChange> | 'all';
}

/** The changes since the instance started (up to LOG_SIZE), by revision. */
export class DeltaLog {
  private entries: Entry[] = [];
  /** The oldest revision a delta can start from; older ones get a hydration. */
  private floor = Number.MAX_SAFE_INTEGER;

  /** The revision of the first snapshot: what came before it is not known change by change. */
  start(revision: number): void {
    if (this.floor === Number.MAX_SAFE_INTEGER) this.floor = revision;
  }

  record(change: Change, wide: boolean): void {
    let flags: Entry['flags'] = 'all';
    if (change.events !== null && !wide) {
      flags = new Map();
      for (const event of change.events) {
        if (!changesFlag(event)) continue;
        const found = flags.get(event.featureName) ?? { projects: new Set<string>(), environments: new Set<string | null>() };
        if (event.formerProject !== null) found.projects.add(event.formerProject);
        if (event.project !== null) found.projects.add(event.project);
        found.environments.add(event.environment);
        flags.set(event.featureName, found);
      }
    }
    this.recordFlags(change.revision, flags);
  }

  /** The flags a revision changed, or 'all' when its reach is not known flag by flag. */
  recordFlags(revision: number, flags: Map<string, FlagChange> | 'all'): void {
    if (revision <= this.floor) return;
    this.entries.push({ revision, flags });
    if (this.entries.length > LOG_SIZE) this.floor = this.entries.splice(0, this.entries.length - LOG_SIZE).at(-1)!.revision;
  }

  /** Flags changed after `since` up to `until`; 'unknown' when the log does not reach back that far or a change was wide. */
  changedBetween(since: number, until: number): Map<string, FlagChange> | 'unknown' {
    if (since < this.floor) return 'unknown';
    const changed = new Map<string, FlagChange>();
    for (const entry of this.entries) {
      if (entry.revision <= since || entry.revision > until) continue;
      if (entry.flags === 'all') return 'unknown';
      for (const [name, change] of entry.flags) {
        const found = changed.get(name) ?? { projects: new Set<string>(), environments: new Set<string | null>() };
        for (const project of change.projects) found.projects.add(project);
        for (const environment of change.environments) found.environments.add(environment);
        changed.set(name, found);
      }
    }
    return changed;
  }
}

export type DeltaEvent =
  | { type: 'hydration'; eventId: number; features: ReturnType<typeof clientFeature>[]; segments: unknown[] }
  | { type: 'feature-updated'; eventId: number; feature: ReturnType<typeof clientFeature> }
  | { type: 'feature-removed'; eventId: number; featureName: string; project: string };

export function hydration(snapshot: Snapshot, shape: Shape): DeltaEvent {
  const { features, segments } = clientFeatures(snapshot, { ...shape, inlineSegments: false });
  return { type: 'hydration', eventId: snapshot.revision, features, segments: segments ?? [] };
}

/**
 * The events that bring an SDK from `since` to the snapshot: [] when nothing that concerns it changed, a
 * hydration when `since` is unknown or a change's reach is not known flag by flag.
 */
export function deltaEvents(snapshot: Snapshot, log: DeltaLog, shape: Shape, since: number | undefined): DeltaEvent[] {
  if (since === undefined || since > snapshot.revision) return [hydration(snapshot, shape)];
  if (since === snapshot.revision) return [];
  const changed = log.changedBetween(since, snapshot.revision);
  if (changed === 'unknown') return [hydration(snapshot, shape)];
  const events: DeltaEvent[] = [];
  for (const name of [...changed.keys()].sort((a, b) => byFlagName({ name: a }, { name: b }))) {
    const change = changed.get(name)!;
    if (!change.environments.has(null) && !change.environments.has(shape.environment)) continue;
    const flag = snapshot.flags.get(name);
    if (flag && visible(flag, shape)) {
      events.push({ type: 'feature-updated', eventId: snapshot.revision, feature: clientFeature(flag, snapshot, shape.environment, false) });
      continue;
    }
    // Gone (archived, deleted, moved out of reach, or filtered away): only SDKs that could have had it hear of it, told
    // the project they had it in.
    const project = shape.projects === null ? (flag?.project ?? [...change.projects][0]) : [...change.projects].find((p) => shape.projects!.includes(p));
    if (project !== undefined && (shape.namePrefix === null || name.startsWith(shape.namePrefix))) {
      events.push({ type: 'feature-removed', eventId: snapshot.revision, featureName: name, project });
    }
  }
  return events;
}

/** A revision sent back by an SDK (`"123"`, `W/"123"` or bare); undefined when it is none. */
export function revisionOf(value: string | undefined): number | undefined {
  const match = value ? /^(?:W\/)?"?(\d{1,15})"?$/.exec(value.trim()) : null;
  return match ? Number(match[1]) : undefined;
}
