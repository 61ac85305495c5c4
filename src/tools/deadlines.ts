// The runs' deadlines (timeoutMs), all watched by one timer.
//
// A timer per run (a Node Timeout and the closure it calls, about 180 bytes) is kept for the whole
// run, and a host may have thousands of runs waiting on tools at once. Here the runs in flight are
// kept in a binary min-heap by deadline, each knowing its place in it (O(log n) to add or remove),
// and one timer is set for the earliest deadline. A run that finishes early leaves the heap; the
// timer is not moved for it (when it fires, nothing is due, and it is set again for the earliest
// deadline left), and is cleared once no run is left, so that it keeps the process alive exactly
// while some run is in flight, as a run's own timer did.
//
// Deadlines are on performance.now()'s clock. A Node timer counts whole milliseconds and may fire up
// to one early on that clock: a deadline within a millisecond of now is due, as a run's own timer
// firing would have stopped it.

/** What is watched: a run, stopped by `expire` once its deadline has passed. */
export interface Expiring {
  readonly deadline: number;
  /** Its index in the heap while watched, else -1 (kept by this module). */
  deadlineSlot: number;
  expire(): void;
}

const heap: Expiring[] = [];
let timer: ReturnType<typeof setTimeout> | undefined;
/** The deadline the timer is set for (Infinity: none). */
let timerFor = Infinity;

/** Watches `item` until its deadline (then calls expire, once) or until unwatchDeadline. */
export function watchDeadline(item: Expiring): void {
  item.deadlineSlot = heap.length;
  heap.push(item);
  up(item.deadlineSlot);
  if (item.deadline < timerFor) setTimer(item.deadline);
}

/** Stops watching `item` (nothing happens if it is not watched). */
export function unwatchDeadline(item: Expiring): void {
  const slot = item.deadlineSlot;
  if (slot < 0) return;
  item.deadlineSlot = -1;
  const last = heap.pop()!;
  if (last !== item) {
    heap[slot] = last;
    last.deadlineSlot = slot;
    down(slot);
    up(last.deadlineSlot);
  }
  if (heap.length === 0) clearTimer();
}

/** How many are watched (for tests). */
export function watchedDeadlines(): number {
  return heap.length;
}

function setTimer(deadline: number): void {
  if (timer !== undefined) clearTimeout(timer);
  timerFor = deadline;
  timer = setTimeout(fire, Math.min(Math.max(0, deadline - performance.now()), 2 ** 31 - 1));
}

function clearTimer(): void {
  if (timer !== undefined) clearTimeout(timer);
  timer = undefined;
  timerFor = Infinity;
}

function fire(): void {
  timer = undefined;
  timerFor = Infinity;
  try {
    // An expiring run may end others (or itself leave the heap): the earliest is read afresh each time.
    while (heap.length > 0 && heap[0]!.deadline <= performance.now() + 1) {
      const due = heap[0]!;
      unwatchDeadline(due);
      due.expire();
    }
  } finally {
    // An expiring run may have started another, which set the timer for its own deadline.
    if (heap.length > 0 && heap[0]!.deadline < timerFor) setTimer(heap[0]!.deadline);
  }
}

function up(slot: number): void {
  const item = heap[slot]!;
  while (slot > 0) {
    const parent = (slot - 1) >> 1;
    if (heap[parent]!.deadline <= item.deadline) break;
    heap[slot] = heap[parent]!;
    heap[slot]!.deadlineSlot = slot;
    slot = parent;
  }
  heap[slot] = item;
  item.deadlineSlot = slot;
}

function down(slot: number): void {
  const item = heap[slot]!;
  const half = heap.length >> 1;
  while (slot < half) {
    let child = 2 * slot + 1;
    const right = child + 1;
    if (right < heap.length && heap[right]!.deadline < heap[child]!.deadline) child = right;
    if (item.deadline <= heap[child]!.deadline) break;
    heap[slot] = heap[child]!;
    heap[slot]!.deadlineSlot = slot;
    slot = child;
  }
  heap[slot] = item;
  item.deadlineSlot = slot;
}
