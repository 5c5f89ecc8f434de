// Answers written as JSON once per distinct piece (a flag's answer for one variant), then joined per request. The
// validator folds the pieces' own hashes in order (FNV-1a and a multiply-xorshift, 64 bits in all): equal answers
// share it, whatever the token or revision, and no request hashes its body.
import { createHash } from 'node:crypto';

/** A piece of an answer's JSON, with 64 bits of its SHA-1. */
export interface JsonFragment {
  readonly json: string;
  readonly high: number;
  readonly low: number;
}

export function fragmentOf(value: unknown): JsonFragment {
  const json = JSON.stringify(value);
  const digest = createHash('sha1').update(json).digest();
  return { json, high: digest.readInt32BE(0), low: digest.readInt32BE(4) };
}

/** An answer: its JSON, and a strong validator that depends on its content only. */
export interface JsonAnswer {
  body: Buffer;
  etag: string;
}

const base36 = (n: number) => (n >>> 0).toString(36).padStart(7, '0');

/** Joins fragments as the items of one JSON array, between `opening` and `closing`. */
export class FragmentList {
  private out: string;
  private count = 0;
  private a = 0x811c9dc5;
  private b = 0x9747b28c;

  constructor(
    opening: string,
    private readonly closing: string,
  ) {
    this.out = opening;
  }

  add(fragment: JsonFragment): void {
    this.out += this.count === 0 ? fragment.json : `,${fragment.json}`;
    this.a = Math.imul(this.a ^ fragment.high, 0x01000193);
    let b = Math.imul(this.b ^ fragment.low, 0x5bd1e995);
    this.b = b ^ (b >>> 13);
    this.count++;
  }

  finish(): JsonAnswer {
    return { body: Buffer.from(this.out + this.closing), etag: `"${base36(this.a)}${base36(this.b)}-${this.count.toString(36)}"` };
  }
}
