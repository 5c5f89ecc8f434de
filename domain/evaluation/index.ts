// The evaluation engine: decides flags for a context exactly as Unleash's server-side SDKs do, proven against
// Unleash's client specification (tests/client-specification.test.ts).
//
//   const compiled = compileFlags(features, segments);   // once per revision
//   evaluate(compiled, 'new-checkout', { userId: '42' });  // { name, enabled, variant, impressionData }
//   explain(compiled, 'new-checkout', context);            // the playground's step-by-step view
export { compileFlags } from './compile.js';
export type { CompiledFlags, CompileOptions, FeatureInput, StrategyInput } from './compile.js';
export type { EvaluationContext } from './context.js';
export { evaluate, evaluateAll, isEnabled } from './evaluate.js';
export type { Evaluation } from './evaluate.js';
export { explain } from './explain.js';
export type {
  ConstraintExplanation,
  DependencyExplanation,
  FlagExplanation,
  SegmentExplanation,
  StrategyExplanation,
  StrategyResult,
} from './explain.js';
export { builtInStrategyNames } from './strategies.js';
export type { EvaluatedVariant } from './variants.js';
