// Compiling and evaluating CEL expressions: compileExpression → CompiledExpression.evaluate(bindings)
// with plain JSON in and out. Most expressions run as compiled closures (cel-closures.ts) over an
// AST that is either the built-in pack's, kept by the build (known-ast.ts), or the CEL engine's
// parse; the engine itself (cel-engine.ts, the one module that knows @bufbuild/cel) is loaded
// only when a run needs it, and a compile that needs it unloaded throws CelEngineNeeded, for
// `withCelEngine` to load it and compile again.
import type { InputProblem } from '../core/problem.js';
import { type Expr, freeIdent, selectPath, walk } from './ast.js';
import type * as CelEngine from './cel-engine.js';
import { type ClosureProgram, compileClosures } from './cel-closures.js';
import { type Bindings, CelFault, toJson } from './cel-values.js';
import { HOST_FUNCTIONS } from './host-functions.js';
import { countStep, instrument, metered, nestingProblems, type StepBudget } from './cost.js';
import { decodeKnownAst, type KnownAst } from './known-ast.js';
import { didYouMean } from './suggest.js';
import { type TypeContext, typeProblems } from './typecheck.js';

/** Where an expression's text stands, to turn an offset inside it into a file position. */
export interface ExpressionOrigin {
  file: string;
  line: number;
  column: number;
  /** Maps an offset in the expression source to its file position (default: same line). */
  at?(offset: number): { line: number; column: number };
}

export interface CompileOptions {
  /** Variables the expression may use, e.g. ['resource', 'params', 'now'] (+ 'item' with `each`). */
  variables: readonly string[];
  /** Declared parameter names: `params.x` with another x is an error. Omit to skip the check. */
  params?: readonly string[];
  /** What the value must be, when its static type shows it cannot be. */
  /** `text`: rendered in a message, where a value that may be null would print `null`. */
  expect?: 'bool' | 'list' | 'text';
  /** What `resource`, `item` and `params` are known to be (the kind's document schema, …). */
  typing?: TypeContext;
  /** 'reference' runs @bufbuild/cel's own evaluator even where the compiled closures cover the expression. */
  engine?: 'reference';
}

export type { Bindings } from './cel-values.js';

export interface CompiledExpression {
  readonly source: string;
  readonly ast: Expr;
  /** Which evaluator runs it: compiled closures, or the reference one for what they do not cover. */
  readonly engine: 'closures' | 'reference';
  /** Likely mistakes that compile (typecheck.ts's warnings), at their file positions. */
  readonly warnings: readonly InputProblem[];
  /**
   * Plain JSON in and out (CEL ints come back as numbers); throws EvaluationError, also when
   * the expression's step budget or the given resource budget runs out.
   */
  evaluate(bindings: Bindings, budget?: StepBudget): unknown;
}

/** A compile-time problem (syntax, undeclared variable, unknown function, type). */
export class ExpressionError extends Error {
  readonly problems: InputProblem[];
  constructor(problems: InputProblem[]) {
    super(problems.map((p) => p.message).join('; '));
    this.name = 'ExpressionError';
    this.problems = problems;
  }
}

/** A run-time failure (no such key, no matching overload, …). Never a pass. */
export class EvaluationError extends Error {
  readonly expression: string;
  constructor(message: string, expression: string) {
    super(message);
    this.name = 'EvaluationError';
    this.expression = expression;
  }
}

/** Operators the planner handles itself (not in the function resolver). */
const BUILTIN_OPERATORS = new Set(['_&&_', '_||_', '_?_:_', '@not_strictly_false', '@in', '_[_]', '_[?_]']);
const TYPE_NAMES = new Set(['int', 'uint', 'double', 'bool', 'string', 'bytes', 'list', 'map', 'null_type', 'type', 'dyn']);

// ---- the engine, loaded on need ---------------------------------------------------------------

let engine: typeof CelEngine | undefined;

