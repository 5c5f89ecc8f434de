// A `bodyTemplate` rendered within limits. Mustache renders on the event loop, and sections nested over the
// event's lists multiply: unbounded, one template froze the service for seconds at every attempt.
import Mustache, { type PartialsOrLookupFn, type RenderOptions } from 'mustache';

/** The largest body a template may render, in bytes. */
export const RENDERED_LIMIT = 1024 * 1024;
/** Sections (and inverted sections) nested deeper than this are refused. */
export const SECTION_DEPTH_LIMIT = 8;
/** The most tags one render may process, each section's every iteration counted: it keeps a render short. */
export const RENDER_STEP_LIMIT = 50_000;

/** The template cannot be rendered within the limits; the same event would fail the same way again. */
export class TemplateLimitError extends Error {}

type Token = string[] & { 4?: Token[] };
type Context = InstanceType<typeof Mustache.Context>;

const LEAVES = new Set(['text', 'name', '&']);
const tooLarge = `the bodyTemplate renders more than 1 MB (${RENDERED_LIMIT} bytes); send less of the event.`;

function nestedTooDeep(tokens: Token[], depth: number): boolean {
  return tokens.some((token) => (token[0] === '#' || token[0] === '^') && (depth >= SECTION_DEPTH_LIMIT || nestedTooDeep(token[4] ?? [], depth + 1)));
}

const depthProblem = (tokens: Token[]) =>
  nestedTooDeep(tokens, 0) ? `its sections are nested more than ${SECTION_DEPTH_LIMIT} deep; flatten the template.` : undefined;

/** Counts the work of one render and stops it once past the limits. */
class BoundedWriter extends Mustache.Writer {
  private steps = 0;
  private written = 0;

  override renderTokens(tokens: Token[], context: Context, partials?: PartialsOrLookupFn, template?: string, config?: RenderOptions): string {
    this.step();
    let buffer = '';
    for (const token of tokens) {
      this.step();
      const value = super.renderTokens([token], context, partials, template, config);
      if (LEAVES.has(token[0]!)) this.written += value.length;
      if (this.written > RENDERED_LIMIT) throw new TemplateLimitError(tooLarge);
      buffer += value;
    }
    return buffer;
  }

  private step() {
    if (++this.steps > RENDER_STEP_LIMIT) {
      throw new TemplateLimitError(`the bodyTemplate needs more than ${RENDER_STEP_LIMIT} steps to render (its sections iterate over the event's lists too often); nest fewer sections.`);
    }
  }
}

/**
 * Why the template can never be rendered within the limits, or undefined when it may be (whether it is depends on
 * the event). Throws Mustache's own error when the template does not parse.
 */
export function templateProblem(template: string): string | undefined {
  return depthProblem(new Mustache.Writer().parse(template) as Token[]);
}

/** The template rendered with the view; a TemplateLimitError once it passes the limits. */
export function renderBounded(template: string, view: object): string {
  const writer = new BoundedWriter();
  const tokens = writer.parse(template) as Token[];
  const problem = depthProblem(tokens);
  if (problem) throw new TemplateLimitError(`the bodyTemplate cannot be rendered: ${problem}`);
  const rendered = writer.renderTokens(tokens, new Mustache.Context(view), undefined, template);
  if (Buffer.byteLength(rendered) > RENDERED_LIMIT) throw new TemplateLimitError(tooLarge);
  return rendered;
}
