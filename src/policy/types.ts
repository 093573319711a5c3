// A policy as loaded from a policy file (DESIGN §6), with the source positions every error
// and every live-kind finding points at.
import type { Enforcement, Severity, SourceLocation } from '../core/model.js';
import type { ExpressionOrigin } from './cel.js';

export interface PolicyTest {
  name: string;
  resource: Record<string, unknown>;
  params?: Record<string, unknown>;
  /** Expected number of violations. */
  violations: number;
  location: SourceLocation;
}

/** The fields of a policy that are expressions (message: a template of them). */
export const EXPRESSION_FIELDS = ['each', 'when', 'assert', 'message'] as const;
export type ExpressionField = (typeof EXPRESSION_FIELDS)[number];

export interface PolicyDefinition {
  id: string;
  title: string;
  description: string;
  severity: Severity;
  resource: string;
  each?: string;
  when?: string;
  assert: string;
  message: string;
  params: Record<string, unknown>;
  fix?: Record<string, unknown>;
  tags: string[];
  /** `hard` unless the file says otherwise; the config may override it per id. */
  enforcement: Enforcement;
  /** Control ids per framework, e.g. { SOC2: ['CC6.1'], ISO27001: ['5.15'] }. */
  controls: Record<string, string[]>;
  tests: PolicyTest[];
  /** Where `- id:` of this policy stands. */
  location: SourceLocation;
  /** Index, in the path list given to loadPolicies, of the entry that named this policy's file. */
  pathIndex?: number;
  /**
   * Where that entry is written (the `policies` item of steward.yaml, or `--policies`); null
   * when nobody named it (the default pack). Filled by the run, not by the loader.
   */
  origin?: SourceLocation | null;
  /** The npm package (and its version) that brought the policy in, when a pack by name did. Filled by the run. */
  source?: { package: string; version: string } | null;
  /** Position of each field's value, e.g. fieldLocations.assert. */
  fieldLocations: Partial<Record<string, SourceLocation>>;
  /** Where each expression's text stands, down to the offset inside it (compile errors point there). */
  expressionOrigins?: Partial<Record<ExpressionField, ExpressionOrigin>>;
}
