// Two parts of Settings over plain hosts, with no App: the first run's
// question (dialogs/welcome.ts: a name asked for, Save or Skip told to the
// core, who the writer is then; a refusal said in the dialog) and the
// Dictionary fieldset (dialogs/dictionary.ts: the workspace's words, added and
// removed through the core at once; an unreadable dictionary said).
import { beforeEach, describe, expect, it } from "vitest";
import { q, until } from "./dom";
import type { DictionaryOut } from "../src/bindings/DictionaryOut";
import type { IdentityDto } from "../src/bindings/IdentityDto";
import { askIdentity } from "../src/dialogs/welcome";
import { dictionaryFieldset } from "../src/dialogs/dictionary";

beforeEach(() => {
  document.body.innerHTML = `<div class="modal-root"></div><div class="toast" hidden></div><div class="live-polite"></div><div class="live-assertive"></div>`;
});

const identity = (display: string): IdentityDto => ({ name: display, email: null, gitName: null, gitEmail: null, id: display, display, source: "settings", ask: false }) as IdentityDto;

describe("the first run's question", () => {
  function host(refuse: string | null = null) {
    const told: [string | null, string | null][] = [];
    const set: string[] = [];
    return {
      told,
      set,
      host: {
        view: null,
        backend: {
          saveIdentity: async (name: string | null, email: string | null) => {
            told.push([name, email]);
            if (refuse) throw { code: "badInput", message: refuse };
            return identity(name ?? "you");
          },
        },
        setIdentity: (me: IdentityDto) => void set.push(me.display),
      },
    };
  }
  const submit = () => q<HTMLFormElement>(".welcome")!.dispatchEvent(new Event("submit", { cancelable: true }));

  it("asks for a name before saving; saved, the writer is named and the dialog closes", async () => {
    const h = host();
    askIdentity(h.host);
    expect(q(".modal-root [role=dialog] h2")!.textContent).toBe("Welcome to Cowriting");
    submit();
    expect(q(".welcome .set-error")!.textContent).toBe("Type a name (or Skip).");
    expect(h.told).toEqual([]);
    q<HTMLInputElement>(".welcome-name")!.value = "  Ada  ";
    q<HTMLInputElement>(".welcome-email")!.value = "ada@example.org";
    submit();
    await until(() => !q(".welcome"), "the dialog to close");
    expect(h.told).toEqual([["Ada", "ada@example.org"]]);
    expect(h.set).toEqual(["Ada"]);
    expect(q(".toast")!.textContent).toBe("You write as Ada.");
  });

  it("tells the core a Skip too, and says a refusal in the dialog", async () => {
    const skipped = host();
    askIdentity(skipped.host);
    q<HTMLButtonElement>(".welcome-skip")!.click();
    await until(() => !q(".welcome"), "the dialog to close");
    expect(skipped.told).toEqual([[null, null]]);
    expect(skipped.set).toEqual(["you"]);
    const refused = host("settings file is read-only");
    askIdentity(refused.host);
    q<HTMLButtonElement>(".welcome-skip")!.click();
    await until(() => !q(".welcome .set-error")!.hidden, "the error");
    expect(q(".welcome .set-error")!.textContent).toContain("settings file is read-only");
    expect(refused.set).toEqual([]);
    expect(q<HTMLButtonElement>(".welcome-save")!.disabled).toBe(false);
  });
});

describe("the Dictionary fieldset", () => {
  function host(words: string[], unreadable = false) {
    const calls: string[] = [];
    const out = (): DictionaryOut => ({ file: ".cowriting/dictionary.txt", words: [...words] }) as DictionaryOut;
    return {
      calls,
      host: {
        view: null,
        backend: {
          dictionary: async () => {
            if (unreadable) throw { code: "io", message: "permission denied" };
            return out();
          },
          addWord: async (w: string) => {
            calls.push(`add ${w}`);
            words.push(w);
            return out();
          },
          removeWord: async (w: string) => {
            calls.push(`remove ${w}`);
            words.splice(words.indexOf(w), 1);
            return out();
          },
        },
      },
    };
  }
  const listed = () => Array.from(document.querySelectorAll<HTMLElement>(".set-word-item"), (li) => li.dataset.word);

  it("lists the words, adds one by Enter, removes one by its button", async () => {
    const h = host(["Cowriting"]);
    document.body.append(dictionaryFieldset(h.host));
    await until(() => listed().length === 1, "the words");
    expect(q(".set-words-file")!.textContent).toContain(".cowriting/dictionary.txt");
    const word = q<HTMLInputElement>(".set-word")!;
    word.value = " sidecar ";
    const enter = new KeyboardEvent("keydown", { key: "Enter", bubbles: true, cancelable: true });
    word.dispatchEvent(enter);
    expect(enter.defaultPrevented, "Enter does not submit Settings").toBe(true);
    await until(() => listed().length === 2, "the word added");
    expect(listed()).toEqual(["Cowriting", "sidecar"]);
    expect(word.value).toBe("");
    expect(q(".toast")!.textContent).toBe("“sidecar” is in this workspace's dictionary.");
    q<HTMLButtonElement>('.set-word-item[data-word="Cowriting"] .set-word-remove')!.click();
    await until(() => listed().length === 1, "the word removed");
    expect(h.calls).toEqual(["add sidecar", "remove Cowriting"]);
    q<HTMLButtonElement>(".set-word-remove")!.click();
    await until(() => q(".set-words-empty"), "the empty list's note");
  });

  it("says when the dictionary cannot be read", async () => {
    document.body.append(dictionaryFieldset(host([], true).host));
    await until(() => q(".set-words-file")!.textContent, "the note");
    expect(q(".set-words-file")!.textContent).toBe("The dictionary could not be read: permission denied");
  });
});
