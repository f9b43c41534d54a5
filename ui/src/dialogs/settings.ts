// The Settings dialog (Ctrl+,): who you are (name, e-mail: git's by default),
// autosave, how Ask Claude runs (transport, model, command, timeout) and which
// checkers Check document runs (those not installed marked so), the spelling
// language and Harper's rules (checks.ts), git's trailers (git-settings.ts);
// saved by the core. Whether Tab moves the focus out of the text (the
// window's, as Ctrl+M).
// The workspace's dictionary is listed too (dictionary.ts), changed at once.
import type { App } from "../main";
import type { AutoSave } from "../bindings/AutoSave";
import type { IdentitySource } from "../bindings/IdentitySource";
import type { SettingsDto } from "../bindings/SettingsDto";
import { errorMessage } from "../backend";
import { h } from "../dom";
import { parseDelay } from "../autosave";
import { nextEnabled, parseTimeout } from "../model/jobs";
import { closeModal, modal, toast } from "../views/modal";
import { dictionaryFieldset } from "./dictionary";
import { checksFieldset } from "./checks";
import { gitFieldset } from "./git-settings";
import { dictionaryChanged } from "../extensions/spelling";

/** Open the dialog with the core's settings; Save has the core write them. */
export async function openSettings(app: App) {
  const s = await app.run(() => app.backend.settings());
  if (!s) return;
  const field = (label: string, control: HTMLElement, note: HTMLElement | null = null) =>
    h("label", { class: "set-field" }, h("span", { class: "set-label", text: label }), control, note);

  const me = s.identity;
  const name = h("input", { class: "set-name", type: "text", autocomplete: "name", spellcheck: "false", placeholder: me.gitName ?? "your name" });
  name.value = me.name ?? "";
  const email = h("input", { class: "set-email", type: "email", autocomplete: "email", spellcheck: "false", placeholder: me.gitEmail ?? "you@example.org" });
  email.value = me.email ?? "";
  const youNote = h("span", { class: "set-note set-you-id", text: youText(me.id, me.source, !!(me.gitName || me.gitEmail)) });

  const autosave = h("select", { class: "set-autosave" });
  const modes: [AutoSave, string][] = [
    ["off", "Off"],
    ["after_delay", "After a pause in typing"],
    ["on_focus_change", "When the editor loses the focus"],
  ];
  for (const [value, text] of modes) autosave.append(h("option", { value, text }));
  autosave.value = s.autosave;
  const delay = h("input", { class: "set-autosave-delay", type: "number", min: "1", max: "3600", step: "1", inputmode: "numeric" });
  delay.value = String(s.autosaveDelaySecs);
  const delayField = field("Pause (seconds)", delay);
  const showDelay = () => (delayField.hidden = autosave.value !== "after_delay");
  autosave.addEventListener("change", showDelay);
  showDelay();

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
    const missing = s.notInstalled.find((m) => m.producer === p);
    producers.append(
      h(
        "label",
        { class: "set-check", "data-producer": p },
        box,
        h("span", { text: p }),
        s.available.includes(p) ? null : h("span", { class: "set-note set-note-warn", text: "(not available)" }),
        missing ? h("span", { class: "set-note set-not-installed", text: `not installed (no ${missing.command} found)` }) : null,
      ),
    );
  }
  if (s.enabledByDefault) {
    producers.append(h("div", { class: "set-note", text: "Until you choose, Check document runs Harper and each checker that is installed." }));
  }

  const checks = checksFieldset(s);
  const git = gitFieldset(s);

  // What Tab does in the text: kept in this window's storage (as Ctrl+M), not in the settings file.
  const tabFocus = h("input", { type: "checkbox", class: "set-tab-focus" });
  tabFocus.checked = app.tabFocus;
  const keyboard = h(
    "fieldset",
    {},
    h("legend", { text: "Keyboard" }),
    h(
      "label",
      { class: "set-check" },
      tabFocus,
      h("span", { text: "Tab moves the focus out of the text (instead of indenting)" }),
      h("span", { class: "set-note", text: "Ctrl+M" }),
    ),
  );
  const error = h("div", { class: "set-error", role: "alert" });
  error.hidden = true;
  const save = h("button", { class: "set-save", text: "Save", "data-action": "Save" });
  const cancel = h("button", { class: "modal-cancel", text: "Cancel" });
  const form = h(
    "form",
    { class: "settings", novalidate: "" },
    h("fieldset", { class: "set-you" }, h("legend", { text: "You" }), field("Name", name), field("E-mail", email, youNote)),
    h("fieldset", {}, h("legend", { text: "Saving" }), field("Autosave", autosave), delayField),
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
    checks.element,
    keyboard,
    dictionaryFieldset(app),
    git.element,
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
    const pause = parseDelay(delay.value);
    if (pause === null && autosave.value === "after_delay") {
      showError("The pause must be a whole number of seconds, from 1 to 3600.");
      delay.focus();
      return;
    }
    const checked = new Set([...boxes].filter(([, b]) => b.checked).map(([p]) => p));
    const { language, workspaceLanguage, choices } = checks.values();
    const next: SettingsDto = {
      ...s,
      transport: transport.value === "cli" || transport.value === "api" ? transport.value : null,
      model: model.value.trim() || null,
      claudeCommand: command.value.trim(),
      timeoutSecs: secs,
      enabled: nextEnabled(s.enabled, offered, checked),
      identity: { ...me, name: name.value.trim() || null, email: email.value.trim() || null },
      autosave: autosave.value as AutoSave,
      autosaveDelaySecs: pause ?? s.autosaveDelaySecs,
      spellingLanguage: language,
      workspaceSpellingLanguage: workspaceLanguage,
      harperChoices: choices,
      trailer: git.value(),
    };
    error.hidden = true;
    save.disabled = true;
    void (async () => {
      try {
        const saved = await app.backend.saveSettings(next);
        app.setIdentity(saved.identity);
        app.autosaver.configure(saved.autosave, saved.autosaveDelaySecs);
        // Another language: the underlines are redone against its dictionary.
        const checkedIn = (d: SettingsDto) => d.workspaceSpellingLanguage ?? d.spellingLanguage;
        if (checkedIn(saved) !== checkedIn(s)) dictionaryChanged(app.view);
        if (tabFocus.checked !== app.tabFocus) app.setTabFocus(tabFocus.checked);
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
  name.focus();
}

/** What the "You" fieldset says of the author id written now. */
export function youText(id: string, source: IdentitySource, gitKnows: boolean): string {
  switch (source) {
    case "settings":
      return `You write as ${id}.`;
    case "git":
      return `You write as ${id} (git's; type here to change it).`;
    case "system":
    case "unknown":
      return `You write as ${id}${gitKnows ? "" : ": git names nobody"}; type a name or e-mail.`;
  }
  return `You write as ${id}.`;
}
