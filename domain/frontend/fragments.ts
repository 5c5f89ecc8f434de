// Answers written as JSON once per distinct piece (a flag's answer for one outcome), then joined per request. The
// pieces of one table sit side by side in one buffer, and answers are joined into the rest of that buffer: a piece is
// then two numbers, and joining one is a copy inside one buffer (`copyWithin`: no view to make, no object to visit,
// where a Buffer per piece cost three times as much). The validator folds the pieces' own hashes in order (FNV-1a and
// a multiply-xorshift, 64 bits in all): equal answers share it, whatever the token or revision, and no request
// hashes its body.
import { createHash } from 'node:crypto';

/** An answer: its JSON, and a strong validator that depends on its content only. */
export interface JsonAnswer {
  body: Buffer;
  etag: string;
}

/**
 * Room for answers after the pieces: about this many of the latest answer's size, within these bounds (a table
 * whose answers are small keeps little). An answer over a quarter of the most gets a buffer of its own.
 */
const [ANSWERS_PER_ROOM, LEAST_ANSWERS_BYTES, MOST_ANSWERS_BYTES] = [8, 16 * 1024, 256 * 1024];
const FIRST_PIECES_BYTES = 16 * 1024;
const COMMA = 0x2c;

const base36 = (n: number) => (n >>> 0).toString(36).padStart(7, '0');
const etagOf = (a: number, b: number, count: number) => `"${base36(a)}${base36(b)}-${count.toString(36)}"`;

/** What is kept of a piece, side by side: where it starts, its length, and 64 bits of its SHA-1. */
const [START, LENGTH, HIGH, LOW, FIELDS] = [0, 1, 2, 3, 4];

/**
 * JSON pieces, numbered from 0 in the order written, and answers joined from them. Answers are cut from the buffer
 * after the pieces; when that room is used up the pieces move to a new buffer and the old one is left to the collector
 * once its answers are sent (never reused: a slow client may still be reading one).
 */
export class JsonPieces {
  /** [0, room): pieces; [room, buffer.length): answers. */
  private buffer = Buffer.alloc(0);
  private room = 0;
  private piecesEnd = 0;
  private answersAt = 0;
  /** FIELDS numbers per piece. */
  private kept = new Int32Array(64 * FIELDS);
  size = 0;

  /** Writes `value`'s JSON as the next piece; its number. */
  add(value: unknown): number {
    const json = JSON.stringify(value);
    const length = Buffer.byteLength(json);
    if (this.piecesEnd + length > this.room) this.moveTo(Math.max(this.room * 2, this.piecesEnd + length, FIRST_PIECES_BYTES), this.buffer.length - this.room);
    const start = this.piecesEnd;
    this.buffer.write(json, start);
    const digest = createHash('sha1').update(this.buffer.subarray(start, start + length)).digest();
    const at = this.size * FIELDS;
    if (at === this.kept.length) {
      const larger = new Int32Array(this.kept.length * 2);
      larger.set(this.kept);
      this.kept = larger;
    }
    this.kept[at + START] = start;
    this.kept[at + LENGTH] = length;
    this.kept[at + HIGH] = digest.readInt32BE(0);
    this.kept[at + LOW] = digest.readInt32BE(4);
    this.piecesEnd += length;
    return this.size++;
  }

  /** A piece's JSON alone. Pieces are never overwritten, so the view stays true. */
  bytesOf(id: number): Buffer {
    const start = this.kept[id * FIELDS + START]!;
    return this.buffer.subarray(start, start + this.kept[id * FIELDS + LENGTH]!);
  }

  /** Pieces `ids[0…count)` as the items of one JSON array between `opening` and `closing`, hashes folded in the same pass. */
  join(ids: readonly number[], count: number, opening: Buffer, closing: Buffer): JsonAnswer {
    const kept = this.kept;
    let length = opening.length + closing.length + Math.max(count - 1, 0);
    for (let i = 0; i < count; i++) length += kept[ids[i]! * FIELDS + LENGTH]!;
    // A large answer gets a buffer of its own, its pieces copied through views (the slower way).
    const apart = length > MOST_ANSWERS_BYTES / 4;
    if (!apart && this.answersAt + length > this.buffer.length) this.moveTo(this.room, ANSWERS_PER_ROOM * length);
    const pieces = this.buffer;
    const target = apart ? Buffer.allocUnsafeSlow(length) : pieces;
    const begin = apart ? 0 : this.answersAt;
    target.set(opening, begin);
    let at = begin + opening.length;
    // Folded in locals: 32-bit values kept in fields would be boxed, one allocation per piece.
    let a = 0x811c9dc5;
    let b = 0x9747b28c;
    for (let i = 0; i < count; i++) {
      const piece = ids[i]! * FIELDS;
      if (i > 0) target[at++] = COMMA;
      const start = kept[piece + START]!;
      const end = start + kept[piece + LENGTH]!;
      if (apart) target.set(pieces.subarray(start, end), at);
      else target.copyWithin(at, start, end);
      at += end - start;
      a = Math.imul(a ^ kept[piece + HIGH]!, 0x01000193);
      const mixed = Math.imul(b ^ kept[piece + LOW]!, 0x5bd1e995);
      b = mixed ^ (mixed >>> 13);
    }
    target.set(closing, at);
    if (apart) return { body: target, etag: etagOf(a, b, count) };
    this.answersAt = (begin + length + 7) & ~7;
    return { body: target.subarray(begin, begin + length), etag: etagOf(a, b, count) };
  }

  /** The pieces into a new buffer with `room` for them, and a fresh stretch of about `answers` bytes for answers. */
  private moveTo(room: number, answers: number): void {
    const next = Buffer.allocUnsafeSlow(room + Math.min(Math.max(answers, LEAST_ANSWERS_BYTES), MOST_ANSWERS_BYTES));
    this.buffer.copy(next, 0, 0, this.piecesEnd);
    [this.buffer, this.room, this.answersAt] = [next, room, room];
  }
}
