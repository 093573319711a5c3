// The one redaction of steward: client errors and logs, CLI output, Action messages, and every
// file steward writes (reports, snapshots, baselines, saved plans). Every form in which a server
// may echo a secret it was sent becomes `***`.
import { jsonPieces } from './json-chunks.js';

/**
 * Shorter secrets are left alone: they cannot be real tokens, and replacing them would mangle
 * every message (`steward sandbox --token t`).
 */
export const MIN_REDACTED_SECRET_LENGTH = 4;

/**
 * Every form in which a server may echo a secret: as is, JSON-escaped (`a\"b` in an error body
 * quoted as an excerpt), fully `\u`-escaped (a JSON encoder escaping every character),
 * URL-encoded (an echoed request URL or form value), and base64 at each of the three byte
 * alignments it can have inside a longer encoded value (a Basic credential, an echoed header
 * dump), standard and URL-safe. Longest first, so no longer form is left half-replaced.
 */
export function secretForms(secrets: readonly (string | null | undefined)[]): string[] {
  const forms = new Set<string>();
  for (const secret of secrets) {
    if (typeof secret !== 'string' || secret.length < MIN_REDACTED_SECRET_LENGTH) continue;
    forms.add(secret);
    forms.add(JSON.stringify(secret).slice(1, -1));
    const escaped = [...secret].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    forms.add(escaped);
    forms.add(escaped.replace(/\\u([0-9a-f]{4})/g, (_, hex: string) => `\\u${hex.toUpperCase()}`));
    forms.add(encodeURIComponent(secret));
    forms.add(encodeURI(secret));
    for (const encoded of base64Forms(secret)) {
      forms.add(encoded);
      forms.add(encoded.replaceAll('+', '-').replaceAll('/', '_'));
    }
  }
  return [...forms].sort((a, b) => b.length - a.length);
}

/** Characters of texts `inAny` gathers into one piece before it searches them. */
const SCAN_PIECE = 1 << 16;

/** Shorter base64 forms (of secrets under 7 bytes) would match ordinary text by chance. */
const MIN_BASE64_FORM_LENGTH = 8;

/**
 * The base64 characters that depend on the secret's bytes alone, for each of the 3 offsets the
 * secret can start at inside a longer encoded value (characters shared with neighbouring bytes
 * are left out, so the form is found whatever surrounds it).
 */
function base64Forms(secret: string): string[] {
  const bytes = Buffer.from(secret, 'utf8');
  const forms: string[] = [];
  for (let lead = 0; lead < 3; lead++) {
    const encoded = Buffer.concat([Buffer.alloc(lead), bytes]).toString('base64');
    const firstBit = 8 * lead;
    const endBit = 8 * (lead + bytes.length);
    const first = Math.ceil(firstBit / 6);
    const end = Math.floor(endBit / 6);
    if (end - first >= MIN_BASE64_FORM_LENGTH) forms.push(encoded.slice(first, end));
  }
  return forms;
}

/**
 * The secrets of one run, built once where they are read (config and environment, the Action's
 * inputs, a sandbox started for the run) and carried to every writer: stdout, stderr, each file.
 * Each form is computed when a secret is added, not per write.
 */
export class SecretSet {
  #values: string[] = [];
  #forms: string[] = [];

  static of(...secrets: readonly (string | null | undefined)[]): SecretSet {
    return new SecretSet().add(...secrets);
  }

  /** Adds secrets (a sandbox started for the run brings its own token); returns this set. */
  add(...secrets: readonly (string | null | undefined)[]): this {
    const fresh = secrets.filter((s): s is string => typeof s === 'string' && s.length >= MIN_REDACTED_SECRET_LENGTH && !this.#values.includes(s));
    if (fresh.length === 0) return this;
    this.#values = [...this.#values, ...new Set(fresh)];
    this.#forms = secretForms(this.#values);
    return this;
  }

  /** The secrets as given (to mask them in a runner's log, or hand them to a client). */
  get values(): readonly string[] {
    return this.#values;
  }

  /**
   * Whether a form of a secret is in one of `texts`, read in pieces of whole texts (a form inside
   * one text is found; one across two may be, which only costs the caller a redaction).
   */
  inAny(texts: Iterable<string>): boolean {
    // Stryker disable next-line ConditionalExpression: with no form the scan below finds none; this spares it
    if (this.#forms.length === 0) return false;
    // Stryker disable next-line StringLiteral: a piece begun with other text finds the same forms (it holds none)
    let piece = '';
    for (const text of texts) {
      piece += `${text}\n`;
      // Stryker disable next-line ConditionalExpression,EqualityOperator: how the texts are gathered sizes the pieces, never what is found
      if (piece.length < SCAN_PIECE) continue;
      if (this.#holds(piece)) return true;
      // Stryker disable next-line StringLiteral: as above
      piece = '';
    }
    return this.#holds(piece);
  }

  #holds(text: string): boolean {
    return this.#forms.some((form) => text.includes(form));
  }

  redact(text: string): string {
    let out = text;
    for (const form of this.#forms) if (out.includes(form)) out = out.split(form).join('***');
    return out;
  }

  /**
   * A JSON value with every form of every secret replaced in every string (keys included); the
   * value itself when its JSON text holds none. The text is read piece by piece, unindented: a
   * report of 300,000 resources was one 10 MB string, then parsed again into a second report, and
   * the indented pieces of a report of 10,000 findings took 43 ms to write, these 25.
   */
  redactJson<T>(value: T): T {
    // Stryker disable next-line ConditionalExpression: with no form the scan below finds none; this spares it
    if (this.#forms.length === 0) return value;
    // A piece holds whole strings (and keys): a form in one is found within one piece.
    for (const piece of jsonPieces(value)) {
      if (this.#holds(piece)) return JSON.parse(this.redact(JSON.stringify(value))) as T;
    }
    return value;
  }
}

export function redactSecrets(text: string, secrets: readonly (string | null | undefined)[]): string {
  return SecretSet.of(...secrets).redact(text);
}

/** A JSON value with every form of every secret replaced in every string (keys included). */
export function redactJson<T>(value: T, secrets: readonly (string | null | undefined)[]): T {
  return SecretSet.of(...secrets).redactJson(value);
}
