// Review coverage (issue 33): which proposals the writer has seen — a card on
// screen (an IntersectionObserver, faked here), the proposal selected — and
// Accept all acting on those, asking before the rest (the seen ones only,
// all, or nothing); "1 of 3 seen" in the Review panel. Against a test double
// of the Backend.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { q, stubLayout, until } from "./dom";
import type { ProposalDto } from "../src/bindings/ProposalDto";
import type { ReviewDto } from "../src/bindings/ReviewDto";
import { coverageQuestion } from "../src/coverage";
import { proposalIn, reviewWith } from "./fake-backend";

const TEXT = "One word here. Two words there. Three words everywhere.";

const proposal = (id: string, target: string, replacement: string) => proposalIn(TEXT, id, target, replacement);
const review = (proposals: ProposalDto[]) => reviewWith("essay.md", proposals);

const fake = vi.hoisted(() => ({
  review: null as ReviewDto | null,
  calls: [] as string[],
}));

vi.mock("../src/backend", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../src/backend")>();
  const { fakeBackend, nextRevision } = await import("./fake-backend");
  const decide = (ids: string[]) => {
    fake.review = { ...fake.review!, revision: nextRevision(), proposals: fake.review!.proposals.filter((p) => !ids.includes(p.id)) };
    return { changes: [], version: 2, dirty: true, review: fake.review };
  };
  const backend = fakeBackend(
    {
      workspace: async () => ({
        root: "/ws",
        name: "ws",
        branch: null,
        emptyFolders: [],
        documents: [{ path: "essay.md", proposals: 3, openThreads: 0, sidecarError: false }],
      }),
      openDocument: async (path) => ({ path, text: TEXT, version: 1, dirty: false, review: fake.review! }),
      review: async () => fake.review!,
      acceptAll: async (_p, ids) => {
        fake.calls.push(`acceptAll ${ids.join(",")}`);
        // p1's text replaced by three words: the word count follows at once.
        const { utf16 } = await import("../src/model/util");
        const changes = ids.includes("p1") ? [{ from: utf16(0), to: utf16(8), insert: "A single word" }] : [];
        return { ...decide(ids), changes };
      },
      acceptTurn: async (_p, turn) => {
        const ids = fake.review!.proposals.filter((p) => p.turnId === turn).map((p) => p.id);
        fake.calls.push(`acceptTurn ${ids.join(",")}`);
        return decide(ids);
      },
    },
    () => fake.review!,
  );
  return { ...orig, tauriBackend: async () => backend };
});

/** An IntersectionObserver the test drives: `show(el)` puts `el` on screen. */
class FakeObserver {
  static all: FakeObserver[] = [];
  readonly watched = new Set<Element>();
  constructor(private readonly callback: IntersectionObserverCallback) {
    FakeObserver.all.push(this);
  }
  observe(el: Element) {
    this.watched.add(el);
  }
  unobserve(el: Element) {
    this.watched.delete(el);
  }
  disconnect() {
    this.watched.clear();
  }
  static show(el: Element) {
    for (const o of FakeObserver.all)
      if (o.watched.has(el)) o.callback([{ target: el, isIntersecting: true, intersectionRatio: 1 } as unknown as IntersectionObserverEntry], o as unknown as IntersectionObserver);
  }
}

const card = (id: string) => q(`.card[data-proposal="${id}"]`)!;
const label = () => q(".review-coverage")?.textContent;
const modal = () => q(".modal-root .modal");
const answer = async (text: string) => {
  await until(() => modal(), "the question");
  const b = Array.from(document.querySelectorAll<HTMLButtonElement>(".modal-root button")).find((x) => x.textContent === text);
  if (!b) throw new Error(`no answer ${text}: ${modal()?.textContent}`);
  b.click();
};

beforeAll(async () => {
  stubLayout();
  const g = globalThis as unknown as { CSS?: { escape?: (s: string) => string }; IntersectionObserver?: unknown };
  if (!g.CSS?.escape) g.CSS = { ...g.CSS, escape: (s: string) => s.replace(/["\\]/g, "\\$&") };
  g.IntersectionObserver = FakeObserver;
  fake.review = review([proposal("p1", "One word", "A word"), proposal("p2", "Two words", "Some words"), proposal("p3", "Three words", "Many words")]);
  Object.defineProperty(window, "innerWidth", { value: 1400, configurable: true, writable: true });
  await import("../src/main");
  await until(() => q(".cm-content") && card("p3"), "the document and its cards");
});

describe("review coverage", () => {
  it("counts what has been on screen, and Accept all asks before the rest", async () => {
    expect(label()).toBe("0 of 3 seen");
    FakeObserver.show(card("p1"));
    await until(() => label() === "1 of 3 seen", "the label follows what is seen");

    q<HTMLButtonElement>(".btn-accept-turn")!.click();
    const q1 = coverageQuestion(1, 3);
    await until(() => modal()?.textContent?.includes(q1.question), "the question names what was not seen");
    await answer(q1.seen);
    await until(() => fake.calls.length === 1, "one call");
    expect(fake.calls).toEqual(["acceptAll p1"]);
    await until(() => !card("p1") && label() === "0 of 2 seen", `p1 decided (${label()})`);
    expect(q(".st-words")?.textContent).toBe("10 words");

    // None of the rest seen: only "all" or Cancel; Cancel decides nothing.
    q<HTMLButtonElement>(".btn-accept-turn")!.click();
    const q2 = coverageQuestion(0, 2);
    await until(() => modal()?.textContent?.includes(q2.question), "asked again");
    expect(Array.from(document.querySelectorAll(".modal-root button"), (b) => b.textContent)).toEqual([q2.all, "Cancel"]);
    await answer("Cancel");
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.calls).toEqual(["acceptAll p1"]);

    // Selecting a proposal (a click on its card) shows it; a card scrolled to does too.
    card("p2").click();
    FakeObserver.show(card("p3"));
    await until(() => label() === "2 of 2 seen", `all seen (${label()})`);
    q<HTMLButtonElement>(".btn-accept-turn")!.click();
    await until(() => fake.calls.length === 2, "accepted without a question");
    expect(modal()).toBeNull();
    expect(fake.calls[1]).toBe("acceptTurn p2,p3");
  });
});
