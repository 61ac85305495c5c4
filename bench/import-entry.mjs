// Loads the package's main entry by its name, as a host does (package.json "exports"; from inside
// the package the name resolves to the package itself), and nothing else: bench/run.mjs times this
// process against `node -e 0`.
import 'nuwa-script';
