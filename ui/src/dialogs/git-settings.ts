// Settings' Git fieldset: how a commit credits Claude's (an agent's) accepted
// text — `Assisted-by: claude:<model>`, `Co-authored-by: Claude <…>`, or not at
// all — where a repository does not say (`git config cowriting.trailer`, set
// by `cowriting git install --trailer`). Saved with the dialog's Save.
import type { SettingsDto } from "../bindings/SettingsDto";
import type { TrailerStyle } from "../bindings/TrailerStyle";
import { h } from "../dom";

export interface GitFieldset {
  element: HTMLFieldSetElement;
  value(): TrailerStyle;
}

export function gitFieldset(s: SettingsDto): GitFieldset {
  const trailer = h("select", { class: "set-trailer", "aria-label": "Commits credit an agent's text with" });
  const choices: [TrailerStyle, string][] = [
    ["assisted-by", "Assisted-by: claude:model"],
    ["co-authored-by", "Co-authored-by: Claude"],
    ["none", "Nothing"],
  ];
  for (const [value, text] of choices) trailer.append(h("option", { value, text }));
  trailer.value = s.trailer;
  const note = h("span", {
    class: "set-note",
    text: "A commit that adds Claude's accepted words says so in a trailer (needs cowriting git install). Rule checkers such as Harper are never credited. A repository can choose its own: cowriting git install --trailer.",
  });
  const element = h(
    "fieldset",
    { class: "set-git" },
    h("legend", { text: "Git" }),
    h("label", { class: "set-field" }, h("span", { class: "set-label", text: "Commits credit an agent's text with" }), trailer, note),
  );
  return { element, value: () => trailer.value as TrailerStyle };
}
