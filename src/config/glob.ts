// A small glob over fs.readdirSync: Node 20 has no fs.globSync. Supports `*` and `?` inside
// one path segment and `**` for any number of directories; a pattern without them is a
// literal path, and a literal directory stands for the *.yaml / *.yml files in it.
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

const MAGIC = /[*?]/;

function segmentRegex(segment: string): RegExp {
  const body = segment.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*').replace(/\?/g, '[^/]');
  return new RegExp(`^${body}$`);
}

function isDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

function listDir(dir: string): string[] {
  try {
    return readdirSync(dir).sort();
  } catch {
    return [];
  }
}

/** Whether the pattern contains glob characters. */
export function hasMagic(pattern: string): boolean {
  return MAGIC.test(pattern);
}

/** Absolute, sorted, de-duplicated files matching `pattern` (relative to `baseDir`). */
export function expandGlob(pattern: string, baseDir: string): string[] {
  const absolute = path.resolve(baseDir, pattern);
  if (!hasMagic(pattern)) {
    if (isDir(absolute)) {
      return listDir(absolute)
        .filter((n) => /\.ya?ml$/.test(n))
        .map((n) => path.join(absolute, n))
        .filter((p) => !isDir(p));
    }
    return existsSync(absolute) ? [absolute] : [];
  }
  const { root } = path.parse(absolute);
  const segments = absolute.slice(root.length).split(path.sep).filter(Boolean);
  const found = new Set<string>();
  const walk = (dir: string, i: number): void => {
    if (i === segments.length) {
      if (!isDir(dir) && existsSync(dir)) found.add(dir);
      return;
    }
    const segment = segments[i];
    if (segment === '**') {
      walk(dir, i + 1);
      for (const name of listDir(dir)) {
        const child = path.join(dir, name);
        if (isDir(child)) walk(child, i);
      }
    } else if (MAGIC.test(segment)) {
      const re = segmentRegex(segment);
      for (const name of listDir(dir)) if (re.test(name)) walk(path.join(dir, name), i + 1);
    } else {
      walk(path.join(dir, segment), i + 1);
    }
  };
  walk(root, 0);
  return [...found].sort();
}
