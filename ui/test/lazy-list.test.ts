// The side panel's lazily built lists (views/lazy-list.ts): a batch at first,
// a batch more each time the end comes near (an IntersectionObserver, faked
// here: jsdom has none), as many as before after a re-render, an item asked for
// built with those before it, the marker gone once all are built, and
// everything at once where no observer exists. The items built are always the
// first ones, in order.
import { afterEach, describe, expect, it } from "vitest";
import { BATCH, LazyList } from "../src/views/lazy-list";

/** A stand-in for the browser's observer: the test says whether the marker is near, and when it is told. */
class FakeObserver {
  static all: FakeObserver[] = [];
  static near = false;
  observed = new Set<Element>();
  queued: Element[] = [];
  constructor(
    private readonly callback: (entries: { isIntersecting: boolean; target: Element }[]) => void,
    readonly options: { root: Element; rootMargin: string },
  ) {
    FakeObserver.all.push(this);
  }
  observe(el: Element) {
    this.observed.add(el);
    this.queued.push(el);
  }
  unobserve(el: Element) {
    this.observed.delete(el);
    this.queued = this.queued.filter((x) => x !== el);
  }
  disconnect() {
    this.observed.clear();
    this.queued = [];
  }
  /** The writer scrolls the marker into (or out of) reach: every observer hears of the change. */
  static setNear(near: boolean) {
    if (near === FakeObserver.near) return;
    FakeObserver.near = near;
    for (const o of FakeObserver.all) o.queued.push(...Array.from(o.observed).filter((el) => !o.queued.includes(el)));
  }
  /** Deliver what is queued, as the browser does after layout; how many callbacks ran. */
  static flush(): number {
    let n = 0;
    for (const o of FakeObserver.all) {
      const q = o.queued;
      o.queued = [];
      if (q.length) {
        n++;
        o.callback(q.map((target) => ({ isIntersecting: FakeObserver.near, target })));
      }
    }
    return n;
  }
}

const keys = (n: number) => Array.from({ length: n }, (_, i) => `k${i}`);
const withObserver = () => {
  FakeObserver.all = [];
  FakeObserver.near = false;
  (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver = FakeObserver;
};
afterEach(() => {
  delete (globalThis as { IntersectionObserver?: unknown }).IntersectionObserver;
});

/** A list of `n` items in a fresh container; each item a div named by its key. */
function setup(n: number, list = new LazyList()) {
  const box = document.createElement("div");
  const ks = keys(n);
  const show = (k = ks) => {
    box.replaceChildren();
    list.show(box, k, (i) => {
      const el = document.createElement("div");
      el.className = "item";
      el.dataset.key = k[i];
      box.append(el);
    });
  };
  show();
  const built = () => Array.from(box.querySelectorAll<HTMLElement>(".item")).map((e) => e.dataset.key);
  return { box, list, ks, show, built };
}

describe("LazyList", () => {
  it("builds a batch, then a batch more each time the end is near, the first items in order", () => {
    withObserver();
    const { box, list, ks, built } = setup(1000);
    expect(list.count).toBe(BATCH);
    expect(built()).toEqual(ks.slice(0, BATCH));
    expect(box.lastElementChild?.className).toBe("lazy-more");
    const io = FakeObserver.all[0];
    expect(io.options.root).toBe(box);
    // The end not near: nothing more, however often the observer speaks.
    FakeObserver.flush();
    FakeObserver.flush();
    expect(list.count).toBe(BATCH);
    // Near: one batch per notice, the marker watched afresh after each.
    FakeObserver.setNear(true);
    FakeObserver.flush();
    expect(list.count).toBe(2 * BATCH);
    FakeObserver.flush();
    expect(list.count).toBe(3 * BATCH);
    expect(built()).toEqual(ks.slice(0, 3 * BATCH));
    expect(box.lastElementChild?.className).toBe("lazy-more");
    FakeObserver.setNear(false);
    FakeObserver.flush();
    expect(list.count).toBe(3 * BATCH);
  });

  it("builds as many as before after a re-render, so the panel stays where it was scrolled", () => {
    withObserver();
    const { list, ks, show, built } = setup(500);
    FakeObserver.setNear(true);
    FakeObserver.flush();
    FakeObserver.flush();
    FakeObserver.setNear(false);
    FakeObserver.flush();
    expect(list.count).toBe(3 * BATCH);
    show();
    expect(list.count).toBe(3 * BATCH);
    expect(built()).toEqual(ks.slice(0, 3 * BATCH));
    // Fewer items than were built: all of them, and the marker gone.
    show(ks.slice(0, 50));
    expect(list.count).toBe(50);
    expect(built()).toEqual(ks.slice(0, 50));
  });

  it("builds an item asked for with those before it", () => {
    withObserver();
    const { list, ks, built } = setup(1000);
    expect(list.ensure("k500")).toBe(true);
    expect(built()).toEqual(ks.slice(0, list.count));
    expect(list.count).toBeGreaterThan(500);
    expect(list.count).toBeLessThanOrEqual(501 + BATCH);
    const n = list.count;
    expect(list.ensure("k3")).toBe(true);
    expect(list.count).toBe(n);
    expect(list.ensure("nope")).toBe(false);
    expect(list.ensure("k999")).toBe(true);
    expect(list.count).toBe(1000);
  });

  it("removes the marker and stops watching once every item is built", () => {
    withObserver();
    const { box, list, built, ks } = setup(100, new LazyList(30));
    expect(list.count).toBe(30);
    FakeObserver.setNear(true);
    while (FakeObserver.flush()) {
      /* until no notice is queued */
    }
    expect(list.count).toBe(100);
    expect(built()).toEqual(ks);
    expect(box.querySelector(".lazy-more")).toBeNull();
    expect(FakeObserver.all[0].observed.size).toBe(0);
  });

  it("builds everything where there is no observer to say what is in view", () => {
    const { list, built, ks } = setup(300);
    expect(list.count).toBe(300);
    expect(built()).toEqual(ks);
  });

  it("an empty list leaves nothing behind, and a new container starts afresh", () => {
    withObserver();
    const { box, list, show, ks } = setup(200);
    FakeObserver.setNear(true);
    FakeObserver.flush();
    show([]);
    expect(list.count).toBe(0);
    expect(box.children.length).toBe(0);
    const other = document.createElement("div");
    list.show(other, ks, (i) => other.append(Object.assign(document.createElement("div"), { className: "item", textContent: ks[i] })));
    expect(list.count).toBe(BATCH);
  });
});
