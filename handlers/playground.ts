// The playground: what every flag gives a context, and why, for people checking their rules.
import type { Handlers } from '../domain/handler-context.js';
import { presentFields } from '../domain/evaluation/context-input.js';
import { contextCombinations, playgroundFeature } from '../domain/playground/answers.js';
import { playgroundFlags, requireScope } from '../domain/playground/flags.js';

type Projects = string[] | '*' | undefined;

const projectsOf = (projects: Projects) => (projects === undefined || projects === '*' ? null : [...new Set(projects)]);

export const playgroundHandlers = {
  async getPlayground({ body }, { db, clientFeatures }) {
    const projects = projectsOf(body.projects);
    await requireScope(db, [body.environment], projects);
    const [flags] = await playgroundFlags(db, await clientFeatures.current(), [body.environment], projects);
    const context = presentFields(body.context);
    return { status: 200, body: { input: body, features: flags!.names.map((name) => playgroundFeature(flags!, name, context)) } };
  },

  async getAdvancedPlayground({ body }, { db, clientFeatures }) {
    const projects = projectsOf(body.projects);
    const environments = [...new Set(body.environments)];
    await requireScope(db, environments, projects);
    const perEnvironment = await playgroundFlags(db, await clientFeatures.current(), environments, projects);
    const names = perEnvironment[0]?.names ?? [];
    const contexts = contextCombinations(presentFields(body.context), names.length * environments.length);
    const features = names.map((name) => {
      const answers = perEnvironment.map((flags) => contexts.map((context) => ({ ...playgroundFeature(flags, name, context), environment: flags.environment, context })));
      const environmentsOf = Object.fromEntries(perEnvironment.map((flags, i) => [flags.environment, answers[i]!]));
      return { name, projectId: answers[0]?.[0]?.projectId ?? '', environments: environmentsOf };
    });
    return { status: 200, body: { input: body, features } };
  },
} satisfies Partial<Handlers>;
