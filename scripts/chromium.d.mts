// Types of chromium.mjs for the TypeScript tests that import it.
export declare const SYSTEM_CHROMIUM: string;
export declare const CHROMIUM_ARGS: readonly string[];
export declare function findChromium(): Promise<{
  executablePath: string;
  source: 'STEWARD_CHROMIUM' | 'system' | 'package';
  env: Record<string, string>;
}>;
