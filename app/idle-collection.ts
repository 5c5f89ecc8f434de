// Gives memory back once a burst of load is over. V8 grows the heap under load and, unless a full collection
// happens to run, keeps the garbage (and the pages) after it: a service that answered a burst of admin reads would
// hold tens of MB it no longer uses until the next burst. When the heap holds much more than after the last full
// collection and has stopped growing (nothing much is being allocated: the service is idle), one full collection
// runs. It needs `--expose-gc` (as `npm start` gives it); without it nothing is done.
import { getHeapStatistics } from 'node:v8';

const CHECK_MS = 2000;
/** Garbage worth a collection: this much above what the last full collection left. */
const WORTH_BYTES = 16 * 1024 * 1024;
/** Allocation between two checks below which the process counts as idle. */
const IDLE_BYTES = 1024 * 1024;

export function startIdleCollection(): () => void {
  const collect = (globalThis as { gc?: () => void }).gc;
  if (!collect) return () => {};
  const used = () => getHeapStatistics().used_heap_size;
  // Zero at first: the first quiet moment after the start collects what reading the flags left behind.
  let afterCollection = 0;
  let previous = used();
  const timer = setInterval(() => {
    const now = used();
    const idle = Math.abs(now - previous) < IDLE_BYTES;
    previous = now;
    if (!idle || now - afterCollection < WORTH_BYTES) return;
    collect();
    afterCollection = previous = used();
  }, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
