// Harper's rules in Settings (grammar-rules.ts): a rule is on as the writer
// chose, else by default (curated ones on, the quiet ones off); only choices
// that differ from the default are saved; the filter matches every word in a
// rule's name, its words or its description; languages named for a writer.
import { describe, expect, it } from "vitest";
import { choicesToSave, languageName, matchingRules, ruleOn, splitName } from "../src/model/grammar-rules";
import type { RuleInfo } from "../src/bindings/RuleInfo";

const rules: RuleInfo[] = [
  { name: "SpellCheck", description: "Looks and provides corrections for misspelled words.", curated: true },
  { name: "UseTitleCase", description: "Prompts you to use title case in relevant headings.", curated: true },
  { name: "BoringWords", description: "Flags words that are overused.", curated: false },
];
const quiet = ["UseTitleCase"];

describe("grammar rules", () => {
  it("are on as chosen, else as curated, with the quiet ones off", () => {
    expect(rules.map((r) => ruleOn(r, {}, quiet))).toEqual([true, false, false]);
    expect(rules.map((r) => ruleOn(r, { UseTitleCase: true, SpellCheck: false }, quiet))).toEqual([false, true, false]);
  });

  it("save only what differs from the default", () => {
    const on = new Map([
      ["SpellCheck", true],
      ["UseTitleCase", true],
      ["BoringWords", false],
    ]);
    expect(choicesToSave(rules, on, quiet)).toEqual({ UseTitleCase: true });
    on.set("SpellCheck", false);
    on.set("BoringWords", true);
    expect(choicesToSave(rules, on, quiet)).toEqual({ SpellCheck: false, UseTitleCase: true, BoringWords: true });
  });

  it("match every word of a filter in the name, its words or the description", () => {
    expect(matchingRules(rules, "").length).toBe(3);
    expect(matchingRules(rules, "title case").map((r) => r.name)).toEqual(["UseTitleCase"]);
    expect(matchingRules(rules, "SPELL").map((r) => r.name)).toEqual(["SpellCheck"]);
    expect(matchingRules(rules, "words overused").map((r) => r.name)).toEqual(["BoringWords"]);
    expect(matchingRules(rules, "title nothing")).toEqual([]);
    expect(splitName("UseTitleCase")).toBe("use title case");
    expect(splitName("AnA")).toBe("an a");
  });

  it("name languages for a writer", () => {
    expect(languageName("en_GB")).toBe("English (UK) — en_GB");
    expect(languageName("xx_YY")).toBe("xx_YY");
  });
});
