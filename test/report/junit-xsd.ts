// JUnit documents checked against Jenkins' junit-10.xsd by libxml2 itself (xmllint compiled to
// WASM: the `xmllint-wasm` devDependency, no system package). The XSD is read where the workplace
// keeps it (../shared/schemas), not copied into the repository.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { validateXML } from 'xmllint-wasm';

const XSD_FILE = path.resolve(import.meta.dirname, '../../../shared/schemas/junit-10.xsd');

let xsd: string | undefined;

/** libxml2's messages for `xml` against junit-10.xsd; none when the document is valid. */
export async function junitXsdProblems(xml: string): Promise<string[]> {
  xsd ??= readFileSync(XSD_FILE, 'utf8');
  const result = await validateXML({ xml: [{ fileName: 'report.xml', contents: xml }], schema: [{ fileName: 'junit-10.xsd', contents: xsd }] });
  return result.valid ? [] : result.errors.map((e) => e.rawMessage);
}
