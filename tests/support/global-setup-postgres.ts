import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../db/connect.js';
import { databaseUrl } from './postgres.js';

// One migrated template database; every test file gets its own copy of it.
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL!;
  const run = randomBytes(4).toString('hex');
  const template = `flag_template_${run}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${template}`);
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl(serverUrl, template), poolSize: 1 });
  await database.close();
  project.provide('postgresTemplate', template);
  // Each test file's database is named after this run, so that none outlives it, even a file that failed.
  project.provide('postgresRun', run);
  return async () => {
    const leftovers = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${`flag_test_${run}_%`}`;
    for (const { datname } of leftovers) await admin.unsafe(`drop database if exists ${datname} with (force)`);
    await admin.unsafe(`drop database if exists ${template} with (force)`);
    await admin.end();
  };
}
