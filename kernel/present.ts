/**
 * `{[key]: value}`, or nothing when the value is null or undefined. Spread it into an answer: the contract
 * leaves out a field that has no value rather than sending null, where the interface types it as plain.
 */
export const present = <K extends string, V>(key: K, value: V | null | undefined) =>
  (value === null || value === undefined ? {} : { [key]: value }) as Partial<Record<K, V>>;
