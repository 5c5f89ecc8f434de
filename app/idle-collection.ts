// Gives memory back once a burst of load is over. V8 grows the heap under load and, unless a full collection
// happens to run, keeps the garbage (and the pages) after it: a service that answered a burst of admin reads would
// hold tens of MB it no longer uses until the next burst. V8's own memory reducer gets there, but only ~10 s after
// a full collection, and none may come. So when the event loop has been nearly idle since the last look:
// - if the heap holds much more than after the last full collection, one full collection runs;
// - once it has been idle for a few seconds, if the young generation is still at its full size, one more runs: V8
//   shrinks the young generation in a full collection only when the allocation rate of the last ~5 s is low, which
//   the first one's (still holding the load) was not.
// Idleness is read from the event loop, not from the heap: under load the young generation empties and refills,
// so two looks at the heap's size can agree by chance, and a full collection then paused every request in flight.
// Both compact the whole heap, as the memory reducer's do: a plain full collection moves objects off only the
// emptiest pages, and left ~15 MB of pages a tenth used after a burst of load at 10,000 flags.
// It needs `--expose-gc` (as `npm start` gives it); without it nothing is done.
import { performance } from 'node:perf_hooks';
import { getHeapSpaceStatistics, getHeapStatistics, setFlagsFromString } from 'node:v8';

const CHECK_MS = 1000;
/** Garbage worth a collection: this much above what the last full collection left. */
const WORTH_BYTES = 16 * 1024 * 1024;
/** The share of time the event loop may have been busy between two checks for the process to count as idle. */
const IDLE_UTILIZATION = 0.02;
/** Idle this long, the allocation rate V8 looks back at no longer holds the load. */
const QUIET_MS = 6000;
/** A young generation this large after a full collection has not been shrunk yet. */
const UNSHRUNK_YOUNG_BYTES = 4 * 1024 * 1024;

const youngGenerationSize = () => getHeapSpaceStatistics().find((space) => space.space_name === 'new_space')?.space_size ?? 0;

/** A full collection that compacts every page it can: the flag is read by the collection only, and set back after it. */
function compactingCollection(gc: () => void): void {
  setFlagsFromString('--compact-on-every-full-gc');
  try {
    gc();
  } finally {
    setFlagsFromString('--no-compact-on-every-full-gc');
  }
}

export function startIdleCollection(): () => void {
  const gc = (globalThis as { gc?: () => void }).gc;
  if (!gc) return () => {};
  const collect = () => compactingCollection(gc);
  const used = () => getHeapStatistics().used_heap_size;
  // Zero at first: the first quiet moment after the start collects what reading the flags left behind.
  let afterCollection = 0;
  let shrinkYoung = false;
  let idleSince: number | undefined;
  let previous = performance.eventLoopUtilization();
  const timer = setInterval(() => {
    const now = performance.now();
    const idle = performance.eventLoopUtilization(previous).utilization <= IDLE_UTILIZATION;
    previous = performance.eventLoopUtilization();
    if (!idle) {
      idleSince = undefined;
      return;
    }
    idleSince ??= now - CHECK_MS;
    if (used() - afterCollection >= WORTH_BYTES) {
      collect();
      shrinkYoung = true;
    } else if (shrinkYoung && now - idleSince >= QUIET_MS) {
      if (youngGenerationSize() > UNSHRUNK_YOUNG_BYTES) collect();
      shrinkYoung = false;
    } else {
      return;
    }
    afterCollection = used();
    previous = performance.eventLoopUtilization();
  }, CHECK_MS);
  timer.unref();
  return () => clearInterval(timer);
}
