// The editor: CodeMirror 6 with the Nuwa language (language.ts), each token class as a CSS class of
// its own (`nuwa-keyword`, `nuwa-tool`, ...), completion (completion.ts), the checker's problems
// underlined as you type (the message on hover; `onProblems` gets them for the page's list), and
// the line where a run failed marked until the text changes.
import { autocompletion, closeBrackets, closeBracketsKeymap, completionKeymap } from '@codemirror/autocomplete';
import { defaultKeymap, history, historyKeymap, indentWithTab } from '@codemirror/commands';
import { bracketMatching, indentOnInput, indentUnit, StreamLanguage, syntaxHighlighting } from '@codemirror/language';
import { linter, lintGutter, lintKeymap, type Diagnostic } from '@codemirror/lint';
import { EditorState, StateEffect, StateField } from '@codemirror/state';
import { Decoration, drawSelection, EditorView, highlightActiveLine, highlightActiveLineGutter, keymap, lineNumbers, type DecorationSet } from '@codemirror/view';
import { tagHighlighter } from '@lezer/highlight';
import { check } from '../../check/check.js';
import type { Problem } from '../../check/problems.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { TokenClass } from '../../cli/highlight.js';
import { nuwaCompletion, type CompletionData } from './completion.js';
import { CLASS_TAGS, nuwaStreamParser } from './language.js';
import { rangeAt } from './positions.js';

export const nuwaLanguage = StreamLanguage.define(nuwaStreamParser);

const nuwaHighlighter = tagHighlighter((Object.entries(CLASS_TAGS) as Array<[TokenClass, (typeof CLASS_TAGS)[TokenClass]]>).map(([kind, tag]) => ({ tag, class: `nuwa-${kind}` })));

/** Marks the line (and the token) where a run failed; null clears the mark. */
export const markError = StateEffect.define<{ line: number; column: number } | null>();

const errorMarks = StateField.define<DecorationSet>({
  create: () => Decoration.none,
  update(marks, transaction) {
    for (const effect of transaction.effects) {
      if (!effect.is(markError)) continue;
      if (effect.value === null) return Decoration.none;
      const { doc } = transaction.state;
      const { from, to } = rangeAt(doc, effect.value.line, effect.value.column);
      const line = doc.lineAt(from);
      const ranges = [Decoration.line({ class: 'cm-nuwa-error-line' }).range(line.from)];
      if (to > from) ranges.push(Decoration.mark({ class: 'cm-nuwa-error-at' }).range(from, to));
      return Decoration.set(ranges, true);
    }
    // The mark belongs to the text that ran: an edit makes it stale.
    return transaction.docChanged ? Decoration.none : marks;
  },
  provide: (field) => EditorView.decorations.from(field),
});

export interface EditorOptions {
  parent: HTMLElement;
  doc: string;
  completion: CompletionData;
  /** The tools the checker checks calls against, and the names of the initial variables. */
  checking: () => { registry: ToolRegistry; variables: string[] };
  onProblems(problems: Problem[]): void;
  onChange(source: string): void;
  run(): void;
}

/** The checker's problems as diagnostics: each underlines the token at its position. */
function diagnosticsOf(state: EditorState, problems: Problem[]): Diagnostic[] {
  return problems.map((problem) => {
    const { from, to } = rangeAt(state.doc, problem.line, problem.column);
    return { from, to, severity: problem.severity, source: problem.kind, message: problem.message };
  });
}

export function createEditor(options: EditorOptions): EditorView {
  const lint = linter(
    (view) => {
      const { registry, variables } = options.checking();
      const problems = check(view.state.doc.toString(), registry, { variables });
      options.onProblems(problems);
      return diagnosticsOf(view.state, problems);
    },
    { delay: 250 },
  );
  return new EditorView({
    parent: options.parent,
    state: EditorState.create({
      doc: options.doc,
      extensions: [
        lineNumbers(),
        highlightActiveLineGutter(),
        highlightActiveLine(),
        history(),
        drawSelection(),
        indentUnit.of('  '),
        indentOnInput(),
        bracketMatching(),
        closeBrackets(),
        nuwaLanguage,
        syntaxHighlighting(nuwaHighlighter),
        autocompletion({ override: [nuwaCompletion(options.completion)], icons: true }),
        lint,
        lintGutter(),
        errorMarks,
        keymap.of([
          { key: 'Mod-Enter', run: () => (options.run(), true) },
          ...closeBracketsKeymap,
          ...defaultKeymap,
          ...historyKeymap,
          ...completionKeymap,
          ...lintKeymap,
          indentWithTab,
        ]),
        EditorView.updateListener.of((update) => {
          if (update.docChanged) options.onChange(update.state.doc.toString());
        }),
        EditorView.contentAttributes.of({ 'aria-label': 'Nuwa Script' }),
      ],
    }),
  });
}

/** Replaces the whole text (an example, a shared link). */
export function setText(view: EditorView, text: string): void {
  view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: 0 }, effects: markError.of(null) });
}
