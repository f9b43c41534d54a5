// A proposal at a likely place (anchoring round 3, issue 36): its exact words
// were found only where the text around them changed. It is shown there,
// marked, and accepting asks once — "Accept here" tells the core the place
// was checked, then accepts; Cancel decides nothing. Against a test double of
// the Backend.
import { beforeAll, describe, expect, it, vi } from "vitest";
import { q, stubLayout, until } from "./dom";
import type { ReviewDto } from "../src/bindings/ReviewDto";
import { placeQuestion } from "../src/views/confirm-place";
import { proposalIn, reviewWith } from "./fake-backend";

const TEXT = "Some “word” here and more context on both of the sides, word.";

const likely = proposalIn(TEXT, "p1", "word", "term", {
  state: "stale",
  likelyPlace: true,
  current: "word",
  reason: "its target text \"word\" was found only where the words around it changed; check the place, then accept it there",
});
const stale = proposalIn(TEXT, "p2", "sides", "edges", { state: "stale", current: "sides", reason: "its target text changed" });

const fake = vi.hoisted(() => ({
  review: null as ReviewDto | null,
  calls: [] as string[],
}));

vi.mock("../src/backend", async (importOriginal) => {
  const orig = await importOriginal<typeof import("../src/backend")>();
  const { fakeBackend, nextRevision } = await import("./fake-backend");
  const backend = fakeBackend(
    {
      workspace: async () => ({
        root: "/ws",
        name: "ws",
        branch: null,
        emptyFolders: [],
        documents: [{ path: "essay.md", proposals: 2, openThreads: 0, sidecarError: false }],
      }),
      openDocument: async (path) => ({ path, text: TEXT, version: 1, dirty: false, review: fake.review! }),
      review: async () => fake.review!,
      confirmPlace: async (_p, ids) => {
        fake.calls.push(`confirmPlace ${ids.join(",")}`);
      },
      accept: async (_p, id) => {
        fake.calls.push(`accept ${id}`);
        fake.review = { ...fake.review!, revision: nextRevision(), proposals: fake.review!.proposals.filter((p) => p.id !== id) };
        return { changes: [], version: 2, dirty: true, review: fake.review };
      },
    },
    () => fake.review!,
  );
  return { ...orig, tauriBackend: async () => backend };
});

const card = (id: string) => q(`.card[data-proposal="${id}"]`);
const modal = () => q(".modal-root .modal");
const answer = async (text: string) => {
  await until(() => modal(), "the question");
  const b = Array.from(document.querySelectorAll<HTMLButtonElement>(".modal-root button")).find((x) => x.textContent === text);
  if (!b) throw new Error(`no answer ${text}: ${modal()?.textContent}`);
  b.click();
};

beforeAll(async () => {
  stubLayout();
  const g = globalThis as unknown as { CSS?: { escape?: (s: string) => string } };
  if (!g.CSS?.escape) g.CSS = { ...g.CSS, escape: (s: string) => s.replace(/["\\]/g, "\\$&") };
  fake.review = reviewWith("essay.md", [likely, stale]);
  Object.defineProperty(window, "innerWidth", { value: 1400, configurable: true, writable: true });
  await import("../src/main");
  await until(() => q(".cm-content") && card("p2"), "the document and its cards");
});

describe("a proposal at a likely place", () => {
  it("is marked, offered, and accepted there only after the writer says so", async () => {
    // The card says so and offers it; an ordinary stale one stays disabled.
    expect(card("p1")!.querySelector(".card-reason")!.textContent).toMatch(/^Likely place: /);
    const here = card("p1")!.querySelector<HTMLButtonElement>(".btn-accept")!;
    expect([here.textContent, here.disabled]).toEqual(["✓ Accept here…", false]);
    expect(card("p2")!.querySelector<HTMLButtonElement>(".btn-accept")!.disabled).toBe(true);
    // In the text: "likely place" and a ✓? beside it; "stale" and no ✓ for the other.
    const inline = q('.cm-decision[data-proposal="p1"]')!;
    expect(inline.querySelector(".cm-stale-label")!.textContent).toBe("likely place");
    expect(inline.querySelector(".cm-accept-here")).not.toBeNull();
    expect(q('.cm-decision[data-proposal="p2"] .cm-accept')).toBeNull();

    // Cancel: nothing told, nothing decided.
    here.click();
    await until(() => modal()?.textContent?.includes(placeQuestion(likely)), "the question names the words");
    await answer("Cancel");
    await new Promise((r) => setTimeout(r, 50));
    expect(fake.calls).toEqual([]);

    // Accept here: the place confirmed, then the accept.
    card("p1")!.querySelector<HTMLButtonElement>(".btn-accept")!.click();
    await answer("Accept here");
    await until(() => fake.calls.length === 2, "two calls");
    expect(fake.calls).toEqual(["confirmPlace p1", "accept p1"]);
    await until(() => !card("p1"), "p1 decided");
  });

  it("names the words and their line in the question", () => {
    expect(placeQuestion(likely)).toBe(
      "The words this proposal changes, “word”, were found on line 1 only where the text around them changed since it was made. Check that this is the place, then accept it here?",
    );
  });
});
