// The functions a V8 CPU profile (node --cpu-prof) spent most time in:
//   node scripts/cpu-profile-top.mjs <file> [rows] [--during <function>]
// Self time per function and file, and inclusive time for the same rows, as percentages of the samples. With
// --during, only the samples of the busiest stretch in which that function runs (a bench phase).
import { parseArgs } from 'node:util';
import { readFileSync } from 'node:fs';

const { values, positionals } = parseArgs({ allowPositionals: true, options: { during: { type: 'string' } } });
const [file, rowsArg = '40'] = positionals;
if (!file) {
  console.error('usage: node scripts/cpu-profile-top.mjs <profile.cpuprofile> [rows] [--during <function>]');
  process.exit(2);
}
const profile = JSON.parse(readFileSync(file, 'utf8'));
const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
const parents = new Map();
for (const node of profile.nodes) for (const child of node.children ?? []) parents.set(child, node.id);

const stackHas = (id, functionName) => {
  for (let at = id; at !== undefined; at = parents.get(at)) if (nodes.get(at).callFrame.functionName === functionName) return true;
  return false;
};
let clock = profile.startTime;
const times = profile.timeDeltas.map((delta) => (clock += delta));
let [from, to] = [-Infinity, Infinity];
if (values.during) {
  const marked = times.filter((_, i) => stackHas(profile.samples[i], values.during));
  if (marked.length === 0) throw new Error(`no sample runs ${values.during}`);
  // The busiest run of such samples with no gap over a second: the bench phase, not a warm-up call before it.
  let best = [0, 0];
  for (let start = 0, i = 1; i <= marked.length; i++) {
    if (i < marked.length && marked[i] - marked[i - 1] <= 1e6) continue;
    if (i - start > best[1] - best[0]) best = [start, i];
    start = i;
  }
  [from, to] = [marked[best[0]], marked[best[1] - 1]];
  console.log(`during ${values.during}: ${((to - from) / 1e6).toFixed(1)} s`);
}

const selfSamples = new Map();
let total = 0;
profile.samples.forEach((id, i) => {
  if (times[i] < from || times[i] > to) return;
  selfSamples.set(id, (selfSamples.get(id) ?? 0) + 1);
  total++;
});

const label = ({ callFrame: { functionName, url, lineNumber } }) =>
  `${functionName || '(anonymous)'} ${url.replace(/^file:\/\/.*?\/(dist|node_modules)\//, '$1/')}:${lineNumber + 1}`;

const self = new Map();
const inclusive = new Map();
for (const [id, count] of selfSamples) {
  self.set(label(nodes.get(id)), (self.get(label(nodes.get(id))) ?? 0) + count);
  // Each label once per sample, however deep it recurses.
  const seen = new Set();
  for (let at = id; at !== undefined; at = parents.get(at)) {
    const name = label(nodes.get(at));
    if (seen.has(name)) continue;
    seen.add(name);
    inclusive.set(name, (inclusive.get(name) ?? 0) + count);
  }
}
const percent = (n) => `${((100 * n) / total).toFixed(1).padStart(5)}%`;
console.log(`${total} samples\n\n  self  incl.  function`);
for (const [name, count] of [...self].sort((a, b) => b[1] - a[1]).slice(0, Number(rowsArg))) {
  console.log(`${percent(count)} ${percent(inclusive.get(name))}  ${name}`);
}
console.log('\n incl.  function (by inclusive time)');
for (const [name, count] of [...inclusive].sort((a, b) => b[1] - a[1]).slice(0, Number(rowsArg))) console.log(`${percent(count)}  ${name}`);
