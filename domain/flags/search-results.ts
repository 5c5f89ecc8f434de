// One page of a feature search in one statement: the page of flags, the number of all matches, and everything
// listed for the page (environments, strategies, segment names, tags with their colours, dependencies, lifecycle,
// recent evaluation counts, the caller's favourites, creators), each aggregated to JSON. The embedded database
// runs every statement on the service's own thread, where each round trip and each row read costs more than the
// statement's work: a dozen reads per page were most of the time a search took.
import { sql, type SQL } from 'drizzle-orm';
import type { Db } from '../../db/connect.js';
import * as t from '../../db/schema.js';
import { strategyOrder } from '../../db/strategy-order.js';
import { present } from '../../kernel/present.js';
import { userImageUrl } from '../access/user-records.js';
import { describeStrategy } from './feature-view.js';
import type { LifecycleStageName } from '../../db/schema.js';

const HOUR_MS = 3_600_000;

type Timestamp = string;
type Strategy = typeof t.featureStrategies.$inferSelect;
type Variants = (typeof t.featureEnvironments.$inferSelect)['variants'];
type PageRow = [
  name: string,
  project: string,
  type: string,
  description: string | null,
  stale: boolean,
  impressionData: boolean,
  archivedAt: Timestamp | null,
  createdAt: Timestamp,
  lastSeenAt: Timestamp | null,
  createdByUserId: number | null,
  createdBy: string | null,
];
type EnvironmentRow = [name: string, type: string, sortOrder: number];
type StateRow = [featureName: string, environment: string, enabled: boolean, variants: Variants, lastSeenAt: Timestamp | null];
type StrategyRow = [
  id: string,
  featureName: string,
  environment: string,
  strategyName: string,
  title: string | null,
  disabled: boolean,
  sortOrder: number,
  parameters: Strategy['parameters'],
  constraints: Strategy['constraints'],
  variants: Strategy['variants'],
  milestoneId: string | null,
  createdAt: Timestamp,
];
type SegmentLink = [strategyId: string, segmentId: number, segmentName: string];
type TagRow = [featureName: string, type: string, value: string, color: string | null];
type DependencyRow = [child: string, parent: string];
type StageRow = [featureName: string, stage: LifecycleStageName, status: 'kept' | 'discarded' | null, statusValue: string | null, createdAt: Timestamp];
type CountRow = [featureName: string, environment: string, yes: number, no: number];
type CreatorRow = [id: number, imageUrl: string | null, email: string | null, username: string | null];

interface Found {
  total: number | string;
  page: PageRow[] | null;
  environments: EnvironmentRow[] | null;
  states: StateRow[] | null;
  strategies: StrategyRow[] | null;
  segments: SegmentLink[] | null;
  tags: TagRow[] | null;
  dependencies: DependencyRow[] | null;
  stages: StageRow[] | null;
  counts: CountRow[] | null;
  favorites: string[] | null;
  creators: CreatorRow[] | null;
}

/** What is listed for the flags of `page` (a CTE of `features` rows), each as a JSON array of arrays. */
const listed = sql.raw(`
  (select json_agg(json_build_array(e.name, e.type, e.sort_order) order by e.sort_order, e.name) from environments e) as environments,
  (select json_agg(json_build_array(fe.feature_name, fe.environment, fe.enabled, fe.variants, fe.last_seen_at))
    from feature_environments fe where fe.feature_name in (select name from page)) as states,
  (select json_agg(json_build_array(s.id, s.feature_name, s.environment, s.strategy_name, s.title, s.disabled, s.sort_order,
      s.parameters, s.constraints, s.variants, s.milestone_id, s.created_at))
    from feature_strategies s where s.feature_name in (select name from page)) as strategies,
  (select json_agg(json_build_array(link.strategy_id, link.segment_id, g.name))
    from feature_strategy_segments link join feature_strategies s on s.id = link.strategy_id join segments g on g.id = link.segment_id
    where s.feature_name in (select name from page)) as segments,
  (select json_agg(json_build_array(ft.feature_name, ft.tag_type, ft.tag_value, tt.color) order by ft.tag_type, ft.tag_value)
    from feature_tags ft left join tag_types tt on tt.name = ft.tag_type where ft.feature_name in (select name from page)) as tags,
  (select json_agg(json_build_array(d.child, d.parent)) from feature_dependencies d
    where d.child in (select name from page) or d.parent in (select name from page)) as dependencies,
  (select json_agg(json_build_array(l.feature_name, l.stage, l.status, l.status_value, l.created_at))
    from feature_lifecycles l where l.feature_name in (select name from page)) as stages`);

