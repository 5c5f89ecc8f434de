// The built-in activation strategies, each compiled from its parameters into a test of the context, as the
// SDKs' strategy/*.js decide. Constraints and segments are checked around these (see compile.ts).
import { parseAddress, parseRange, type AddressRange } from './addresses.js';
import { contextReader, type EvaluationContext } from './context.js';
import type { ContextTest } from './constraints.js';
import { bucketsOf, randomPercent, type GroupBuckets } from './hashing.js';

type Parameters = Readonly<Record<string, string | number | boolean | undefined>>;

/** What a strategy needs besides its parameters. */
export interface StrategyScope {
  flagName: string;
  /** Lower-cased; what applicationHostname compares with. */
  hostname: string;
}

const always: ContextTest = () => true;
const never: ContextTest = () => false;

/** The SDKs split list parameters on commas with any spaces around them. */
const listOf = (value: Parameters[string]) => (value ? String(value).split(/\s*,\s*/) : []);

/** A percentage parameter as a number (NaN when absent or not a number, which lets nobody in). */
const percentageOf = (value: Parameters[string]) => Number(value);

const builtIn: Record<string, (parameters: Parameters, scope: StrategyScope) => ContextTest> = {
  default: () => always,

  flexibleRollout(parameters, { flagName }) {
    const { rollout, groupId, stickiness } = flexibleRolloutOf(parameters, flagName);
    if (!(rollout > 0)) return never;
    const buckets = bucketsOf(groupId);
    if (stickiness === 'random') return () => randomPercent() <= rollout;
    if (stickiness === 'default') {
      return (context) => {
        const id = context.userId || context.sessionId;
        return (id ? buckets.strategy(String(id)) : randomPercent()) <= rollout;
      };
    }
    const read = contextReader(stickiness);
    return (context) => {
      const id = read(context);
      return !!id && buckets.strategy(id) <= rollout;
    };
  },

  userWithId(parameters) {
    const userIds = new Set(listOf(parameters.userIds));
    return (context) => context.userId !== undefined && userIds.has(context.userId);
  },

  gradualRolloutUserId: (parameters) => gradualRollout(parameters, (context) => context.userId),
  gradualRolloutSessionId: (parameters) => gradualRollout(parameters, (context) => context.sessionId),

  gradualRolloutRandom(parameters) {
    const percentage = percentageOf(parameters.percentage);
    return () => percentage >= randomPercent();
  },

  /** Exact strings, and IPv4 addresses inside IPv4 ranges (the SDK compares IPv6 ones only as strings). */
  remoteAddress(parameters) {
    if (!parameters.IPs) return never;
    const entries = listOf(parameters.IPs);
    const exact = new Set(entries);
    const ranges = entries.map(parseRange).filter((range): range is AddressRange => range !== null && range[0].kind() === 'ipv4');
    return (context) => {
      const remote = context.remoteAddress;
      if (remote === undefined) return false;
      if (exact.has(remote)) return true;
      if (ranges.length === 0) return false;
      const address = parseAddress(remote);
      return address !== null && address.kind() === 'ipv4' && ranges.some((range) => address.match(range));
    };
  },

  /** Decided by the host evaluating, so once per compilation. */
  applicationHostname(parameters, { hostname }) {
    if (!parameters.hostNames) return never;
    return listOf(String(parameters.hostNames).toLowerCase()).includes(hostname) ? always : never;
  },
};

/** The stickiness that reads a context's userId when it has one. */
export const USER_STICKINESS: ReadonlySet<string> = new Set(['default', 'userId']);

function flexibleRolloutOf(parameters: Parameters, flagName: string) {
  return {
    rollout: percentageOf(parameters.rollout),
    groupId: parameters.groupId ? String(parameters.groupId) : flagName,
    stickiness: parameters.stickiness ? String(parameters.stickiness) : 'default',
  };
}

/**
 * A strategy that lets in a share of the contexts with a userId by its bucket in a group: `default` (everyone, no
 * group) and flexibleRollout sticky on `default` or `userId` (both read the userId when there is one). Such a context
 * is let in when its bucket is at most `percent` (0 lets no one in).
 */
export interface UserShare {
  readonly percent: number;
  readonly buckets: GroupBuckets | null;
}

/** The strategy as a UserShare, when it is one (outcomes.ts decides those without their test). */
export function userShareOf(name: string, parameters: Parameters, flagName: string): UserShare | null {
  if (name === 'default') return { percent: 100, buckets: null };
  if (name !== 'flexibleRollout') return null;
  const { rollout, groupId, stickiness } = flexibleRolloutOf(parameters, flagName);
  if (!USER_STICKINESS.has(stickiness)) return null;
  // Buckets are whole numbers from 1 to 100: `bucket <= rollout` is `bucket <= floor(rollout)`.
  return { percent: rollout > 0 ? Math.floor(Math.min(rollout, 100)) : 0, buckets: bucketsOf(groupId) };
}

/** The names of the strategies this engine can decide; any other (a custom strategy) never applies. */
export const builtInStrategyNames: readonly string[] = Object.keys(builtIn);

function gradualRollout(parameters: Parameters, idOf: (context: EvaluationContext) => string | undefined): ContextTest {
  const percentage = percentageOf(parameters.percentage);
  if (!(percentage > 0)) return never;
  const buckets = bucketsOf(parameters.groupId ? String(parameters.groupId) : '');
  return (context) => {
    const id = idOf(context);
    return !!id && buckets.strategy(id) <= percentage;
  };
}

/** The strategy's own test (without constraints), or null for a strategy that is not built in. */
export function compileStrategyTest(name: string, parameters: Parameters, scope: StrategyScope): ContextTest | null {
  const compile = Object.hasOwn(builtIn, name) ? builtIn[name] : undefined;
  return compile ? compile(parameters, scope) : null;
}
