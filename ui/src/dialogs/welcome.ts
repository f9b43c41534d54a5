// The first run's question, asked once when neither the settings nor git name
// the writer: a name and an e-mail for their comments, typing and decisions.
// Save or Skip, the core remembers it was asked (Settings… changes it later).
import type { IdentityDto } from "../bindings/IdentityDto";
import { errorMessage, type Backend } from "../backend";
import { h } from "../dom";
import { closeModal, modal, toast, type ModalHost } from "../views/modal";

/** What the question needs of the app (App is one): the dialog's host, the core to tell, and who the writer is now. */
export interface WelcomeHost extends ModalHost {
  readonly backend: Pick<Backend, "saveIdentity">;
  setIdentity(me: IdentityDto): void;
}

/** Ask who the writer is (a dialog); the answer, or Skip, goes to the core. */
export function askIdentity(app: WelcomeHost) {
  const name = h("input", { class: "welcome-name", type: "text", autocomplete: "name", spellcheck: "false", placeholder: "Ada Lovelace" });
  const email = h("input", { class: "welcome-email", type: "email", autocomplete: "email", spellcheck: "false", placeholder: "ada@example.org (optional)" });
  const error = h("div", { class: "set-error", role: "alert" });
  error.hidden = true;
  const save = h("button", { class: "welcome-save", text: "Save", "data-action": "Save" });
  const skip = h("button", { class: "welcome-skip modal-cancel", text: "Skip", "data-action": "Skip" });
  save.type = "submit";
  skip.type = "button";
  const form = h(
    "form",
    { class: "settings welcome", novalidate: "" },
    h("p", {
      text: "Who are you? Your name goes on your comments, what you type and what you accept or reject, as others will see it in the review data.",
    }),
    h("label", { class: "set-field" }, h("span", { class: "set-label", text: "Name" }), name),
    h("label", { class: "set-field" }, h("span", { class: "set-label", text: "E-mail" }), email),
    h("div", { class: "set-note", text: "With an e-mail, the e-mail identifies you (as in git); you can change both in Settings (Ctrl+,)." }),
    error,
    h("div", { class: "modal-actions" }, save, skip),
  );
  const answer = async (n: string | null, e: string | null) => {
    save.disabled = skip.disabled = true;
    try {
      const me = await app.backend.saveIdentity(n, e);
      app.setIdentity(me);
      if (form.isConnected) closeModal(app);
      if (n || e) toast(`You write as ${me.display}.`);
    } catch (err) {
      error.textContent = errorMessage(err);
      error.hidden = false;
    } finally {
      save.disabled = skip.disabled = false;
    }
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const n = name.value.trim();
    const m = email.value.trim();
    if (!n && !m) {
      error.textContent = "Type a name (or Skip).";
      error.hidden = false;
      name.focus();
      return;
    }
    void answer(n || null, m || null);
  });
  skip.addEventListener("click", () => void answer(null, null));
  modal(app, "Welcome to Cowriting", form, []);
  name.focus();
}
