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

const COMMA = 0x2c;

/**
 * Joins fragments as the items of one JSON array, between `opening` and `closing`: their bytes copied once into
 * the answer (no string to build and encode per request).
 */
export class FragmentList {
  private readonly fragments: JsonFragment[] = [];
  private length: number;
  private a = 0x811c9dc5;
  private b = 0x9747b28c;

  constructor(
    private readonly opening: Buffer,
    private readonly closing: Buffer,
  ) {
    this.length = opening.length + closing.length;
  }

  add(fragment: JsonFragment): void {
    this.length += fragment.bytes.length + (this.fragments.length === 0 ? 0 : 1);
    this.fragments.push(fragment);
    this.a = Math.imul(this.a ^ fragment.high, 0x01000193);
    const b = Math.imul(this.b ^ fragment.low, 0x5bd1e995);
    this.b = b ^ (b >>> 13);
  }

  finish(): JsonAnswer {
    const body = Buffer.allocUnsafe(this.length);
    body.set(this.opening, 0);
    let at = this.opening.length;
    for (let i = 0; i < this.fragments.length; i++) {
      if (i > 0) body[at++] = COMMA;
      const { bytes } = this.fragments[i]!;
      body.set(bytes, at);
      at += bytes.length;
    }
    body.set(this.closing, at);
    return { body, etag: `"${base36(this.a)}${base36(this.b)}-${this.fragments.length.toString(36)}"` };
  }
}
