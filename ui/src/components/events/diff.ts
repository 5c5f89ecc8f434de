// A before/after comparison of an event's preData and data: both flattened to their leaves, one line per leaf
// path (`strategies[0].parameters.rollout`), each leaf removed, added, changed or unchanged.

export type Leaf = { path: string; value: string };

export type DiffLine =
  | { kind: 'removed'; path: string; value: string }
  | { kind: 'added'; path: string; value: string }
  | { kind: 'unchanged'; path: string; value: string };

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** Every leaf of a JSON value with its path; an empty object or list is a leaf of its own. */
export function flatten(value: unknown, path = ''): Leaf[] {
  if (Array.isArray(value)) {
    if (value.length === 0) return [{ path, value: '[]' }];
    return value.flatMap((item, i) => flatten(item, `${path}[${i}]`));
  }
  if (isObject(value)) {
    const entries = Object.entries(value);
    if (entries.length === 0) return [{ path, value: '{}' }];
    return entries.flatMap(([key, item]) => flatten(item, path ? `${path}.${key}` : key));
  }
  return [{ path, value: JSON.stringify(value) ?? 'undefined' }];
}

/**
 * The lines of the comparison, in the order the fields come (before's order, then fields only after has): a changed
 * leaf is its old value removed and its new value added.
 */
export function diff(before: unknown, after: unknown): DiffLine[] {
  const old = before === null || before === undefined ? [] : flatten(before);
  const now = after === null || after === undefined ? [] : flatten(after);
  const nowByPath = new Map(now.map((leaf) => [leaf.path, leaf.value]));
  const oldPaths = new Set(old.map((leaf) => leaf.path));
  const lines: DiffLine[] = [];
  for (const leaf of old) {
    const value = nowByPath.get(leaf.path);
    if (value === leaf.value) lines.push({ kind: 'unchanged', ...leaf });
    else {
      lines.push({ kind: 'removed', ...leaf });
      if (value !== undefined) lines.push({ kind: 'added', path: leaf.path, value });
    }
  }
  for (const leaf of now) if (!oldPaths.has(leaf.path)) lines.push({ kind: 'added', ...leaf });
  return lines;
}