/** Thrown by a compile that needs the CEL engine before it is loaded (`withCelEngine` loads it). */
export class CelEngineNeeded extends Error {
  constructor(why: string) {
    super(`the CEL engine is not loaded (needed ${why}): compile through withCelEngine`);
    this.name = 'CelEngineNeeded';
  }
}

/** Loads the CEL engine (once; later calls find it loaded). */
export async function loadCelEngine(): Promise<void> {
  // Stryker disable next-line StringLiteral: the bundler needs the module's path as written (a mutant is a build error)
  engine ??= await import('./cel-engine.js');
}

/** Whether this process has loaded the CEL engine (for tests of what a start loads). */
export const celEngineLoaded = (): boolean => engine !== undefined;

/** Runs `compile`; when it needed the engine, loads the engine and runs it again. */
export async function withCelEngine<T>(compile: () => T): Promise<T> {
  // Stryker disable next-line ConditionalExpression: with the engine loaded, the first compile cannot need it (time only)
  if (!engine) {
    try {
      return compile();
    } catch (e) {
      if (!(e instanceof CelEngineNeeded)) throw e;
    }
    await loadCelEngine();
  }
  return compile();
}

const needEngine = (why: string): typeof CelEngine => {
  if (!engine) throw new CelEngineNeeded(why);
  return engine;
};

/** Expressions compiled (an AST decoded or parsed, its closures made), so tests can prove each distinct one is compiled once per run. */
export const celStats = { compilations: 0 };

interface Entry {
  ast: Expr;
  positions: Record<string, number>;
  /** The compiled form, or why the reference evaluator runs instead. */
  closures: ClosureProgram | { unsupported: string };
  /** The engine's parse, made only when the engine is used for this expression. */
  parsed?: CelEngine.ParsedExpr;
  /** The reference evaluator's plan, made only when an expression runs there. */
  program?: CelEngine.Program;
}
const programs = new Map<string, Entry>();

/**
 * ASTs kept ahead of time (known-ast.ts): expression source → its AST and offsets. The build
 * stores the built-in pack's (~90 expressions); with them a run of the pack neither parses nor
 * loads the engine. A source not here is parsed by the engine.
 */
const knownAsts = new Map<string, KnownAst>();
/** The engine's function names, kept with the known ASTs: the static check needs no engine for them. */
let knownFunctions: ReadonlySet<string> | undefined;

/** Adds ASTs kept by an earlier process (`knownAstsOf`) and the engine's function names. */
export function addKnownAsts(known: { asts: Readonly<Record<string, KnownAst>>; functions: readonly string[] }): void {
  for (const [source, ast] of Object.entries(known.asts)) knownAsts.set(source, ast);
  knownFunctions = new Set(known.functions);
}

/** The ASTs of `sources` (each compiled in this process) and the engine's function names, for `addKnownAsts`. */
export async function knownAstsOf(sources: Iterable<string>): Promise<{ asts: Record<string, KnownAst>; functions: string[] }> {
  await loadCelEngine();
  const cel = engine!;
  const asts: Record<string, KnownAst> = {};
  for (const source of sources) {
    if (!programs.has(source)) throw new Error(`knownAstsOf: ${source} was not compiled`);
    asts[source] = cel.knownAstOf(source);
  }
  return { asts, functions: [...cel.functionNames()].sort() };
}

/**
 * The names of CEL's functions and methods here, operators included: the engine's, or before it
 * is loaded the list kept with the known ASTs (an expression compiled without the engine is one
 * of theirs, so the list is there).
 */
const functionNames = (): ReadonlySet<string> => (engine ? engine.functionNames() : knownFunctions!);

/** The engine's parse of an expression compiled here (parsed again when its AST was a known one). */
function parsedOf(cel: typeof CelEngine, source: string, entry: Entry): CelEngine.ParsedExpr {
  entry.parsed ??= cel.parseExpression(source).parsed;
  return entry.parsed;
}

