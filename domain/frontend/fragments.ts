// Answers written as JSON once per distinct piece (a flag's answer for one variant), then joined per request. The
// validator folds the pieces' own hashes in order (FNV-1a and a multiply-xorshift, 64 bits in all): equal answers
// share it, whatever the token or revision, and no request hashes its body.
import { createHash } from 'node:crypto';

/** A piece of an answer's JSON, as UTF-8, with 64 bits of its SHA-1. */
export interface JsonFragment {
  readonly bytes: Buffer;
  readonly high: number;
  readonly low: number;
}

export function fragmentOf(value: unknown): JsonFragment {
  const bytes = Buffer.from(JSON.stringify(value));
  const digest = createHash('sha1').update(bytes).digest();
  return { bytes, high: digest.readInt32BE(0), low: digest.readInt32BE(4) };
}

/** An answer: its JSON, and a strong validator that depends on its content only. */
export interface JsonAnswer {
  body: Buffer;
  etag: string;
}

const base36 = (n: number) => (n >>> 0).toString(36).padStart(7, '0');

/** Answers up to a quarter of this are cut from a shared slab (see `answerBytes`). */
const SLAB_BYTES = 512 * 1024;
let slab = Buffer.alloc(0);
let slabUsed = 0;

/**
 * Room for an answer. An ArrayBuffer of its own per answer costs more than writing the answer, and its external
 * memory hurries the collector, so answers are cut from a slab as Node's Buffer pool cuts small buffers; a full slab
 * is left to the collector once its answers are sent, never reused. Kept answers (a cache) must copy theirs out.
 */
function answerBytes(length: number): Buffer {
  if (length > SLAB_BYTES / 4) return Buffer.allocUnsafeSlow(length);
  if (slabUsed + length > slab.length) [slab, slabUsed] = [Buffer.allocUnsafeSlow(SLAB_BYTES), 0];
  const bytes = slab.subarray(slabUsed, slabUsed + length);
  slabUsed += (length + 7) & ~7;
  return bytes;
}

const COMMA = 0x2c;

/**
 * Joins fragments as the items of one JSON array, between `opening` and `closing`: their bytes copied once into
 * the answer (no string to build and encode per request), their hashes folded in the same pass.
 */
export class FragmentList<Fragment extends JsonFragment = JsonFragment> {
  /** The fragments added, in order. */
  readonly items: Fragment[] = [];
  private length: number;

  constructor(
    private readonly opening: Buffer,
    private readonly closing: Buffer,
  ) {
    this.length = opening.length + closing.length;
  }

  add(fragment: Fragment): void {
    this.length += fragment.bytes.length + (this.items.length === 0 ? 0 : 1);
    this.items.push(fragment);
  }

  finish(): JsonAnswer {
    const { items, opening, closing } = this;
    const body = answerBytes(this.length);
    body.set(opening, 0);
    let at = opening.length;
    // Folded in locals: 32-bit values kept in fields would be boxed, one allocation per fragment.
    let a = 0x811c9dc5;
    let b = 0x9747b28c;
    for (let i = 0; i < items.length; i++) {
      const fragment = items[i]!;
      if (i > 0) body[at++] = COMMA;
      body.set(fragment.bytes, at);
      at += fragment.bytes.length;
      a = Math.imul(a ^ fragment.high, 0x01000193);
      const mixed = Math.imul(b ^ fragment.low, 0x5bd1e995);
      b = mixed ^ (mixed >>> 13);
    }
    body.set(closing, at);
    return { body, etag: `"${base36(a)}${base36(b)}-${items.length.toString(36)}"` };
  }
}