const f = t.features;

/** One page of the rows of `features` the search selects: read in index order when the order allows, stopping at the page's end. */
const pageQuery = (where: SQL, order: SQL[], limit: number, offset: number) =>
  sql`select ${f.name} as name, ${f.project}, ${f.type}, ${f.description}, ${f.stale}, ${f.impressionData}, ${f.archivedAt},
    ${f.createdAt}, ${f.lastSeenAt}, ${f.createdByUserId}, ${f.createdBy}
    from ${f} where ${where} order by ${sql.join(order, sql`, `)} limit ${limit} offset ${offset}`;

async function readPage(db: Db, where: SQL, order: SQL[], limit: number, offset: number, userId: number | undefined): Promise<Found> {
  const since = new Date(Date.now() - HOUR_MS).toISOString();
  const query = sql`with page as materialized (${pageQuery(where, order, limit, offset)})
    select
      (select count(*) from ${f} where ${where}) as total,
      (select json_agg(json_build_array(p.name, p.project, p.type, p.description, p.stale, p.impression_data, p.archived_at, p.created_at,
        p.last_seen_at, p.created_by_user_id, p.created_by)) from page p) as page,
      ${listed},
      (select json_agg(json_build_array(h.feature_name, h.environment, h.yes, h.no)) from (
        select feature_name, environment, sum(yes) as yes, sum(no) as no from client_metrics_hourly
        where feature_name in (select name from page) and hour >= ${since} group by feature_name, environment) h) as counts,
      (select json_agg(ff.feature_name) from favorite_features ff
        where ff.user_id = ${userId ?? null} and ff.feature_name in (select name from page)) as favorites,
      (select json_agg(json_build_array(u.id, u.image_url, u.email, u.username)) from users u
        where u.id > 0 and u.id in (select created_by_user_id from page)) as creators`;
  const { rows } = (await db.execute(query)) as unknown as { rows: Found[] };
  return rows[0]!;
}

const iso = (timestamp: Timestamp) => new Date(timestamp).toISOString();

/** Groups rows by a key, keeping their order. */
function groupBy<R>(rows: R[] | null, key: (row: R) => string): Map<string, R[]> {
  const groups = new Map<string, R[]>();
  for (const row of rows ?? []) {
    const k = key(row);
    const group = groups.get(k);
    if (group) group.push(row);
    else groups.set(k, [row]);
  }
  return groups;
}

const stageRank: Record<LifecycleStageName, number> = { initial: 0, 'pre-live': 1, live: 2, completed: 3, archived: 4 };

