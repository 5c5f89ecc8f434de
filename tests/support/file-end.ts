// What a test file started and must stop when it ends. vitest never runs an afterAll registered while a hook or a
// test runs (only those registered as the file is collected), so helpers that start servers, apps or browsers from
// beforeAll register their stop here; tests/support/per-file.ts runs them after every file, newest first.
const stops: (() => unknown)[] = [];

export function afterFile(stop: () => unknown): void {
  stops.push(stop);
}

/** Runs every registered stop, even when one fails; then throws the first failure. */
export async function stopFileResources(): Promise<void> {
  const failures: unknown[] = [];
  for (const stop of stops.splice(0).reverse()) {
    try {
      await stop();
    } catch (error) {
      failures.push(error);
    }
  }
  if (failures.length > 0) throw failures[0];
}
