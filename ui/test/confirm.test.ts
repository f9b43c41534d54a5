// Accept's two questions (views/confirm-hidden.ts, views/confirm-place.ts)
// over a plain host, with no App: no question when there is nothing to ask;
// a yes tells the core which proposals were confirmed, then goes on; Cancel
// tells it nothing; the core refusing is said, and stops the accept. The
// focus goes back to the editor when nothing else opened the question.
import { beforeEach, describe, expect, it } from "vitest";
import { q, until } from "./dom";
import type { ProposalDto } from "../src/bindings/ProposalDto";
import { confirmHiddenChars } from "../src/views/confirm-hidden";
import { confirmLikelyPlace } from "../src/views/confirm-place";

const RLO = { codePoint: "U+202E", name: "RIGHT-TO-LEFT OVERRIDE" } as ProposalDto["hidden"][number];
const proposal = (id: string, more: Partial<ProposalDto> = {}) => ({ id, hidden: [], likelyPlace: false, line: 3, target: "begins", ...more }) as unknown as ProposalDto;

/** A host whose core notes what it was told (or refuses, with `refuse`), and whose editor counts the focus it got. */
function host(refuse: string | null = null) {
  const told: [string, string, string[]][] = [];
  let focused = 0;
  const tell = (kind: string) => async (path: string, ids: string[]) => {
    told.push([kind, path, ids]);
    if (refuse) throw { code: "badInput", message: refuse };
  };
  return {
    told,
    focused: () => focused,
    host: { view: { focus: () => void focused++ }, backend: { confirmHidden: tell("hidden"), confirmPlace: tell("place") } },
  };
}

/** Answer the open question with the button `label`. */
async function answer(label: string) {
  await until(() => q(`.modal-root [data-action="${label}"]`), `the question's ${label}`);
  q<HTMLButtonElement>(`.modal-root [data-action="${label}"]`)!.click();
}

beforeEach(() => {
  document.body.innerHTML = `<div class="modal-root"></div><div class="toast" hidden></div><div class="live-polite"></div><div class="live-assertive"></div>`;
});

describe("before accepting hidden characters", () => {
  it("asks nothing when none would be inserted, or with no document", async () => {
    const h = host();
    expect(await confirmHiddenChars(h.host, "a.md", [proposal("p1")])).toBe(true);
    expect(await confirmHiddenChars(h.host, null, [proposal("p1", { hidden: [RLO] })])).toBe(true);
    expect(q(".modal-root")!.childElementCount).toBe(0);
    expect(h.told).toEqual([]);
  });

  it("asks once, naming them; a yes tells the core the flagged proposals", async () => {
    const h = host();
    const going = confirmHiddenChars(h.host, "a.md", [proposal("p1", { hidden: [RLO] }), proposal("p2"), proposal("p3", { hidden: [RLO] })]);
    await until(() => q(".modal-root [role=alertdialog]"), "the question");
    expect(q(".modal-root p")!.textContent).toContain("2 of these proposals insert characters you cannot see");
    expect(q(".modal-root p")!.textContent).toContain("U+202E RIGHT-TO-LEFT OVERRIDE.");
    await answer("Accept anyway");
    expect(await going).toBe(true);
    expect(h.told).toEqual([["hidden", "a.md", ["p1", "p3"]]]);
    expect(h.focused(), "the editor has the focus back").toBe(1);
  });

  it("goes no further on Cancel, or when the core refuses (said)", async () => {
    const h = host("no such proposal");
    const cancelled = confirmHiddenChars(h.host, "a.md", [proposal("p1", { hidden: [RLO] })]);
    await answer("Cancel");
    expect(await cancelled).toBe(false);
    expect(h.told).toEqual([]);
    const refused = confirmHiddenChars(h.host, "a.md", [proposal("p1", { hidden: [RLO] })]);
    await answer("Accept anyway");
    expect(await refused).toBe(false);
    expect(h.told).toEqual([["hidden", "a.md", ["p1"]]]);
    expect(q(".toast")!.hidden).toBe(false);
    expect(q(".toast")!.className).toBe("toast toast-error");
    expect(q(".toast")!.textContent).toContain("no such proposal");
  });
});

describe("before accepting at a likely place", () => {
  it("asks nothing for a proposal at its place, none, or with no document", async () => {
    const h = host();
    expect(await confirmLikelyPlace(h.host, "a.md", proposal("p1"))).toBe(true);
    expect(await confirmLikelyPlace(h.host, "a.md", undefined)).toBe(true);
    expect(await confirmLikelyPlace(h.host, null, proposal("p1", { likelyPlace: true }))).toBe(true);
    expect(h.told).toEqual([]);
  });

  it("asks, naming the words and the line; a yes tells the core, Cancel nothing", async () => {
    const h = host();
    const going = confirmLikelyPlace(h.host, "a.md", proposal("p1", { likelyPlace: true }));
    await until(() => q(".modal-root [role=alertdialog]"), "the question");
    expect(q(".modal-root p")!.textContent).toBe(
      "The words this proposal changes, “begins”, were found on line 3 only where the text around them changed since it was made. Check that this is the place, then accept it here?",
    );
    await answer("Accept here");
    expect(await going).toBe(true);
    expect(h.told).toEqual([["place", "a.md", ["p1"]]]);
    const cancelled = confirmLikelyPlace(h.host, "a.md", proposal("p2", { likelyPlace: true }));
    await answer("Cancel");
    expect(await cancelled).toBe(false);
    expect(h.told).toHaveLength(1);
  });
});
