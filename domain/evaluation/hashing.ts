// Stickiness buckets: MurmurHash3 (x86, 32 bit) of `groupId:id`, with the seeds and normalisation of the SDKs'
// strategy/util.js. murmurhash3js is the very package the Node SDK hashes with, so buckets match it bit for bit
// (it hashes the low byte of each UTF-16 code unit, not UTF-8: a quirk every Node SDK user already lives with).
import murmurhash3 from 'murmurhash3js';

const STRATEGY_SEED = 0;
const VARIANT_SEED = 86028157;

function normalizedValue(id: string, groupId: string, normalizer: number, seed: number): number {
  return (murmurhash3.x86.hash32(`${groupId}:${id}`, seed) % normalizer) + 1;
}

/** 1–100: the percentage bucket of `id` for rollout strategies. */
export function strategyBucket(id: string, groupId: string): number {
  return normalizedValue(id, groupId, 100, STRATEGY_SEED);
}

/** 1–`totalWeight`: the point on the weight line that picks a variant. */
export function variantBucket(id: string, groupId: string, totalWeight: number): number {
  return normalizedValue(id, groupId, totalWeight, VARIANT_SEED);
}

/** 1–100 at random, for `random` stickiness and gradualRolloutRandom. */
export function randomPercent(): number {
  return Math.floor(Math.random() * 100) + 1;
}
