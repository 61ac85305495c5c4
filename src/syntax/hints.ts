// "Did you mean" knowledge shared by syntax errors and runtime errors: the mistakes a model or a
// person coming from another language makes most often in Nuwa Script.
import { KEYWORDS } from './tokens.js';

const KEYWORD_SET = new Set<string>(KEYWORDS);
const LITERALS: Record<string, string> = { TRUE: 'true', FALSE: 'false', NULL: 'null', True: 'true', False: 'false', None: 'null', Null: 'null', nil: 'null', undefined: 'null' };
const MISSING_CONSTRUCTS: Record<string, string> = {
  ELSEIF: 'there is no ELSEIF: write ELSE IF ... END, each IF with its own END',
  ELIF: 'there is no ELIF: write ELSE IF ... END, each IF with its own END',
  ELSIF: 'there is no ELSIF: write ELSE IF ... END, each IF with its own END',
  WHILE: 'there is no WHILE loop: use FOR x IN list DO ... END',
  RETURN: 'there is no RETURN: a script ends after its last statement',
  FUNCTION: 'scripts cannot define functions: use the built-ins and tools',
  DEF: 'scripts cannot define functions: use the built-ins and tools',
};

/** A hint when `name` looks like a keyword, literal or construct written the wrong way. */
export function nameHint(name: string): string | undefined {
  const upper = name.toUpperCase();
  if (name !== upper && KEYWORD_SET.has(upper)) return `keywords are uppercase: write \`${upper}\``;
  const literal = LITERALS[name];
  if (literal) return `literals are lowercase: write \`${literal}\``;
  return MISSING_CONSTRUCTS[upper];
}
