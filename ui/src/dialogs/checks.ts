// Settings' "Spelling and grammar" fieldset: the language spelling as you type
// checks against (the Hunspell dictionaries installed; Harper's English
// follows it), the workspace's own language (before the writer's) and every Harper rule Check document runs, each with a switch,
// found by a filter. Saved with the dialog's Save (the core keeps only the
// choices that differ from the default: model/grammar-rules.ts).
import type { SettingsDto } from "../bindings/SettingsDto";
import { h } from "../dom";
import { choicesToSave, languageName, matchingRules, ruleOn, splitName } from "../model/grammar-rules";

export interface ChecksFieldset {
  element: HTMLFieldSetElement;
  /** The language, the workspace's (null: each writer's own) and rule choices as the writer left them. */
  values(): { language: string; workspaceLanguage: string | null; choices: Record<string, boolean> };
}

export function checksFieldset(s: SettingsDto): ChecksFieldset {
  const language = h("select", { class: "set-language", "aria-label": "Spelling language" });
  const languages = s.spellingLanguages.includes(s.spellingLanguage) ? s.spellingLanguages : [s.spellingLanguage, ...s.spellingLanguages];
  for (const tag of languages) {
    const installed = s.spellingLanguages.includes(tag);
    language.append(h("option", { value: tag, text: installed ? languageName(tag) : `${languageName(tag)} (not installed)` }));
  }
  language.value = s.spellingLanguage;
  const languageNote = h("span", {
    class: "set-note",
    text: s.spellingLanguages.length
      ? "Spelling as you type, and Harper's English in Check document. More: the hunspell-* packages."
      : "No Hunspell dictionary is installed (Debian: apt-get install hunspell-en-us).",
  });

  // The workspace's language: for everyone who writes in it, before their own.
  const ours = s.workspaceSpellingLanguage;
  const workspaceLanguage = h("select", { class: "set-workspace-language", "aria-label": "This workspace's spelling language" });
  workspaceLanguage.append(h("option", { value: "", text: "Each writer's own" }));
  for (const tag of ours && !s.spellingLanguages.includes(ours) ? [ours, ...s.spellingLanguages] : s.spellingLanguages) {
    const installed = s.spellingLanguages.includes(tag);
    workspaceLanguage.append(h("option", { value: tag, text: installed ? languageName(tag) : `${languageName(tag)} (not installed)` }));
  }
  workspaceLanguage.value = ours ?? "";
  const workspaceNote = h("span", {
    class: "set-note",
    text: [
      "Everyone who opens this workspace is checked in it, before their own language (saved in .cowriting/settings.toml, committed with the workspace).",
      ...s.workspaceWarnings,
    ].join(" "),
  });

  // Each rule's state, changed by its switch; the list shows the filter's matches.
  const on = new Map(s.harperRules.map((r) => [r.name, ruleOn(r, s.harperChoices, s.harperQuiet)]));
  const filter = h("input", { class: "set-rules-filter", type: "search", spellcheck: "false", placeholder: "Find a rule (title case, spell, comma…)", "aria-label": "Find a grammar rule" });
  const count = h("span", { class: "set-note set-rules-count", "aria-live": "polite" });
  const list = h("ul", { class: "set-rules", "aria-label": "Grammar rules" });
  const countText = () => {
    const n = [...on.values()].filter(Boolean).length;
    count.textContent = `${n} of ${s.harperRules.length} rules on.`;
  };
  const render = () => {
    const shown = matchingRules(s.harperRules, filter.value);
    list.replaceChildren(
      ...shown.map((r) => {
        const box = h("input", { type: "checkbox", class: "set-rule", value: r.name });
        box.checked = on.get(r.name) ?? false;
        box.addEventListener("change", () => {
          on.set(r.name, box.checked);
          countText();
        });
        const quiet = s.harperQuiet.includes(r.name) ? h("span", { class: "set-note", text: " (off for prose unless you turn it on)" }) : null;
        return h(
          "li",
          { class: "set-rule-item", "data-rule": r.name },
          h("label", { class: "set-check" }, box, h("span", { class: "set-rule-name", text: splitName(r.name) }), quiet),
          h("div", { class: "set-note set-rule-what", text: r.description }),
        );
      }),
    );
    if (!shown.length) list.append(h("li", { class: "set-note", text: "No rule matches." }));
  };
  filter.addEventListener("input", render);
  render();
  countText();

  const element = h(
    "fieldset",
    { class: "set-checks" },
    h("legend", { text: "Spelling and grammar" }),
    h("label", { class: "set-field" }, h("span", { class: "set-label", text: "Language" }), language, languageNote),
    h("label", { class: "set-field" }, h("span", { class: "set-label", text: "This workspace" }), workspaceLanguage, workspaceNote),
    h("div", { class: "set-field" }, h("span", { class: "set-label", text: "Grammar rules (Harper)" }), filter, count),
    list,
  );
  return {
    element,
    values: () => ({ language: language.value, workspaceLanguage: workspaceLanguage.value || null, choices: choicesToSave(s.harperRules, on, s.harperQuiet) }),
  };
}
