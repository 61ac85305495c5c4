// The playground page: an editor, Run / Plan / Reset, the examples, and the panels that show what
// happened. The interpreter runs here, in the page; where tools run is the backend's business
// (backend.ts: on the `nuwa playground` server, or in the page for the static build). The script
// lives in the URL fragment (fragment.ts), so the address bar always holds a link that shares it.
import type { EditorView } from '@codemirror/view';
import examples, { type Example } from 'nuwa:examples';
import { Interpreter } from '../../api/interpreter.js';
import { plan } from '../../check/check.js';
import type { Problem } from '../../check/problems.js';
import { isNuwaError } from '../../errors.js';
import type { JsonValue } from '../../values/json.js';
import { formatError } from '../../cli/report.js';
import type { ApprovalRequest } from '../../tools/types.js';
import type { PageConfig } from '../protocol.js';
import { serverBackend, shownError, staticBackend, type Backend, type PageHooks } from './backend.js';
import { boundNames } from './completion.js';
import { approvalView, h, planView, problemView, showValues } from './dom.js';
import { createEditor, markError, setText } from './editor.js';
import { fragmentFor, scriptFrom } from './fragment.js';
import { offsetOf } from './positions.js';

/** The name errors are reported under (`playground:3:9: TypeError: ...`). */
const FILE_NAME = 'playground';
/** The output lines shown for one run. */
const MAX_SHOWN_LINES = 5000;

class Playground {
  private readonly output = h('div', { id: 'output', class: 'output', 'aria-live': 'polite' });
  private readonly variables = h('pre', { id: 'variables', class: 'values' });
  private readonly state = h('pre', { id: 'state', class: 'values' });
  private readonly problems = h('ul', { id: 'problems', class: 'problems' });
  private readonly problemCount = h('span', { class: 'count' });
  private readonly planPanel = h('section', { id: 'plan-panel', class: 'panel', hidden: true });
  private readonly runButton = h('button', { id: 'run', class: 'primary', title: 'Run the script (Ctrl-Enter)', onclick: () => void this.run() }, 'Run');
  private readonly shareNote = h('span', { class: 'share-note', 'aria-live': 'polite' });
  private readonly view: EditorView;
  /** The last run's variables, for completion after `name.`. */
  private lastVariables: Record<string, JsonValue> = {};
  private running: AbortController | undefined;
  private shownLines = 0;

  constructor(
    private readonly backend: Backend,
    root: HTMLElement,
  ) {
    const examplesMenu = this.examplesMenu();
    const editorHost = h('div', { id: 'editor', class: 'editor' });
    root.append(
      h(
        'header',
        { class: 'bar' },
        h('h1', {}, 'Nuwa Script ', h('span', {}, 'playground')),
        this.runButton,
        h('button', { id: 'plan', title: 'Show every call the script can make, before anything runs', onclick: () => this.showPlan() }, 'Plan'),
        h('button', { id: 'reset', title: 'Clear the output and go back to the initial state', onclick: () => void this.reset() }, 'Reset'),
        examplesMenu,
        h('button', { id: 'share', title: 'Copy a link to this script', onclick: () => void this.share() }, 'Share'),
        this.shareNote,
        h('span', { class: 'where' }, backend.where),
      ),
      h(
        'main',
        {},
        h(
          'div',
          { class: 'column' },
          editorHost,
          h('section', { class: 'panel problems-panel' }, h('h2', {}, 'Problems ', this.problemCount), this.problems),
        ),
        h(
          'div',
          { class: 'column' },
          this.planPanel,
          h('section', { class: 'panel' }, h('h2', {}, 'Output'), this.output),
          h('section', { class: 'panel' }, h('h2', {}, 'Variables'), this.variables),
          h('section', { class: 'panel' }, h('h2', {}, 'State'), this.state),
          this.toolsPanel(),
        ),
      ),
    );
    this.view = createEditor({
      parent: editorHost,
      doc: scriptFrom(location.hash) ?? this.firstExample().source,
      completion: {
        registry: backend.registry,
        variables: () => {
          const known: Record<string, JsonValue> = { ...backend.variables };
          for (const name of boundNames(this.view.state.doc.toString())) known[name] ??= null;
          return { ...known, ...this.lastVariables };
        },
      },
      checking: () => ({ registry: backend.registry, variables: Object.keys(backend.variables) }),
      onProblems: (problems) => this.showProblems(problems),
      onChange: (source) => {
        history.replaceState(null, '', fragmentFor(source));
        this.planPanel.hidden = true; // it was the plan of another text
      },
      run: () => void this.run(),
    });
    history.replaceState(null, '', fragmentFor(this.view.state.doc.toString()));
    // Back and forward through examples loaded from the gallery, and links pasted into this tab.
    window.addEventListener('popstate', () => this.loadFragment());
    window.addEventListener('hashchange', () => this.loadFragment());
    this.variables.textContent = showValues({}, 'Run the script to see its variables.');
    for (const { source, reason } of backend.failures) this.note(`not loaded: ${source}: ${reason}`, 'warn');
    void this.refreshState();
    this.view.focus();
  }

