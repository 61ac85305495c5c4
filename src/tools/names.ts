// Tool names across the wire. Nuwa names may be dotted (`math.add`, a tool of a toolset), but the
// function-calling formats of model APIs and MCP clients allow only [A-Za-z0-9_-] in a name, so a
// dotted name is exported with `__` in place of each dot (TOOLS.md §5).

/** The name a tool has in function-calling formats: `math.add` → `math__add`. */
export function exportedName(name: string): string {
  return name.replaceAll('.', '__');
}

/** The Nuwa spelling of an exported name: `math__add` → `math.add`. */
export function fromExportedName(name: string): string {
  return name.replaceAll('__', '.');
}
