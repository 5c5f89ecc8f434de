import { randomBytes } from 'node:crypto';
import postgres from 'postgres';

/** A fresh database on the server DATABASE_URL names (none when unset), named `<prefix>_<random>`, with its drop. */
export async function throwAwayDatabase(prefix: string): Promise<{ url: string; drop: () => Promise<void> } | undefined> {
  const serverUrl = process.env.DATABASE_URL;
  if (!serverUrl) return undefined;
  const name = `${prefix}_${randomBytes(4).toString('hex')}`;
  const server = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await server.unsafe(`create database ${name}`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      await server.unsafe(`drop database if exists ${name} with (force)`);
      await server.end();
    },
  };
}