  private loadFragment(): void {
    const script = scriptFrom(location.hash);
    if (script !== undefined && script !== this.view.state.doc.toString()) setText(this.view, script);
  }

  /** The course's quick start when its tools are here, else the first example that needs none. */
  private firstExample(): Example {
    const quickstart = examples.find((example) => example.path === 'examples/quickstart.nuwa');
    const hello = examples.find((example) => example.path === 'examples/hello.nuwa') ?? examples[0]!;
    const callsKnownTools = (example: Example) => [...example.source.matchAll(/CALL\s+([A-Za-z_][\w.]*)/g)].every((m) => this.backend.registry.has(m[1]!));
    return quickstart && callsKnownTools(quickstart) ? quickstart : hello;
  }

  // --- running ----------------------------------------------------------------------------------

  private async run(): Promise<void> {
    if (this.running) {
      this.running.abort();
      return;
    }
    const controller = new AbortController();
    this.running = controller;
    this.runButton.textContent = 'Stop';
    this.runButton.classList.add('running');
    this.output.replaceChildren();
    this.shownLines = 0;
    this.view.dispatch({ effects: markError.of(null) });
    const source = this.view.state.doc.toString();
    const interpreter = new Interpreter(this.backend.registry, {
      print: (line) => this.line(line),
      limits: this.backend.limits,
      logger: { debug: () => {}, info: (message) => this.note(message), warn: (message) => this.note(message, 'warn'), error: (message) => this.note(message, 'error') },
      ...this.backend.runOptions(controller.signal),
    });
    try {
      const result = await interpreter.run(source, { variables: this.backend.variables, signal: controller.signal, fileName: FILE_NAME });
      this.lastVariables = result.variables;
      this.variables.textContent = showValues(result.variables, 'No variables.');
      const { steps, toolCalls, durationMs } = result.stats;
      this.output.append(h('div', { class: 'done' }, `Done: ${steps} step${steps === 1 ? '' : 's'}, ${toolCalls} tool call${toolCalls === 1 ? '' : 's'}, ${durationMs.toFixed(1)} ms`));
    } catch (thrown) {
      if (!isNuwaError(thrown)) {
        // Not the script's failure: the page's own (a bug). Said plainly, never lost in the console.
        this.output.append(h('pre', { class: 'error', role: 'alert' }, `The playground failed: ${thrown instanceof Error ? thrown.message : String(thrown)}`));
        return;
      }
      const error = shownError(thrown);
      this.lastVariables = error.variables ?? {};
      this.variables.textContent = showValues(this.lastVariables, 'No variables.');
      this.output.append(h('pre', { class: 'error', role: 'alert' }, formatError(error, source, FILE_NAME, false).trimEnd()));
      const at = error.kind === 'SyntaxError' && error.errors?.[0] ? error.errors[0] : error;
      if (at.line !== undefined) this.goTo(at.line, at.column ?? 1, true);
    } finally {
      this.running = undefined;
      this.runButton.textContent = 'Run';
      this.runButton.classList.remove('running');
      this.output.scrollTop = this.output.scrollHeight;
      await this.refreshState();
    }
  }

  private line(text: string): void {
    // A page of a few thousand lines stays quick; the rest is counted (the run keeps all of it).
    if (this.shownLines < MAX_SHOWN_LINES) this.output.append(h('div', { class: 'line' }, text));
    else if (this.shownLines === MAX_SHOWN_LINES) this.output.append(h('div', { class: 'note' }, `more lines than the page shows (${MAX_SHOWN_LINES}): the rest is left out`));
    this.shownLines++;
  }

  /** A line about the run that is not output (approvals, tools' log messages). */
  note(text: string, level: 'info' | 'warn' | 'error' = 'info'): void {
    this.output.append(h('div', { class: `note note-${level}` }, text));
  }

  /** Asks in the page whether a call may run (the server asks, or the page's own interpreter). */
  readonly approve = async (request: ApprovalRequest, signal: AbortSignal): Promise<boolean> => {
    const { element, answer } = approvalView(request, signal);
    this.output.append(element);
    element.querySelector('button')?.focus();
    const approved = await answer;
    element.replaceWith(h('div', { class: `note note-${approved ? 'info' : 'warn'}` }, `${request.toolName}: ${approved ? 'approved' : 'denied'}`));
    return approved;
  };

  private showPlan(): void {
    const source = this.view.state.doc.toString();
    const preview = plan(source, this.backend.registry, { variables: Object.keys(this.backend.variables) });
    this.planPanel.replaceChildren(h('h2', {}, 'Plan'), planView(preview, (line, column) => this.goTo(line, column)));
    this.planPanel.hidden = false;
  }

  private async reset(): Promise<void> {
    this.running?.abort();
    this.output.replaceChildren();
    this.planPanel.hidden = true;
    this.lastVariables = {};
    this.variables.textContent = showValues({}, 'Run the script to see its variables.');
    this.view.dispatch({ effects: markError.of(null) });
    try {
      this.showState(await this.backend.reset());
      this.note('Reset: the state is back to where it started.');
    } catch (error) {
      this.note(`The state could not be reset: ${(error as Error).message}`, 'error');
    }
  }

