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
export interface HashState {
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
  let { h1, pending, pendingBytes } = state;
  for (let i = 0; i < rest.length; i++) {
    pending |= (rest.charCodeAt(i) & 0xff) << (pendingBytes * 8);
    if (++pendingBytes === 4) {
      h1 = mixBlock(h1, pending);
      pending = 0;
      pendingBytes = 0;
    }
  }
  return finished(h1, pending, pendingBytes, state.length + rest.length);
}

/** The hash's last steps: the pending bytes, the length, the final mix. */
function finished(h1: number, pending: number, pendingBytes: number, length: number): number {
  if (pendingBytes > 0) h1 ^= Math.imul(rotl(Math.imul(pending, C1), 15), C2);
  h1 ^= length;
  h1 ^= h1 >>> 16;
  h1 = Math.imul(h1, 0x85ebca6b);
  h1 ^= h1 >>> 13;
  h1 = Math.imul(h1, 0xc2b2ae35);
  h1 ^= h1 >>> 16;
  return h1;
}

/**
 * One id laid out to be hashed after many prefixes (every flag's, in one request): its bytes as the 4-byte blocks they
 * form after a prefix that leaves 0, 1, 2 or 3 bytes pending, so that each hash mixes whole blocks instead of adding
 * the id's bytes one at a time. Reused: `set` lays out the next id.
 */
export class IdBlocks {
  length = 0;
  /** Per start s (how many of the id's bytes complete a prefix's pending block, 0–3): */
  /** the first s bytes at the places they take in that block; */
  private readonly head = new Int32Array(4);
  /** the whole blocks from byte s on, at s * stride; */
  private blocks = new Int32Array(64);
  private stride = 16;
  private readonly blockCount = new Int32Array(4);
  /** the bytes after the last whole block. */
  private readonly tail = new Int32Array(4);
  private readonly tailBytes = new Int32Array(4);

  set(id: string): void {
    const length = id.length;
    this.length = length;
    this.stride = (length >>> 2) + 1;
    if (4 * this.stride > this.blocks.length) this.blocks = new Int32Array(4 * this.stride);
    for (let start = 0; start < 4; start++) {
      const pendingBefore = (4 - start) & 3;
      let head = 0;
      for (let i = 0; i < start && i < length; i++) head |= (id.charCodeAt(i) & 0xff) << ((pendingBefore + i) * 8);
      this.head[start] = head;
      let [block, bytes, count] = [0, 0, 0];
      for (let i = start; i < length; i++) {
        block |= (id.charCodeAt(i) & 0xff) << (bytes * 8);
        if (++bytes === 4) [this.blocks[start * this.stride + count++], block, bytes] = [block, 0, 0];
      }
      [this.blockCount[start], this.tail[start], this.tailBytes[start]] = [count, block, bytes];
    }
  }

  /** MurmurHash3 of a prefix (its HashState's numbers) followed by this id: what `hashAfter` gives for it. */
  hashAfter(h1: number, pending: number, pendingBytes: number, prefixLength: number): number {
    const start = (4 - pendingBytes) & 3;
    if (this.length < start) return finished(h1, pending | this.head[start]!, pendingBytes + this.length, prefixLength + this.length);
    if (start > 0) h1 = mixBlock(h1, pending | this.head[start]!);
    for (let i = start * this.stride, end = i + this.blockCount[start]!; i < end; i++) h1 = mixBlock(h1, this.blocks[i]!);
    return finished(h1, this.tail[start]!, this.tailBytes[start]!, prefixLength + this.length);
  }
}

/**
 * The 32-bit `hash` read as unsigned, modulo `modulus`, from its two 16-bit halves: for weight lines up to 46,340 long
 * every step is a 32-bit integer one, where the unsigned value above 2^31 would be a heap number and its remainder a
 * floating-point one. Exact for any modulus (the sum stays below 2^33).
 */
function remainder(hash: number, modulus: number): number {
  return (((hash >>> 16) % modulus) * (65536 % modulus) + (hash & 0xffff)) % modulus;
}

/** 1–`modulus`: the bucket of a prefix (its HashState's numbers, as outcomes.ts keeps them) followed by `id`. */
export function bucketOfBlocks(h1: number, pending: number, pendingBytes: number, prefixLength: number, id: IdBlocks, modulus: number): number {
  return remainder(id.hashAfter(h1, pending, pendingBytes, prefixLength), modulus) + 1;
}

const bucketOf = (state: HashState, id: string, modulus: number) => remainder(hashAfter(state, id), modulus) + 1;

/** The buckets of one group: its `groupId:` hashed once with each seed. */
export interface GroupBuckets {
  /** 1–100: the percentage bucket of `id` for rollout strategies. */
  strategy(id: string): number;
  /** 1–`totalWeight`: the point on the weight line that picks a variant. */
  variant(id: string, totalWeight: number): number;
  /** The prefix hashed with each seed, for callers that keep it in their own form (outcomes.ts). */
  readonly strategyState: HashState;
  readonly variantState: HashState;
}

export function bucketsOf(groupId: string): GroupBuckets {
  const strategyState = hashedPrefix(`${groupId}:`, STRATEGY_SEED);
  const variantState = hashedPrefix(`${groupId}:`, VARIANT_SEED);
  return {
    strategy: (id) => bucketOf(strategyState, id, 100),
    variant: (id, totalWeight) => bucketOf(variantState, id, totalWeight),
    strategyState,
    variantState,
  };
}

/** 1–100 at random, for `random` stickiness and gradualRolloutRandom. */
export function randomPercent(): number {
  return Math.floor(Math.random() * 100) + 1;
}
