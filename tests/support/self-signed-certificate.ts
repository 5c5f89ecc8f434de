// A throwaway RSA key and a self-signed X.509 certificate for it, made with node:crypto alone: the few DER
// structures of RFC 5280 a certificate needs are encoded here, and the certificate is signed with the key.
import { X509Certificate, generateKeyPairSync, randomBytes, sign } from 'node:crypto';

const length = (size: number) => {
  if (size < 0x80) return Buffer.from([size]);
  const bytes = Buffer.from(size.toString(16).padStart(size > 0xff ? 4 : 2, '0'), 'hex');
  return Buffer.concat([Buffer.from([0x80 | bytes.length]), bytes]);
};
const der = (tag: number, ...content: Buffer[]) => {
  const body = Buffer.concat(content);
  return Buffer.concat([Buffer.from([tag]), length(body.length), body]);
};
const sequence = (...items: Buffer[]) => der(0x30, ...items);

function objectId(dotted: string): Buffer {
  const [first, second, ...rest] = dotted.split('.').map(Number);
  const bytes = [first! * 40 + second!];
  for (const arc of rest) {
    const base128 = [arc & 0x7f];
    for (let value = arc >> 7; value > 0; value >>= 7) base128.unshift(0x80 | (value & 0x7f));
    bytes.push(...base128);
  }
  return der(0x06, Buffer.from(bytes));
}

const SHA256_WITH_RSA = sequence(objectId('1.2.840.113549.1.1.11'), der(0x05));
const commonName = (name: string) => sequence(der(0x31, sequence(objectId('2.5.4.3'), der(0x0c, Buffer.from(name)))));
/** GeneralizedTime, which RFC 5280 allows for any year. */
const time = (date: Date) => der(0x18, Buffer.from(`${date.toISOString().slice(0, 19).replace(/[-:T]/g, '')}Z`));

export interface TestKeyPair {
  /** PKCS#8 PEM. */
  privateKey: string;
  /** PEM. */
  certificate: string;
  /** The certificate's base64 body, without the PEM lines. */
  certificateBody: string;
}

export function selfSignedCertificate(name: string): TestKeyPair {
  const { privateKey, publicKey } = generateKeyPairSync('rsa', { modulusLength: 2048 });
  const serial = randomBytes(8);
  serial[0]! &= 0x7f; // a positive INTEGER
  const now = Date.now();
  const tbs = sequence(
    der(0xa0, der(0x02, Buffer.from([2]))), // v3
    der(0x02, serial),
    SHA256_WITH_RSA,
    commonName(name),
    sequence(time(new Date(now - 60 * 60_000)), time(new Date(now + 24 * 60 * 60_000))),
    commonName(name),
    publicKey.export({ type: 'spki', format: 'der' }),
  );
  const signature = sign('sha256', tbs, privateKey);
  const certificateDer = sequence(tbs, SHA256_WITH_RSA, der(0x03, Buffer.from([0]), signature));
  const certificateBody = certificateDer.toString('base64');
  const certificate = `-----BEGIN CERTIFICATE-----\n${certificateBody.match(/.{1,64}/g)!.join('\n')}\n-----END CERTIFICATE-----\n`;
  if (!new X509Certificate(certificate).verify(publicKey)) throw new Error('the test certificate does not verify with its own key');
  return { privateKey: privateKey.export({ type: 'pkcs8', format: 'pem' }) as string, certificate, certificateBody };
}