/** `int(now)`: the one use of the clock the closures cover (epoch seconds); any other stays with the reference. */
function isIntOfNow(e: Expr): boolean {
  const k = e.exprKind;
  if (k.case !== 'callExpr' || k.value.function !== 'int' || k.value.target || k.value.args.length !== 1) return false;
  const arg = k.value.args[0].exprKind;
  return arg.case === 'identExpr' && arg.value.name === 'now';
}

/** Compiles to closures over the free variables the expression reads (`now` only as `int(now)`). */
function closuresOf(ast: Expr): Entry['closures'] {
  const reads = new Set<string>();
  let nowUses = 0;
  let intOfNow = 0;
  walk(ast, (v) => {
    const name = freeIdent(v);
    if (name !== null) reads.add(name);
    if (name === 'now') nowUses++;
    if (isIntOfNow(v.expr)) intOfNow++;
  });
  const variables = [...reads].filter((name) => name !== 'now' || nowUses === intOfNow);
  return compileClosures(ast, { variables, functions: HOST_FUNCTIONS, step: countStep, defaults: { params: {} } });
}

/** The AST of `source`: the known one, else the engine's parse (ExpressionError on a syntax error). */
function entryOf(source: string, problem: (offset: number, message: string) => InputProblem): Entry {
  const known = knownAsts.get(source);
  if (known !== undefined) {
    const { ast, positions } = decodeKnownAst(known);
    return { ast, positions, closures: closuresOf(ast) };
  }
  const cel = needEngine('to parse an expression the built-in pack does not have');
  let parsed: ReturnType<typeof cel.parseExpression>;
  try {
    parsed = cel.parseExpression(source);
  } catch (e) {
    const err = e as { rawMessage?: string; message: string; location?: { start?: { offset: number } } };
    throw new ExpressionError([problem(err.location?.start?.offset ?? 0, `CEL syntax error: ${shortSyntaxMessage(err.rawMessage ?? err.message)}`)]);
  }
  return { ast: parsed.ast, positions: parsed.positions, parsed: parsed.parsed, closures: closuresOf(parsed.ast) };
}

export function compileExpression(source: string, origin: ExpressionOrigin, options: CompileOptions): CompiledExpression {
  const position = (offset: number) =>
    origin.at ? origin.at(offset) : { line: origin.line, column: origin.column + offset };
  const problem = (offset: number, message: string): InputProblem => ({ file: origin.file, ...position(offset), message });

  let entry = programs.get(source);
  if (!entry) {
    entry = entryOf(source, problem);
    celStats.compilations++;
    programs.set(source, entry);
  }
  const { ast, positions, closures } = entry;
  const offsetOf = (e: Expr) => positions[String(e.id)] ?? 0;
  const constantProblem = (fn: 'timestamp' | 'duration' | 'matches', value: string) => needEngine(`to check a constant ${fn}()`).constantProblem(fn, value);

  const typed = typeProblems({ ast, source, positions, typing: options.typing, expect: options.expect, constantProblem });
  const problems = [
    ...[...staticCheck(ast, options), ...nestingProblems(ast)].map((p) => ({ offset: offsetOf(p.expr), message: p.message })),
    ...typed.filter((p) => !p.warning),
  ]
    .sort((a, b) => a.offset - b.offset)
    .map((p) => problem(p.offset, p.message));
  if (problems.length > 0) throw new ExpressionError(problems);
  const warnings = typed.filter((p) => p.warning).map((p) => problem(p.offset, p.message));

  if (!('unsupported' in closures) && options.engine !== 'reference') {
    const compiled = closures;
    let needsNow = false;
    walk(ast, (v) => {
      if (freeIdent(v) === 'now') needsNow = true;
    });
    return {
      source,
      ast,
      engine: 'closures',
      warnings,
      evaluate(bindings: Bindings, budget?: StepBudget): unknown {
        const variables = (needsNow && bindings.now === undefined ? { ...bindings, now: new Date() } : bindings) as Record<string, unknown>;
        try {
          // Only comprehensions count steps; without one there is nothing to meter (and no
          // closure or result object is made: this runs once per policy per resource).
          if (!compiled.loops) return toJson(compiled.run(variables));
          const result = metered(() => compiled.run(variables), budget);
          if ('exceeded' in result) throw new EvaluationError(result.exceeded, source);
          return toJson(result.value);
        } catch (e) {
          if (e instanceof CelFault) throw new EvaluationError(e.message, source);
          throw e;
        }
      },
    };
  }
  // Loop conditions count steps: the budget holds in the reference evaluator too.
  const cel = needEngine('for the reference evaluator');
  entry.program ??= cel.referenceProgram(parsedOf(cel, source, entry), instrument(ast));
  const program = entry.program;
  return {
    source,
    ast,
    engine: 'reference',
    warnings,
    evaluate(bindings: Bindings, budget?: StepBudget): unknown {
      const context = cel.referenceContext(bindings);
      const run = metered(() => cel.callReference(program, context), budget);
      if ('exceeded' in run) throw new EvaluationError(run.exceeded, source);
      const result = cel.referenceResult(run.value);
      if ('error' in result) throw new EvaluationError(result.error, source);
      return result.value;
    },
  };
}

