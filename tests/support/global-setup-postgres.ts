import { randomBytes } from 'node:crypto';
import postgres from 'postgres';
import type { TestProject } from 'vitest/node';
import { openDatabase } from '../../db/connect.js';
import { databaseUrl } from './postgres.js';

// One migrated template database; every test file gets its own copy of it.
export default async function setup(project: TestProject) {
  const serverUrl = process.env.TEST_DATABASE_URL!;
  const template = `flag_template_${randomBytes(4).toString('hex')}`;
  const admin = postgres(serverUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${template}`);
  const database = await openDatabase({ kind: 'postgres', url: databaseUrl(serverUrl, template), poolSize: 1 });
  await database.close();
  project.provide('postgresTemplate', template);
  return async () => {
    await admin.unsafe(`drop database if exists ${template} with (force)`);
    await admin.end();
  };
}
