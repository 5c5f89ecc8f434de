// An integration's `customHeaders`: a JSON object of header names to string values.
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;
/** Headers the sender sets itself or that govern its connection: undici refuses them, or they would be overridden. */
const SET_BY_SENDER = new Set(['content-length', 'host', 'transfer-encoding', 'connection', 'keep-alive', 'upgrade', 'expect', 'x-delivery-id']);

/** Why a value cannot be sent as an HTTP header (undici refuses it), or undefined; never quotes it, it may be a secret. */
export function headerValueProblem(value: string): string | undefined {
  if (/[\r\n\0]/.test(value)) return 'holds a line break';
  if (/[^\t\x20-\x7e\x80-\xff]/.test(value)) return 'holds a character an HTTP header cannot carry';
  return undefined;
}

/** Why the parsed value cannot be used as headers, naming keys only: the values are secrets. */
function headersProblem(parsed: unknown): string | undefined {
  if (parsed === null) return 'it is null';
  if (Array.isArray(parsed)) return 'it is an array';
  if (typeof parsed !== 'object') return `it is a ${typeof parsed}`;
  for (const [name, value] of Object.entries(parsed)) {
    if (!HEADER_NAME.test(name)) return `"${name}" is not a valid header name`;
    if (SET_BY_SENDER.has(name.toLowerCase())) return `"${name}" is set by the sender itself`;
    if (typeof value !== 'string') return `the value of "${name}" is not a string`;
    const problem = headerValueProblem(value);
    if (problem) return `the value of "${name}" ${problem}`;
  }
  return undefined;
}

/** The headers (names in lower case), or why the text is not a JSON object of header names to strings. */
export function parseCustomHeaders(text: string): { headers: Record<string, string> } | { problem: string } {
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Never the parser's message: it quotes the text, which holds secrets.
    return { problem: 'it is not valid JSON' };
  }
  const problem = headersProblem(parsed);
  if (problem) return { problem };
  return { headers: Object.fromEntries(Object.entries(parsed as Record<string, string>).map(([name, value]) => [name.toLowerCase(), value])) };
}
