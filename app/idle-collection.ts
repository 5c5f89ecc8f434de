// Gives memory back once a burst of load is over. V8 grows the heap under load and, unless a full collection
// happens to run, keeps the garbage (and the pages) after it: a service that answered a burst of admin reads would
// hold tens of MB it no longer uses until the next burst. When the heap holds much more than after the last full
// collection and has stopped growing (nothing much is being allocated: the service is idle), one full collection
// runs, then one of the last-resort kind: the first frees the heap's objects but keeps their pages (RSS stays where the
// burst left it), the second gives the pages back (on Node 20 it does not free the objects by itself). It needs `--expose-gc` (as `npm start` gives it); without it nothing is done.
import { performance } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';

const CHECK_MS = 2000;
/** Worth a collection: this much more heap used, or committed, than the last full collection left. */
const WORTH_BYTES = 16 * 1024 * 1024;
/**
 * Event-loop utilisation between two checks below which the load counts as over: SDK polls now and then and the
 * service's own timers (at 10,000 flags about 10%, allocating a MB a second) stay below; a burst is far above.
 */
const IDLE_UTILIZATION = 0.25;

export function startIdleCollection(): () => void {
  const gc = (globalThis as { gc?: (options?: { type: 'major'; execution: 'sync'; flavor: 'last-resort' }) => void }).gc;
  if (!gc) return () => {};
  const collect = () => {
    gc();
    gc({ type: 'major', execution: 'sync', flavor: 'last-resort' });
  };
  // Zero at first: the first quiet moment after the start collects what reading the flags left behind.
  let [usedAfter, committedAfter] = [0, 0];
  let since = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const idle = performance.eventLoopUtilization(since).utilization < IDLE_UTILIZATION;
    since = performance.eventLoopUtilization();
    const { used_heap_size: used, total_heap_size: committed } = getHeapStatistics();
    // Garbage, or pages a burst left committed (a state import's, say) that collections under load never gave back.
    if (!idle || (used - usedAfter < WORTH_BYTES && committed - committedAfter < WORTH_BYTES)) return;
    collect();
    ({ used_heap_size: usedAfter, total_heap_size: committedAfter } = getHeapStatistics());
  }, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
