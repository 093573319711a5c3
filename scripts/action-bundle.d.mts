// Types of action-bundle.mjs for the TypeScript tests that import it.
import type { BuildOptions } from 'esbuild';

export declare const ROOT: string;
export declare const ACTION_ENTRY: string;
export declare const ACTION_DIR: string;
export declare const ACTION_BUNDLE: string;
export declare const ACTION_OUTPUT: RegExp;
export declare const actionBundleOptions: Readonly<BuildOptions>;
export declare function buildActionBundle(options?: { write?: boolean }): Promise<Map<string, string>>;