/**
 * For `steward explain`: one node of a compiled expression (a free-standing one: no loop
 * variable in it), as text and as its value by the reference evaluator (the engine loaded:
 * an explaining run loads it, `loadCelEngine`).
 */
export function explainNode(source: string, node: Expr, bindings: Bindings): { text: string; value: unknown } | { text: string; error: string } {
  const entry = programs.get(source);
  if (!entry) throw new Error(`explainNode: ${source} was not compiled`);
  const cel = needEngine('to explain');
  return cel.explainReference(parsedOf(cel, source, entry), node, bindings);
}

/** The parser lists every token it could accept; past a few that list hides the point. */
function shortSyntaxMessage(message: string): string {
  const m = /^(found .*?) but expecting (.*)$/.exec(message);
  if (!m || m[2].split(',').length <= 3) return message;
  return `unexpected ${m[1].replace(/^found /, '')}`;
}

function staticCheck(ast: Expr, options: CompileOptions): { expr: Expr; message: string }[] {
  const found: { expr: Expr; message: string }[] = [];
  const declared = new Set(options.variables);
  walk(ast, (v) => {
    const name = freeIdent(v);
    if (name !== null && !declared.has(name) && !TYPE_NAMES.has(name)) {
      const hint = name === 'item' ? ' (`item` exists only in a policy with `each`)' : '';
      found.push({ expr: v.expr, message: `undeclared variable '${name}'${hint}; available: ${[...declared].join(', ')}` });
    }
    const k = v.expr.exprKind;
    if (k.case === 'callExpr' && !BUILTIN_OPERATORS.has(k.value.function) && !functionNames().has(k.value.function)) {
      found.push({ expr: v.expr, message: `unknown function '${k.value.function}'${didYouMean(k.value.function, [...functionNames()].filter((n) => /^[A-Za-z]/.test(n)))}` });
    }
    if (options.params && k.case === 'selectExpr') {
      const path = selectPath(v.expr, 'params');
      if (path?.length === 1 && !options.params.includes(path[0]) && freeIdentAt(v.expr, v.locals)) {
        const known = options.params.length ? options.params.join(', ') : 'none';
        found.push({ expr: v.expr, message: `undeclared parameter '${path[0]}' (declared: ${known})` });
      }
    }
  });
  return found;
}

/** The root of a select chain is the free `params`, not a comprehension variable of that name. */
function freeIdentAt(expr: Expr, locals: ReadonlySet<string>): boolean {
  let e: Expr | undefined = expr;
  while (e?.exprKind.case === 'selectExpr') e = e.exprKind.value.operand;
  return e?.exprKind.case === 'identExpr' && !locals.has(e.exprKind.value.name);
}
