export interface MutationGroup {
  name: string;
  mutate: string[];
  tests: string[];
}
export const MUTATION_GROUPS: MutationGroup[];
export function currentGroup(): MutationGroup | undefined;