  private async refreshState(): Promise<void> {
    try {
      this.showState(await this.backend.state());
    } catch (error) {
      this.state.textContent = `The state could not be read: ${(error as Error).message}`;
    }
  }

  private showState(state: Record<string, JsonValue>): void {
    this.state.textContent = showValues(state, 'The session state is empty.');
  }

  // --- the editor around -------------------------------------------------------------------------

  private showProblems(problems: Problem[]): void {
    this.problems.replaceChildren(...problems.map((problem) => problemView(problem, (line, column) => this.goTo(line, column))));
    if (problems.length === 0) this.problems.append(h('li', { class: 'problem-none' }, 'No problems found.'));
    const errors = problems.filter((problem) => problem.severity === 'error').length;
    const warnings = problems.length - errors;
    this.problemCount.textContent = problems.length === 0 ? '' : [errors && `${errors} error${errors === 1 ? '' : 's'}`, warnings && `${warnings} warning${warnings === 1 ? '' : 's'}`].filter(Boolean).join(', ');
  }

  /** Moves the cursor to a position (and marks the line when a run failed there). */
  private goTo(line: number, column: number, failed = false): void {
    const at = offsetOf(this.view.state.doc, line, column);
    this.view.dispatch({ selection: { anchor: at }, scrollIntoView: true, effects: failed ? markError.of({ line, column }) : [] });
    if (!failed) this.view.focus();
  }

  private async share(): Promise<void> {
    const link = location.href;
    try {
      await navigator.clipboard.writeText(link);
      this.shareNote.textContent = 'Link copied: it opens this script.';
    } catch {
      this.shareNote.textContent = 'The address bar holds the link to this script.';
    }
    setTimeout(() => (this.shareNote.textContent = ''), 4000);
  }

  private examplesMenu(): HTMLElement {
    const list = h('div', { id: 'examples', class: 'menu-list', role: 'menu', hidden: true });
    const button = h('button', { id: 'examples-button', 'aria-haspopup': 'menu', 'aria-expanded': 'false', onclick: () => toggle() }, 'Examples ▾');
    const toggle = (open = list.hidden) => {
      list.hidden = !open;
      button.setAttribute('aria-expanded', String(open));
    };
    for (const group of ['course', 'errors'] as const) {
      list.append(h('div', { class: 'menu-group' }, group === 'course' ? 'A short course' : 'One of each error'));
      for (const example of examples.filter((e) => e.group === group)) {
        list.append(
          h(
            'button',
            {
              class: 'menu-item',
              role: 'menuitem',
              'data-path': example.path,
              onclick: () => {
                toggle(false);
                history.pushState(null, '', fragmentFor(example.source));
                setText(this.view, example.source);
                this.view.focus();
              },
            },
            h('span', { class: 'menu-name' }, example.path.replace(/^examples\//, '')),
            h('span', { class: 'menu-title' }, example.title),
          ),
        );
      }
    }
    document.addEventListener('click', (event) => {
      if (!list.hidden && !list.contains(event.target as Node) && event.target !== button) toggle(false);
    });
    document.addEventListener('keydown', (event) => event.key === 'Escape' && toggle(false));
    return h('div', { class: 'menu' }, button, list);
  }

  private toolsPanel(): HTMLElement {
    const tools = this.backend.registry.list();
    return h(
      'section',
      { class: 'panel' },
      h('h2', {}, `Tools (${tools.length})`),
      h(
        'ul',
        { class: 'tools' },
        ...tools.map((tool) =>
          h(
            'li',
            {},
            h('span', { class: 'nuwa-tool' }, tool.name),
            tool.confirm === 'none' ? null : h('span', { class: `risk risk-${tool.confirm}` }, tool.confirm),
            h('span', { class: 'tool-description' }, tool.description),
          ),
        ),
      ),
    );
  }
}

async function start(): Promise<void> {
  const root = h('div', { class: 'app' });
  document.body.append(root);
  const config = JSON.parse(document.getElementById('nuwa-config')?.textContent ?? '{"mode":"static"}') as PageConfig;
  let playground: Playground | undefined;
  // The backend asks for approvals through the page, which exists only once the backend is known.
  const hooks: PageHooks = {
    approve: (request, signal) => playground!.approve(request, signal),
    note: (text) => playground?.note(text),
    log: (level, message) => playground?.note(message, level === 'error' || level === 'warn' ? level : 'info'),
  };
  try {
    const backend = config.mode === 'server' ? await serverBackend(config.token, hooks) : await staticBackend(hooks);
    playground = new Playground(backend, root);
    document.body.dataset.ready = 'true';
  } catch (error) {
    root.append(h('p', { class: 'fatal', role: 'alert' }, `The playground could not start: ${(error as Error).message}`));
  }
}

void start();
