// Harper's rules as Settings shows them: whether each is on (the writer's
// choice, else Harper's curated one, except the rules quiet for prose), which
// match a filter, and the choices to save (only where they differ from the
// default, as the core keeps them). Pure: no DOM, no backend.
import type { RuleInfo } from "../bindings/RuleInfo";

/** On when the writer has not chosen. */
export function ruleDefault(rule: RuleInfo, quiet: readonly string[]): boolean {
  return rule.curated && !quiet.includes(rule.name);
}

/** On as the writer has it now. */
export function ruleOn(rule: RuleInfo, choices: Record<string, boolean>, quiet: readonly string[]): boolean {
  return choices[rule.name] ?? ruleDefault(rule, quiet);
}

/** The rules whose name or description holds every word of `filter` (any case), in order. */
export function matchingRules(rules: readonly RuleInfo[], filter: string): RuleInfo[] {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  if (!words.length) return [...rules];
  return rules.filter((r) => {
    const hay = `${r.name} ${splitName(r.name)} ${r.description}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

/** `UseTitleCase` → `use title case`: names read as words. */
export function splitName(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, "$1 $2").replace(/([A-Z])([A-Z][a-z])/g, "$1 $2").toLowerCase();
}

/** The choices to save from each rule's state: only those that differ from its default. */
export function choicesToSave(rules: readonly RuleInfo[], on: ReadonlyMap<string, boolean>, quiet: readonly string[]): Record<string, boolean> {
  const out: Record<string, boolean> = {};
  for (const r of rules) {
    const state = on.get(r.name);
    if (state !== undefined && state !== ruleDefault(r, quiet)) out[r.name] = state;
  }
  return out;
}

/** A spelling language as a writer reads it: `en_GB` → `English (UK)`. */
export function languageName(tag: string): string {
  const names: Record<string, string> = {
    en_US: "English (US)",
    en_GB: "English (UK)",
    en_AU: "English (Australia)",
    en_CA: "English (Canada)",
    en_IN: "English (India)",
    en_ZA: "English (South Africa)",
    de_DE: "German",
    fr_FR: "French",
    es_ES: "Spanish",
    it_IT: "Italian",
    nl_NL: "Dutch",
    pt_BR: "Portuguese (Brazil)",
    pt_PT: "Portuguese (Portugal)",
  };
  const name = names[tag.replace("-", "_")];
  return name ? `${name} — ${tag}` : tag;
}
