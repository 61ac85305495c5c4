// Building the page's elements: one small helper instead of a framework, and how each kind of
// result is shown (the output, values, the plan, the problems list, an approval).
import type { Plan } from '../../check/check.js';
import type { Problem } from '../../check/problems.js';
import { formatValue } from '../../cli/print-value.js';
import type { ApprovalRequest } from '../../tools/types.js';
import type { JsonValue } from '../../values/json.js';

type Child = Node | string | null | undefined | false;

/** An element with attributes (`on*` functions become listeners) and children. */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Record<string, unknown> = {}, ...children: Child[]): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false) continue;
    if (name.startsWith('on') && typeof value === 'function') element.addEventListener(name.slice(2), value as EventListener);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  for (const child of children) if (child !== null && child !== undefined && child !== false) element.append(child);
  return element;
}

/** Values as the REPL shows them: Nuwa literal text, one `name = value` per entry. */
export function showValues(values: Record<string, JsonValue>, empty: string): string {
  const entries = Object.entries(values);
  if (entries.length === 0) return empty;
  return entries.map(([name, value]) => `${name} = ${formatValue(value, { color: false })}`).join('\n');
}

const bound = (maxCount: number | null) => (maxCount === null ? 'unbounded' : `≤ ${maxCount}`);

/** The plan as a table (as `nuwa check --plan` prints it), with what needs approval. */
export function planView(plan: Plan, goTo: (line: number, column: number) => void): HTMLElement {
  if (plan.scriptHash === '') return h('p', { class: 'plan-note' }, 'No plan: the script does not parse (see Problems).');
  const rows = plan.calls.map((call) =>
    h(
      'tr',
      {},
      h('td', {}, h('a', { href: '#', class: 'at', onclick: (event: Event) => (event.preventDefault(), goTo(call.line, call.column)) }, `${call.line}:${call.column}`)),
      h('td', { class: 'nuwa-tool' }, call.tool),
      h('td', {}, h('span', { class: `risk risk-${call.confirm}` }, call.confirm)),
      h('td', {}, call.category),
      h('td', {}, bound(call.maxCount)),
    ),
  );
  const approval =
    plan.needsApproval.length === 0
      ? 'Nothing needs approval.'
      : `Needs approval: ${plan.needsApproval.map((need) => `${need.tool} (${need.confirm}) ${bound(need.maxCount)}`).join(', ')}`;
  return h(
    'div',
    { class: 'plan' },
    plan.calls.length === 0
      ? h('p', {}, 'No tool calls.')
      : h(
          'table',
          {},
          h('thead', {}, h('tr', {}, ...['at', 'tool', 'risk', 'category', 'runs'].map((title) => h('th', {}, title)))),
          h('tbody', {}, ...rows),
        ),
    h('p', { class: 'plan-approval' }, approval),
    plan.ok ? null : h('p', { class: 'plan-note' }, 'The script has errors (see Problems): a run stops at the first one it reaches.'),
  );
}

/** One entry of the problems list; a click takes the cursor there. */
export function problemView(problem: Problem, goTo: (line: number, column: number) => void): HTMLElement {
  return h(
    'li',
    { class: `problem problem-${problem.severity}`, tabindex: 0, onclick: () => goTo(problem.line, problem.column), onkeydown: (event: KeyboardEvent) => event.key === 'Enter' && goTo(problem.line, problem.column) },
    h('span', { class: 'problem-at' }, `${problem.line}:${problem.column}`),
    h('span', { class: 'problem-kind' }, problem.kind),
    h('span', { class: 'problem-message' }, problem.message),
  );
}

/** An approval asked in the page: the call, and Approve / Deny. Resolves with the answer. */
export function approvalView(request: ApprovalRequest, signal: AbortSignal): { element: HTMLElement; answer: Promise<boolean> } {
  let settle!: (approved: boolean) => void;
  const answer = new Promise<boolean>((resolve) => (settle = resolve));
  const element = h(
    'div',
    { class: 'approval', role: 'alertdialog', 'aria-label': `approve ${request.toolName}` },
    h('p', {}, h('strong', { class: 'nuwa-tool' }, request.toolName), ` needs approval: a ${request.confirm} action (${request.category})`),
    h('pre', { class: 'approval-args' }, formatValue(request.args, { color: false })),
    h('button', { class: 'approve', onclick: () => settle(true) }, 'Approve'),
    h('button', { class: 'deny', onclick: () => settle(false) }, 'Deny'),
  );
  signal.addEventListener('abort', () => settle(false), { once: true });
  return { element, answer };
}
