// Modules the build script (scripts/playground.ts) makes from the repository's files.

/** The examples gallery: examples/*.nuwa in the course's order, then examples/errors/*.nuwa. */
declare module 'nuwa:examples' {
  export interface Example {
    /** The file, e.g. `examples/quickstart.nuwa`. */
    path: string;
    /** Its first comment line: what it shows. */
    title: string;
    group: 'course' | 'errors';
    source: string;
  }
  const examples: Example[];
  export default examples;
}

/** The static build's tools: the examples' tools modules (default exports), and their initial state. */
declare module 'nuwa:static-tools' {
  /** Each module's default export: a list of tool definitions, or a function given the registry. */
  export const toolModules: Array<unknown[] | ((registry: unknown) => unknown)>;
  /** JSON values, by state key. */
  export const initialState: Record<string, unknown>;
}
