// Names a flag type is also known by.
/** Other names Unleash accepts for a flag type. */
export const featureTypeAliases: Record<string, string> = { killswitch: 'kill-switch' };
