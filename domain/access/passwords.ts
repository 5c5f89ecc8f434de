// Password hashing (scrypt from node:crypto) and the policy a new password must meet.
import { randomBytes, scrypt as scryptCallback, timingSafeEqual, type BinaryLike, type ScryptOptions } from 'node:crypto';
import { badRequest } from '../../kernel/errors.js';
import { isPasswordHashCost } from '../../kernel/config.js';

const scrypt = (password: BinaryLike, salt: BinaryLike, length: number, options: ScryptOptions) =>
  new Promise<Buffer>((resolve, reject) => scryptCallback(password, salt, length, options, (error, key) => (error ? reject(error) : resolve(key))));

const KEY_LENGTH = 64;
const BLOCK_SIZE = 8;

/** scrypt's parameters for a cost N; its memory (128·N·r bytes) may exceed node's 32 MiB default. */
const scryptOptions = (cost: number): ScryptOptions => ({ N: cost, r: BLOCK_SIZE, p: 1, maxmem: 256 * cost * BLOCK_SIZE });

/**
 * `scrypt$<N>$<salt hex>$<key hex>`: the cost N (PASSWORD_HASH_COST) is kept with each hash, so that it can be
 * changed later without breaking older hashes.
 */
export async function hashPassword(password: string, cost: number): Promise<string> {
  const salt = randomBytes(16);
  const key = await scrypt(password, salt, KEY_LENGTH, scryptOptions(cost));
  return `scrypt$${cost}$${salt.toString('hex')}$${key.toString('hex')}`;
}

/**
 * Whether the password matches the stored hash (at the cost it was made with). Without a usable hash (no such
 * user, no password set) it still spends one scrypt at today's `cost`, so that the answer's timing does not tell
 * which accounts exist.
 */
export async function verifyPassword(password: string, stored: string | null | undefined, cost: number): Promise<boolean> {
  const [scheme, n, saltHex, keyHex] = (stored ?? '').split('$');
  const storedCost = Number(n);
  if (scheme !== 'scrypt' || !saltHex || !keyHex || !isPasswordHashCost(storedCost)) {
    await scrypt(password, 'no account', KEY_LENGTH, scryptOptions(cost));
    return false;
  }
  const expected = Buffer.from(keyHex, 'hex');
  const key = await scrypt(password, Buffer.from(saltHex, 'hex'), expected.length, scryptOptions(storedCost));
  return timingSafeEqual(key, expected);
}

/** Among the most used passwords of public leak lists, lower-cased; all of 10+ characters are refused. */
const COMMON = new Set([
  '1234567890', '12345678910', '123456789a', '1q2w3e4r5t', '1qaz2wsx3edc', 'qwertyuiop', 'password12', 'password123',
  'password1234', 'passw0rd123', 'iloveyou12', 'qwerty1234', 'qwerty12345', 'qwerty123456', '0987654321', '1111111111',
  '0000000000', 'abcdefghij', 'abcd123456', 'a123456789', 'q1w2e3r4t5', 'zaq12wsxcde', 'football123', 'baseball123',
  'welcome123', 'letmein123', 'administrator', 'admin12345', 'admin123456', 'unleash4all', 'changeme123', 'trustno1234',
  'princess123', 'sunshine123', 'superman123', 'starwars123', 'monkey12345', 'dragon12345', 'master12345', 'whatever123',
  'qazwsxedcrfv', '1q2w3e4r5t6y', 'asdfghjkl1', 'asdfghjkl;', 'zxcvbnm123', 'password!1', 'p@ssw0rd123', 'p@ssword123',
]);

export const MIN_PASSWORD_LENGTH = 10;
const MAX_PASSWORD_LENGTH = 128;

/** 400 naming the rule a new password breaks. */
export function assertPasswordPolicy(password: string, field = 'password'): void {
  if (password.length < MIN_PASSWORD_LENGTH) throw badRequest(`${field}: a password needs at least ${MIN_PASSWORD_LENGTH} characters.`);
  if (password.length > MAX_PASSWORD_LENGTH) throw badRequest(`${field}: a password has at most ${MAX_PASSWORD_LENGTH} characters.`);
  if (COMMON.has(password.toLowerCase())) throw badRequest(`${field}: this password is among the most common ones; choose another.`);
  if (new Set(password).size < 4) throw badRequest(`${field}: a password needs at least 4 different characters.`);
}

/** A password for a generated account: 24 characters from a URL-safe alphabet. */
export const generatePassword = () => randomBytes(18).toString('base64url');
