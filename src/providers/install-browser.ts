// install.ts in a browser (package.json's `browser` field): no tools outside the process there, so
// the registry's loadExecutables, connectMcp and loadPlugin say so (tools/outside.ts).
export function installProviders(): void {}
