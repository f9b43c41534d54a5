// Long lists in the side panel (the Review and Threads tabs of a document with
// hundreds of proposals or threads, the Inbox's groups) are built as the writer
// scrolls to them:
// a batch at first, or as many as were shown before a re-render (so an accept
// or another writer's change keeps the panel where it was scrolled), then a
// batch more whenever the list's end comes within a panel's height of view
// (an IntersectionObserver on a marker after the last item: no work while the
// writer types, none for a hidden tab). An item asked for by id (a thread
// clicked in the text, a turn Claude just filed, the Inbox's next item) is
// built with those before it.
// A thousand proposal cards cost the web process about 40 MiB and their
// rebuild on every accept; see docs/performance.md.
import { h } from "../dom";

/** How many items are built at a time, unless told otherwise. */
export const BATCH = 40;

export class LazyList {
  /** `batch`: how many items are built at a time. */
  constructor(private readonly batch = BATCH) {}

  private keys: readonly string[] = [];
  private build: (i: number) => void = () => {};
  private container: HTMLElement | null = null;
  /** How many of `keys` are built. */
  private built = 0;
  private observer: IntersectionObserver | null = null;
  private readonly marker = h("div", { class: "lazy-more", "aria-hidden": "true" });

  /**
   * Show the items `keys` (ids, in order) in `container`, which scrolls:
   * `build(i)` appends item `i` (wherever it goes inside `container`, always
   * before the items after it). As many are built as were before, at least a batch.
   */
  show(container: HTMLElement, keys: readonly string[], build: (i: number) => void) {
    if (container !== this.container) {
      this.observer?.disconnect();
      this.observer = null;
      this.container = container;
      this.built = 0;
    }
    const before = this.built;
    this.keys = keys;
    this.build = build;
    this.built = 0;
    this.buildUpTo(Math.max(this.batch, before));
  }

  /** How many items are built (the rest wait for the writer to scroll to them). */
  get count(): number {
    return this.built;
  }

  /** Build the item `key` and those before it; false when it is not in the list. */
  ensure(key: string): boolean {
    const i = this.keys.indexOf(key);
    if (i < 0) return false;
    if (i >= this.built) this.buildUpTo(i + 1 + Math.ceil(this.batch / 2));
    return true;
  }

  private buildUpTo(n: number) {
    const end = Math.min(n, this.keys.length);
    while (this.built < end) this.build(this.built++);
    this.watch();
  }

  /** Keep the marker after the last item, watched until every item is built. */
  private watch() {
    const container = this.container;
    if (!container) return;
    if (this.built >= this.keys.length) {
      this.observer?.unobserve(this.marker);
      this.marker.remove();
      return;
    }
    if (typeof IntersectionObserver === "undefined") {
      // No way to know what is in view (not a browser): build them all.
      this.buildUpTo(this.keys.length);
      return;
    }
    container.append(this.marker);
    this.observer ??= new IntersectionObserver((entries) => {
      if (entries.some((e) => e.isIntersecting)) this.buildUpTo(this.built + this.batch);
    }, { root: container, rootMargin: "0px 0px 100% 0px" });
    // Observed afresh, it is told at once whether the marker is (still) near.
    this.observer.unobserve(this.marker);
    this.observer.observe(this.marker);
  }
}