/** Flags in the search shape: the admin shape plus segment names, tag colours, lifecycle, counts and creator. */
function describeFound(found: Found) {
  const stateOf = new Map((found.states ?? []).map((s) => [`${s[0]}\n${s[1]}`, s]));
  const segmentsOf = groupBy(found.segments, (link) => link[0]);
  const strategiesOf = groupBy(
    (found.strategies ?? [])
      .map(([id, featureName, environment, strategyName, title, disabled, sortOrder, parameters, constraints, variants, milestoneId, createdAt]): Strategy => ({
        id,
        featureName,
        environment,
        strategyName,
        title,
        disabled,
        sortOrder,
        parameters,
        constraints,
        variants,
        milestoneId,
        createdAt: new Date(createdAt),
      }))
      .sort(strategyOrder),
    (s) => `${s.featureName}\n${s.environment}`,
  );
  const tagsOf = groupBy(found.tags, (tag) => tag[0]);
  const children = new Set((found.dependencies ?? []).map((d) => d[0]));
  const parents = new Set((found.dependencies ?? []).map((d) => d[1]));
  const stageOf = new Map<string, StageRow>();
  for (const row of found.stages ?? []) {
    const held = stageOf.get(row[0]);
    if (!held || stageRank[row[1]] > stageRank[held[1]]) stageOf.set(row[0], row);
  }
  const countOf = new Map((found.counts ?? []).map((c) => [`${c[0]}\n${c[1]}`, { yes: Number(c[2]), no: Number(c[3]) }]));
  const favorites = new Set(found.favorites ?? []);
  const imageOf = new Map((found.creators ?? []).map(([id, imageUrl, email, username]) => [id, userImageUrl({ id, imageUrl, email, username })]));
  return (found.page ?? []).map(([name, project, type, description, stale, impressionData, archivedAt, createdAt, lastSeenAt, createdByUserId, createdBy]) => {
    const environments = (found.environments ?? []).flatMap(([environment, environmentType, sortOrder]) => {
      const state = stateOf.get(`${name}\n${environment}`);
      if (!state) return [];
      const strategies = (strategiesOf.get(`${name}\n${environment}`) ?? []).map((s) =>
        describeStrategy(s, (segmentsOf.get(s.id) ?? []).map((link) => link[1])),
      );
      return [
        {
          name: environment,
          environment,
          featureName: name,
          type: environmentType,
          enabled: state[2],
          sortOrder,
          strategies,
          variants: state[3],
          hasStrategies: strategies.length > 0,
          hasEnabledStrategies: strategies.some((s) => !s.disabled),
          lastSeenAt: state[4] === null ? null : iso(state[4]),
          variantCount: state[3].length,
          ...(countOf.get(`${name}\n${environment}`) ?? { yes: 0, no: 0 }),
          changeRequestIds: [],
        },
      ];
    });
    const segmentNames = environments.flatMap((e) => e.strategies.flatMap((s) => (segmentsOf.get(s.id) ?? []).map((link) => link[2])));
    const dependencyType = children.has(name) ? ('child' as const) : parents.has(name) ? ('parent' as const) : null;
    const stage = stageOf.get(name);
    return {
      name,
      ...present('description', description),
      type,
      project,
      favorite: favorites.has(name),
      createdAt: iso(createdAt),
      stale,
      ...present('archivedAt', archivedAt === null ? null : iso(archivedAt)),
      impressionData,
      ...present('lastSeenAt', lastSeenAt === null ? null : iso(lastSeenAt)),
      ...present('dependencyType', dependencyType),
      environments,
      segments: [...new Set(segmentNames)].sort(),
      tags: (tagsOf.get(name) ?? []).map(([, tagType, value, color]) => ({ type: tagType, value, color })),
      ...present(
        'lifecycle',
        stage && {
          stage: stage[1],
          enteredStageAt: iso(stage[4]),
          ...(stage[2] !== null && { status: stage[2] }),
          ...(stage[3] !== null && { statusValue: stage[3] }),
        },
      ),
      createdBy: { id: createdByUserId ?? 0, name: createdBy ?? 'unknown', ...present('imageUrl', imageOf.get(createdByUserId ?? 0)) },
    };
  });
}

/** The page of flags `where` selects in `order`, in the search shape, and how many flags it selects over all pages. */
export async function searchPage(db: Db, where: SQL, order: SQL[], page: { limit: number; offset: number }, userId: number | undefined) {
  const found = await readPage(db, where, order, page.limit, page.offset, userId);
  return { features: describeFound(found), total: Number(found.total) };
}
