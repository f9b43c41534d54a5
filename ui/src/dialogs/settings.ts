// The Settings dialog (Ctrl+,): how Ask Claude runs (transport, model, command,
// timeout) and which checkers Check document runs; saved by the core.
import type { App } from "../main";
import type { SettingsDto } from "../bindings/SettingsDto";
import { errorMessage } from "../backend";
import { h } from "../dom";
import { nextEnabled, parseTimeout } from "../jobs";
import { closeModal, modal, toast } from "../views/modal";

/** Open the dialog with the core's settings; Save has the core write them. */
export async function openSettings(app: App) {
  const s = await app.run(() => app.backend.settings());
  if (!s) return;
  const field = (label: string, control: HTMLElement, note: HTMLElement | null = null) =>
    h("label", { class: "set-field" }, h("span", { class: "set-label", text: label }), control, note);

  const transport = h("select", { class: "set-transport" });
  const options: [string, string][] = [
    ["", "Automatic"],
    ["cli", "Claude Code CLI"],
    ["api", "Messages API"],
  ];
  for (const [value, text] of options) transport.append(h("option", { value, text }));
  transport.value = s.transport ?? "";
  const keyNote = h("span", {
    class: `set-note${s.haveApiKey ? "" : " set-note-warn"}`,
    text: s.haveApiKey
      ? "ANTHROPIC_API_KEY is set: Automatic uses the Messages API."
      : "ANTHROPIC_API_KEY is not set: Automatic uses the Claude Code CLI; the Messages API will not work.",
  });
  const model = h("input", { class: "set-model", type: "text", placeholder: "default", spellcheck: "false" });
  model.value = s.model ?? "";
  const command = h("input", { class: "set-command", type: "text", placeholder: "claude", spellcheck: "false" });
  command.value = s.claudeCommand;
  const timeout = h("input", { class: "set-timeout", type: "number", min: "1", step: "1", inputmode: "numeric" });
  timeout.value = String(s.timeoutSecs);

  const offered = [...s.available, ...s.enabled.filter((p) => !s.available.includes(p))];
  const boxes = new Map<string, HTMLInputElement>();
  const producers = h("div", { class: "set-producers" });
  if (!offered.length) producers.append(h("div", { class: "set-note", text: "No checkers are available." }));
  for (const p of offered) {
    const box = h("input", { type: "checkbox", class: "set-producer", value: p });
    box.checked = s.enabled.includes(p);
    boxes.set(p, box);
    producers.append(
      h("label", { class: "set-check" }, box, h("span", { text: p }), s.available.includes(p) ? null : h("span", { class: "set-note set-note-warn", text: "(not available)" })),
    );
  }

  const error = h("div", { class: "set-error", role: "alert" });
  error.hidden = true;
  const save = h("button", { class: "set-save", text: "Save", "data-action": "Save" });
  const cancel = h("button", { class: "modal-cancel", text: "Cancel" });
  const form = h(
    "form",
    { class: "settings", novalidate: "" },
    h(
      "fieldset",
      {},
      h("legend", { text: "Ask Claude" }),
      field("Transport", transport, keyNote),
      field("Model", model),
      field("Claude command", command),
      field("Timeout (seconds)", timeout),
    ),
    h("fieldset", {}, h("legend", { text: "Check document runs" }), producers),
    h("div", { class: "set-path", text: `Saved in ${s.path}` }),
    error,
    h("div", { class: "modal-actions" }, save, cancel),
  );
  const showError = (m: string) => {
    error.textContent = m;
    error.hidden = false;
  };
  form.addEventListener("submit", (e) => {
    e.preventDefault();
    const secs = parseTimeout(timeout.value);
    if (secs === null) {
      showError("The timeout must be a whole number of seconds, 1 or more.");
      timeout.focus();
      return;
    }
    const checked = new Set([...boxes].filter(([, b]) => b.checked).map(([p]) => p));
    const next: SettingsDto = {
      ...s,
      transport: transport.value === "cli" || transport.value === "api" ? transport.value : null,
      model: model.value.trim() || null,
      claudeCommand: command.value.trim(),
      timeoutSecs: secs,
      enabled: nextEnabled(s.enabled, offered, checked),
    };
    error.hidden = true;
    save.disabled = true;
    void (async () => {
      try {
        await app.backend.saveSettings(next);
        if (form.isConnected) closeModal(app);
        toast("Settings saved.");
      } catch (e) {
        showError(errorMessage(e));
      } finally {
        save.disabled = false;
      }
    })();
  });
  cancel.addEventListener("click", (e) => {
    e.preventDefault();
    closeModal(app);
  });
  cancel.type = "button";
  save.type = "submit";
  modal(app, "Settings", form, []);
  transport.focus();
}
