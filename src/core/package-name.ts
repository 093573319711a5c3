// The npm package name: scoped, so `npx` can never run an unrelated package that later takes
// the unscoped name. The package root is found by it (built-in pack, demo, version).
export const PACKAGE_NAME = '@steward-pac/steward';
