/**
 * Runs `round` every `intervalMs`, never two at once (a round still under way makes the next tick a no-op).
 * A round that throws is reported to `onError` and the next tick tries again. Answers how to stop: no new round
 * starts, and the one under way is waited for.
 */
export function runPeriodically(intervalMs: number, round: () => Promise<unknown>, onError: (error: unknown) => void): () => Promise<void> {
  let running: Promise<void> | undefined;
  const timer = setInterval(() => {
    running ??= round()
      .then(
        () => undefined,
        (error: unknown) => onError(error),
      )
      .finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}
