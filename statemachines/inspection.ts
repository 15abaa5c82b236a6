import { readFileSync } from 'node:fs';

/** The one ASL file: CDK deploys it, the local orchestrator runs it. */
export const INSPECTION_ASL_PATH = new URL('./inspection.asl.json', import.meta.url);

/** The placeholders CDK fills through DefinitionSubstitutions. */
export interface InspectionSubstitutions {
  StageFunctionArn: string;
}

export function readInspectionDefinition(): string {
  return readFileSync(INSPECTION_ASL_PATH, 'utf8');
}

/** `${Name}` → value, the way Step Functions applies DefinitionSubstitutions; an unfilled placeholder is an error. */
export function substitute(definition: string, substitutions: InspectionSubstitutions | Readonly<Record<string, string>>): string {
  const filled = definition.replace(/\$\{([A-Za-z0-9_]+)\}/g, (match, name: string) => {
    const value = (substitutions as Readonly<Record<string, string | undefined>>)[name];
    if (value === undefined) throw new Error(`no substitution for ${match} in the state machine definition`);
    return value;
  });
  return filled;
}
