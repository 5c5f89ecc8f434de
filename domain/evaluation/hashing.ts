// Stickiness buckets: MurmurHash3 (x86, 32 bit) of `groupId:id`, with the seeds and normalisation of the SDKs'
// strategy/util.js, hashing the low byte of each UTF-16 code unit as murmurhash3js does (the package the Node SDK
// hashes with; not UTF-8: a quirk every Node SDK user already lives with). Written out here because a flag's
// `groupId:` is the same for every request: it is hashed once when flags compile (`bucketsOf`), and a request
// hashes only its id, with Math.imul, and no string built. tests/evaluation-sdk-agreement.test.ts holds it to
// the SDK's buckets.

const STRATEGY_SEED = 0;
const VARIANT_SEED = 86028157;

const C1 = 0xcc9e2d51;
const C2 = 0x1b873593;

const rotl = (x: number, r: number) => (x << r) | (x >>> (32 - r));

const mixBlock = (h1: number, k1: number) => {
  k1 = Math.imul(rotl(Math.imul(k1, C1), 15), C2);
  return (Math.imul(rotl(h1 ^ k1, 13), 5) + 0xe6546b64) | 0;
};

/** The hash's state after a prefix: its whole 4-byte blocks mixed in, the 0–3 bytes after them pending. */
interface HashState {
  readonly h1: number;
  readonly pending: number;
  readonly pendingBytes: number;
  readonly length: number;
}

function hashedPrefix(prefix: string, seed: number): HashState {
  let [h1, pending, pendingBytes] = [seed | 0, 0, 0];
  for (let i = 0; i < prefix.length; i++) {
    pending |= (prefix.charCodeAt(i) & 0xff) << (pendingBytes * 8);
    if (++pendingBytes === 4) [h1, pending, pendingBytes] = [mixBlock(h1, pending), 0, 0];
  }
  return { h1, pending, pendingBytes, length: prefix.length };
}

/** MurmurHash3 of the prefix `state` stands for followed by `rest`, as a signed 32-bit number (see `remainder`). */
function hashAfter(state: HashState, rest: string): number {
  let h1 = state.h1;
  let pending = state.pending;
  let pendingBytes = state.pendingBytes;
  for (let i = 0; i < rest.length; i++) {
    pending |= (rest.charCodeAt(i) & 0xff) << (pendingBytes * 8);
    if (++pendingBytes === 4) {
      h1 = mixBlock(h1, pending);
      pending = 0;
      pendingBytes = 0;
    }
  }
  if (pendingBytes > 0) h1 ^= Math.imul(rotl(Math.imul(pending, C1), 15), C2);
  h1 ^= state.length + rest.length;
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  return h1;
}

/**
 * The 32-bit `hash` read as unsigned, modulo `modulus`, from its two 16-bit halves: for weight lines up to 46,340 long
 * every step is a 32-bit integer one, where the unsigned value above 2^31 would be a heap number and its remainder a
 * floating-point one. Exact for any modulus (the sum stays below 2^33).
 */
function remainder(hash: number, modulus: number): number {
  return (((hash >>> 16) % modulus) * (65536 % modulus) + (hash & 0xffff)) % modulus;
}

/** The buckets of one group: its `groupId:` hashed once with each seed. */
export interface GroupBuckets {
  /** 1–100: the percentage bucket of `id` for rollout strategies. */
  strategy(id: string): number;
  /** 1–`totalWeight`: the point on the weight line that picks a variant. */
  variant(id: string, totalWeight: number): number;
}

export function bucketsOf(groupId: string): GroupBuckets {
  const strategyState = hashedPrefix(`${groupId}:`, STRATEGY_SEED);
  const variantState = hashedPrefix(`${groupId}:`, VARIANT_SEED);
  return {
    strategy: (id) => remainder(hashAfter(strategyState, id), 100) + 1,
    variant: (id, totalWeight) => remainder(hashAfter(variantState, id), totalWeight) + 1,
  };
}

/** 1–100 at random, for `random` stickiness and gradualRolloutRandom. */
export function randomPercent(): number {
  return Math.floor(Math.random() * 100) + 1;
}
