// The headless browser the HTML report's tests and bench drive (with playwright-core), found
// without any install step: STEWARD_CHROMIUM when set; else Debian's chromium when it is there;
// else the Chromium that the @sparticuz/chromium devDependency ships inside its npm package
// (brotli-packed), unpacked once into node_modules/.cache and reused. npm ci brings it; nothing
// is downloaded at run time.
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = path.resolve(import.meta.dirname, '..');
export const SYSTEM_CHROMIUM = '/usr/bin/chromium';

// As root and on a closed network: no sandbox, no background connections. The packaged build is
// a headless shell without a GPU process; these flags suit both it and Debian's chromium.
export const CHROMIUM_ARGS = Object.freeze([
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
]);

/** Unpacks the packaged Chromium (binary, fonts, software GL) into its own folder, atomically. */
async function unpackPackaged() {
  // The package exports no package.json: its root is the folder above its entry (build/index.js).
  const packageRoot = path.resolve(path.dirname(fileURLToPath(import.meta.resolve('@sparticuz/chromium'))), '..');
  const { version } = JSON.parse(readFileSync(path.join(packageRoot, 'package.json'), 'utf8'));
  const target = path.join(ROOT, 'node_modules/.cache/steward-chromium', version);
  const binary = path.join(target, 'chromium');
  if (existsSync(binary)) return binary;
  // The package's own inflate() writes into os.tmpdir(), which reads TMPDIR on every call: point
  // it at a fresh folder, then rename that folder into place, so a killed unpack or two test
  // processes at once never leave a half-written binary where the next run would take it.
  const staging = `${target}.${process.pid}.${Date.now()}`;
  mkdirSync(staging, { recursive: true });
  const { inflate } = await import('@sparticuz/chromium');
  const bin = path.join(packageRoot, 'bin');
  const previous = process.env.TMPDIR;
  process.env.TMPDIR = staging;
  try {
    await Promise.all(['chromium.br', 'fonts.tar.br', 'swiftshader.tar.br'].map((file) => inflate(path.join(bin, file))));
  } finally {
    if (previous === undefined) delete process.env.TMPDIR;
    else process.env.TMPDIR = previous;
  }
  // The package's fonts.conf names Lambda's folders; ours names the unpacked fonts and keeps
  // the system's configuration where there is one.
  writeFileSync(
    path.join(staging, 'fonts.conf'),
    `<?xml version="1.0"?>\n<!DOCTYPE fontconfig SYSTEM "fonts.dtd">\n<fontconfig>\n` +
      `  <include ignore_missing="yes">/etc/fonts/fonts.conf</include>\n` +
      `  <dir>${path.join(target, 'fonts/fonts')}</dir>\n  <cachedir>${path.join(target, 'fonts-cache')}</cachedir>\n</fontconfig>\n`,
  );
  try {
    renameSync(staging, target);
  } catch (error) {
    rmSync(staging, { recursive: true, force: true });
    // Another process unpacked the same version first: use its copy.
    if (!existsSync(binary)) throw error;
  }
  return binary;
}

/**
 * The browser to launch and where it came from.
 * @returns {Promise<{ executablePath: string, source: 'STEWARD_CHROMIUM' | 'system' | 'package', env: Record<string, string> }>}
 */
export async function findChromium() {
  const configured = process.env.STEWARD_CHROMIUM;
  if (configured) {
    if (!existsSync(configured)) throw new Error(`STEWARD_CHROMIUM names ${configured}, which does not exist`);
    return { executablePath: configured, source: 'STEWARD_CHROMIUM', env: {} };
  }
  if (existsSync(SYSTEM_CHROMIUM)) return { executablePath: SYSTEM_CHROMIUM, source: 'system', env: {} };
  const executablePath = await unpackPackaged();
  // fontconfig reads the fonts.conf written beside the binary.
  return { executablePath, source: 'package', env: { FONTCONFIG_FILE: path.join(path.dirname(executablePath), 'fonts.conf') } };
}
