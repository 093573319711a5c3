// Writes the built-in pack as parsed (policy/builtin-pack.ts reads it): scripts/build.mjs calls
// this with the shipped files and the registry's kinds.
import { knownAstsOf, withCelEngine } from '../policy/cel.js';
import { compileAll } from '../policy/compile.js';
import { ACTION_PACK_FILE, BUILTIN_PACK_FILE, PACK_FILE_MARK, type ParsedPack, policySchemaKey } from '../policy/builtin-pack.js';
import { parsePolicyText } from '../policy/loader.js';
import type { KindRegistry } from '../policy/schema.js';

export { ACTION_PACK_FILE, BUILTIN_PACK_FILE };

/**
 * The pack's JSON: each file parsed as `parsePolicyText` parses it, with no problem (a file with
 * one is left out: the loader reports it). An expression's offsets into its YAML scalar (for
 * compile errors) are not kept: a function, and the shipped expressions compile. Each
 * expression's AST is kept too (cel.ts `addKnownAsts`).
 */
export async function builtinPackJson(files: readonly { name: string; text: string }[], kinds: KindRegistry): Promise<string> {
  const pack: ParsedPack = { schema: policySchemaKey(kinds), files: {} };
  const sources = new Set<string>();
  for (const { name, text } of files) {
    const { policies, problems } = parsePolicyText(text, name, { kinds });
    // Only a location's `file` names the file: a parameter or test value that happens to is kept.
    const json = JSON.stringify(policies, function (this: object, key: string, value: unknown) {
      return key === 'file' && 'line' in this && 'column' in this ? PACK_FILE_MARK : value;
    });
    if (problems.length > 0) continue;
    pack.files[name] = { text, policies: json };
    for (const p of await withCelEngine(() => compileAll(policies, kinds))) {
      for (const e of [p.each, p.when, p.assert, ...p.message.expressions]) if (e) sources.add(e.source);
    }
  }
  pack.known = await knownAstsOf([...sources].sort());
  return `${JSON.stringify(pack)}\n`;
}
