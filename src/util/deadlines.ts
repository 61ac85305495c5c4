// One timer for the deadlines of every run in flight (a run's timeoutMs), instead of a timer each:
// Node's Timeout, its boxed times and its arguments cost some 220 bytes a run, and a host may have
// ten thousand runs waiting on tools. The runs are kept in a list ordered by deadline (runs mostly
// start with the same timeoutMs, so a new one goes at the end), linked through their own fields,
// and the timer is set for the first. While any run is listed the timer keeps the process alive, as
// a run's own timer did; once none is left it is cleared.
//
// The list belongs to the clock it was made with (the `setTimeout` in place when a deadline was
// added): a host's fake timers, installed and restored around a test, get a list of their own,
// so that no run's deadline is left on a clock that never fires.

/** What has a deadline: a run. Its links are the list's; `timeOut` is called once the deadline passes. */
export interface Timed {
  readonly deadline: number;
  prevTimed: Timed | null;
  nextTimed: Timed | null;
  timeOut(): void;
}

type SetTimer = (callback: (list: DeadlineList) => void, ms: number, list: DeadlineList) => unknown;
type ClearTimer = (timer: unknown) => void;

/** The longest delay setTimeout takes; a later deadline is waited for in steps. */
const MAX_DELAY = 2 ** 31 - 1;

class DeadlineList {
  private head: Timed | null = null;
  private tail: Timed | null = null;
  private timer: unknown = undefined;
  /** The deadline the timer is set for (Infinity when it is not set). */
  private armedFor = Infinity;

  constructor(
    private readonly setTimer: SetTimer,
    private readonly clearTimer: ClearTimer,
  ) {}

  add(item: Timed): void {
    let before = this.tail;
    while (before !== null && before.deadline > item.deadline) before = before.prevTimed;
    item.prevTimed = before;
    item.nextTimed = before === null ? this.head : before.nextTimed;
    if (item.nextTimed === null) this.tail = item;
    else item.nextTimed.prevTimed = item;
    if (before === null) this.head = item;
    else before.nextTimed = item;
    if (item.deadline < this.armedFor) this.arm(item.deadline);
  }

  /** Takes `item` out of the list, if it is in it. The timer stays set unless the list is empty: it finds the next one when it fires. */
  remove(item: Timed): void {
    if (item.prevTimed === null && this.head !== item) return;
    if (item.prevTimed === null) this.head = item.nextTimed;
    else item.prevTimed.nextTimed = item.nextTimed;
    if (item.nextTimed === null) this.tail = item.prevTimed;
    else item.nextTimed.prevTimed = item.prevTimed;
    item.prevTimed = item.nextTimed = null;
    if (this.head === null) this.disarm();
  }

  /** The timer fired: every run whose deadline has passed is taken out and told, then the timer is set for the next. */
  fire(): void {
    this.timer = undefined;
    this.armedFor = Infinity;
    const now = performance.now();
    for (let first = this.head; first !== null && first.deadline <= now; first = this.head) {
      this.remove(first);
      first.timeOut();
    }
    if (this.head !== null && this.head.deadline < this.armedFor) this.arm(this.head.deadline);
  }

  // The timer functions are called bare (a browser's refuse any other `this` than the global).
  private arm(deadline: number): void {
    this.disarm();
    this.armedFor = deadline;
    const setTimer = this.setTimer;
    this.timer = setTimer(fireList, Math.min(Math.max(0, Math.ceil(deadline - performance.now())), MAX_DELAY), this);
  }

  private disarm(): void {
    const clearTimer = this.clearTimer;
    if (this.timer !== undefined) clearTimer(this.timer);
    this.timer = undefined;
    this.armedFor = Infinity;
  }
}

/** The timer's callback (the list is its argument: no closure). */
function fireList(list: DeadlineList): void {
  list.fire();
}

/** The lists, by the setTimeout they were made with. */
const lists = new WeakMap<object, DeadlineList>();

/** Watches `item`'s deadline, on the clock in place now; returns the list to give to `unwatch`. */
export function watchDeadline(item: Timed): DeadlineList {
  const setTimer = globalThis.setTimeout as unknown as SetTimer;
  let list = lists.get(setTimer);
  if (list === undefined) {
    list = new DeadlineList(setTimer, globalThis.clearTimeout as ClearTimer);
    lists.set(setTimer, list);
  }
  list.add(item);
  return list;
}

export type { DeadlineList };
