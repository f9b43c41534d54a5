//! `docs/architecture.md` against the tree: a package, module or error code
//! missing from it fails here, as does a path it names that is gone; the pure
//! core's dependencies must be exactly the ones it lists; the app's commands are
//! the rows of its table and the UI calls exactly those; the CLI and the MCP
//! server call the one API, never what it is made of. And `docs/tests.md`, the
//! map of the test files, must be what their header comments say.

use cowriting::ErrorCode;
use serde_json::Value;
use std::collections::BTreeSet;
use std::path::{Path, PathBuf};

/// The checkout under test: the one `cargo test` runs in (its
/// `CARGO_MANIFEST_DIR` at run time), not the one the binary was first built
/// from. Cargo reuses a test binary across checkouts sharing a target folder
/// when their sources are the same, and this test writes `docs/tests.md`.
fn root() -> PathBuf {
    std::env::var_os("CARGO_MANIFEST_DIR")
        .map_or_else(|| PathBuf::from(env!("CARGO_MANIFEST_DIR")), PathBuf::from)
}

fn doc() -> String {
    std::fs::read_to_string(root().join("docs/architecture.md")).unwrap()
}

fn manifest(dir: &Path) -> toml::Table {
    std::fs::read_to_string(dir.join("Cargo.toml"))
        .unwrap()
        .parse()
        .unwrap()
}

/// Every `.rs` (or `ext`) file under `dir`, sorted.
fn files(dir: &Path, ext: &str) -> Vec<PathBuf> {
    let mut out = Vec::new();
    let mut todo = vec![dir.to_path_buf()];
    while let Some(d) = todo.pop() {
        for e in std::fs::read_dir(&d).unwrap() {
            let p = e.unwrap().path();
            if p.is_dir() {
                todo.push(p);
            } else if p.extension().is_some_and(|x| x == ext) {
                out.push(p);
            }
        }
    }
    out.sort();
    out
}

fn rel(p: &Path) -> String {
    p.strip_prefix(root()).unwrap().to_string_lossy().into_owned()
}

fn missing(doc: &str, names: impl IntoIterator<Item = String>) -> Vec<String> {
    names
        .into_iter()
        .filter(|n| !doc.contains(&format!("`{n}`")))
        .collect()
}

/// Every package of the workspace: (name, folder).
fn packages() -> Vec<(String, PathBuf)> {
    manifest(&root())["workspace"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| {
            let dir = root().join(m.as_str().unwrap());
            let name = manifest(&dir)["package"]["name"].as_str().unwrap().to_owned();
            (name, dir)
        })
        .collect()
}

#[test]
fn every_package_is_on_the_map() {
    let names: Vec<String> = packages().into_iter().map(|(n, _)| n).collect();
    assert_eq!(names.len(), 8, "{names:?}");
    assert_eq!(
        missing(&doc(), names),
        Vec::<String>::new(),
        "packages missing from docs/architecture.md"
    );
}

/// The packages table of the doc: package → the workspace packages named in
/// its last column ("may depend on").
fn listed_layers(doc: &str, packages: &BTreeSet<String>) -> Vec<(String, BTreeSet<String>)> {
    let table = doc
        .split_once("| package | path | what it is | may depend on |")
        .expect("docs/architecture.md has the packages table")
        .1;
    table
        .lines()
        .skip(2)
        .take_while(|l| l.starts_with('|'))
        .filter_map(|row| {
            let cells: Vec<&str> = row.split('|').map(str::trim).collect();
            let name = cells[1].trim_matches('`').to_owned();
            if !packages.contains(&name) {
                return None;
            }
            let deps = cells[cells.len() - 2]
                .split('`')
                .skip(1)
                .step_by(2)
                .filter(|d| packages.contains(*d))
                .map(str::to_owned)
                .collect();
            Some((name, deps))
        })
        .collect()
}

/// Each package depends on exactly the packages of the workspace its row of
/// the map names, and the table lists them from the bottom up, so no package
/// depends on one listed after it (a layer never reaches up).
#[test]
fn each_package_depends_only_on_the_layers_the_map_allows() {
    let all = packages();
    let names: BTreeSet<String> = all.iter().map(|(n, _)| n.clone()).collect();
    let layers = listed_layers(&doc(), &names);
    assert_eq!(layers.len(), names.len(), "{layers:?}");
    let mut below = BTreeSet::new();
    for (name, listed) in &layers {
        let dir = &all.iter().find(|(n, _)| n == name).unwrap().1;
        let deps: BTreeSet<String> = manifest(dir)["dependencies"]
            .as_table()
            .unwrap()
            .keys()
            .filter(|d| names.contains(*d))
            .cloned()
            .collect();
        assert_eq!(
            &deps, listed,
            "{name}: its Cargo.toml vs its row in docs/architecture.md"
        );
        assert!(
            deps.is_subset(&below),
            "{name} depends on a package listed after it: {:?}",
            deps.difference(&below).collect::<Vec<_>>()
        );
        below.insert(name.clone());
    }
}

/// What only a client may pull in: the libraries (everything but the CLI
/// and the desktop app) have no command-line parser, MCP, async runtime,
/// webview or file watcher; only the producers talk HTTP; the core has no git.
#[test]
fn clients_and_transports_stay_out_of_the_libraries() {
    let client_only = [
        "clap",
        "rmcp",
        "tokio",
        "tauri",
        "notify",
        "notify-debouncer-full",
    ];
    let mut checked = 0;
    for (name, dir) in packages() {
        let deps: BTreeSet<String> = manifest(&dir)["dependencies"]
            .as_table()
            .unwrap()
            .keys()
            .cloned()
            .collect();
        if name == "cowriting-cli" || name == "cowriting-desktop" {
            continue;
        }
        // The features every dependency is built with (tokio's among them): no
        // code, and only the clients depend on it (each library is held to that
        // just below).
        if name == "cowriting-workspace-hack" {
            continue;
        }
        assert!(
            !deps.contains("cowriting-workspace-hack"),
            "{name} is a library: only the clients depend on cowriting-workspace-hack"
        );
        checked += 1;
        for never in client_only {
            assert!(
                !deps.contains(never),
                "{name} is a library and must not depend on {never}"
            );
        }
        if name != "cowriting-producers" {
            assert!(
                !deps.contains("ureq"),
                "only cowriting-producers talks HTTP, not {name}"
            );
        }
    }
    assert_eq!(checked, 5);
}

/// The names after "Dependencies of `cowriting-core`:" in the doc.
fn listed_core_dependencies(doc: &str) -> BTreeSet<String> {
    let line = doc
        .lines()
        .find(|l| l.starts_with("Dependencies of `cowriting-core`:"))
        .expect("docs/architecture.md lists the core's dependencies");
    let after = line.split_once(':').unwrap().1;
    after.split('`').skip(1).step_by(2).map(str::to_owned).collect()
}

#[test]
fn the_core_depends_on_what_the_map_says_and_on_no_client_transport_or_git() {
    let core = manifest(&root().join("crates/cowriting-core"));
    let deps: BTreeSet<String> = core["dependencies"].as_table().unwrap().keys().cloned().collect();
    assert_eq!(
        deps,
        listed_core_dependencies(&doc()),
        "crates/cowriting-core/Cargo.toml vs docs/architecture.md"
    );
    for never in [
        "clap",
        "rmcp",
        "tokio",
        "ureq",
        "git2",
        "tauri",
        "notify",
        "libc",
        "tempfile",
        "toml",
        "regex",
        "harper-core",
        "cowriting",
    ] {
        assert!(!deps.contains(never), "the pure core must not depend on {never}");
    }
}

/// `a/b.rs` → `a::b`, `a/mod.rs` → `a`; `None` for a crate root.
fn module_path(src: &Path, file: &Path) -> Option<String> {
    let r = file.strip_prefix(src).unwrap().with_extension("");
    let mut parts: Vec<String> = r.iter().map(|p| p.to_string_lossy().into_owned()).collect();
    if parts.last().is_some_and(|l| l == "mod") {
        parts.pop();
    }
    match parts.as_slice() {
        [one] if one == "lib" || one == "main" => None,
        _ => Some(parts.join("::")),
    }
}

#[test]
fn every_module_is_on_the_map() {
    let doc = doc();
    let mut names = Vec::new();
    for (name, dir) in packages() {
        if name == "cowriting-desktop" {
            continue; // named by file, below
        }
        let src = dir.join("src");
        names.extend(files(&src, "rs").iter().filter_map(|f| module_path(&src, f)));
    }
    assert!(
        names.contains(&"anchor::evidence".to_owned())
            && names.contains(&"session::editing".to_owned())
            && names.contains(&"claude".to_owned())
            && names.contains(&"mcp".to_owned()),
        "{names:?}"
    );
    let mut paths: Vec<String> = files(&root().join("src-tauri/src"), "rs")
        .iter()
        .map(|p| rel(p))
        .collect();
    paths.extend(
        files(&root().join("ui/src"), "ts")
            .iter()
            .filter(|p| !p.starts_with(root().join("ui/src/bindings")))
            .map(|p| rel(p)),
    );
    names.extend(paths);
    assert_eq!(
        missing(&doc, names),
        Vec::<String>::new(),
        "modules missing from docs/architecture.md"
    );
}

/// Every string an `ErrorCode` serializes to, from its JSON Schema.
fn error_codes() -> Vec<String> {
    fn walk(v: &Value, out: &mut Vec<String>) {
        match v {
            Value::Object(m) => {
                if let Some(Value::String(c)) = m.get("const") {
                    out.push(c.clone());
                }
                if let Some(Value::Array(e)) = m.get("enum") {
                    out.extend(e.iter().filter_map(|x| x.as_str().map(str::to_owned)));
                }
                m.values().for_each(|x| walk(x, out));
            }
            Value::Array(a) => a.iter().for_each(|x| walk(x, out)),
            _ => {}
        }
    }
    let schema = serde_json::to_value(schemars::schema_for!(ErrorCode)).unwrap();
    let mut out = Vec::new();
    walk(&schema, &mut out);
    out
}

#[test]
fn every_error_code_is_on_the_map_with_its_exit_code() {
    let doc = doc();
    let codes = error_codes();
    assert!(codes.len() >= 12, "{codes:?}");
    for code in codes {
        let exit = serde_json::from_value::<ErrorCode>(Value::String(code.clone()))
            .unwrap()
            .exit_code();
        let row = format!("| `{code}` | {exit} |");
        assert!(doc.contains(&row), "docs/architecture.md lacks the row {row:?}");
    }
}

/// A group of `docs/tests.md`: a title, a fixed line about it, and its
/// folders (only the files directly in each, of the extension given).
type TestGroup = (
    &'static str,
    &'static str,
    &'static [(&'static str, &'static str)],
);

/// The groups of `docs/tests.md`.
const TEST_GROUPS: [TestGroup; 3] = [
    (
        "Rust integration tests",
        "`cargo test` builds each file of `tests/` as its own binary and runs it against the \
         library API or the real `cowriting` binary; `tests/common/` and `tests/reliability/` hold \
         their shared helpers.",
        &[
            ("tests", "rs"),
            ("tests/common", "rs"),
            ("tests/reliability", "rs"),
        ],
    ),
    (
        "End to end",
        "The real app driven through tauri-driver and WebdriverIO (`make test-e2e`), and the \
         measurements that drive it the same way (`make perf`, `make perf-workspace`, \
         `make perf-session`).",
        &[("tests/e2e", "mjs")],
    ),
    (
        "UI",
        "vitest under jsdom (`make test-ui`): the UI's modules alone, and the App against a \
         test double of the Backend; with the helpers they share.",
        &[("ui/test", "ts")],
    ),
];

/// The first paragraph of a file's header comment (`//!` lines in Rust, `//`
/// lines in TypeScript and JavaScript, at the top of the file), on one line.
fn header(file: &Path) -> Option<String> {
    let marker = if file.extension().is_some_and(|x| x == "rs") {
        "//!"
    } else {
        "//"
    };
    let text = std::fs::read_to_string(file).unwrap();
    let mut words = Vec::new();
    for line in text.lines().skip_while(|l| l.starts_with("#!")) {
        let Some(line) = line.strip_prefix(marker) else {
            break;
        };
        let line = line.trim();
        if line.is_empty() {
            break;
        }
        words.push(line);
    }
    (!words.is_empty()).then(|| words.join(" "))
}

/// What `docs/tests.md` must say, or the test files that have no header comment.
fn test_map() -> Result<String, Vec<String>> {
    let mut out = String::from(
        "<!-- Generated by `make test-map` from each test file's header comment; \
         edit the header, not this file. -->\n\n\
         # Tests, file by file\n\n\
         What each test file tests: the first paragraph of its header comment. How the tests \
         are organized and run: [architecture.md](architecture.md#tests). \
         `tests/architecture.rs` fails when this page is not what the files say.\n",
    );
    let mut bare = Vec::new();
    let mut seen = Vec::new();
    for (title, intro, dirs) in TEST_GROUPS {
        out.push_str(&format!("\n## {title}\n\n{intro}\n\n"));
        let mut group: Vec<PathBuf> = Vec::new();
        for (dir, ext) in dirs {
            let dir = root().join(dir);
            group.extend(files(&dir, ext).into_iter().filter(|f| f.parent() == Some(&dir)));
        }
        group.sort();
        for file in group {
            let name = rel(&file);
            match header(&file) {
                Some(h) => out.push_str(&format!("- `{name}`: {h}\n")),
                None => bare.push(name.clone()),
            }
            seen.push(name);
        }
    }
    assert!(seen.iter().any(|f| f == "tests/architecture.rs"), "{seen:?}");
    if bare.is_empty() {
        Ok(out)
    } else {
        Err(bare)
    }
}

/// `docs/tests.md` is generated: `make test-map` writes it
/// (`COWRITING_WRITE_TEST_MAP=1`), and this test fails when it is stale.
#[test]
fn the_test_map_is_generated_from_the_files() {
    let map = test_map().unwrap_or_else(|bare| {
        panic!(
            "test files without a header comment: {}\nbegin each with what it tests (`//!` lines in \
             Rust, `//` lines in TypeScript and JavaScript; its first paragraph is its entry in \
             docs/tests.md), then run 'make test-map'",
            bare.join(", ")
        )
    });
    let path = root().join("docs/tests.md");
    if std::env::var_os("COWRITING_WRITE_TEST_MAP").is_some() {
        std::fs::write(&path, &map).unwrap();
    }
    let committed = std::fs::read_to_string(&path).unwrap_or_default();
    assert!(
        committed == map,
        "docs/tests.md is stale: run 'make test-map' and commit"
    );
}

/// The code spans of a Markdown text: what lies between a run of backticks and
/// the next run of as many (so ```` ```sh ```` is one span).
fn code_spans(text: &str) -> Vec<&str> {
    let run = |s: &str| s.len() - s.trim_start_matches('`').len();
    let mut spans = Vec::new();
    let mut rest = text;
    while let Some(start) = rest.find('`') {
        let n = run(&rest[start..]);
        let body = &rest[start + n..];
        let mut from = 0;
        let mut end = None;
        while let Some(i) = body[from..].find('`') {
            let at = from + i;
            if run(&body[at..]) == n {
                end = Some(at);
                break;
            }
            from = at + run(&body[at..]);
        }
        match end {
            Some(e) => {
                spans.push(body[..e].trim());
                rest = &body[e + n..];
            }
            // Backticks that open nothing are text.
            None => rest = body,
        }
    }
    spans
}

#[test]
fn every_path_the_map_names_exists() {
    // This page, and the test map (the paths the test files' headers name).
    for page in ["docs/architecture.md", "docs/tests.md"] {
        let doc = std::fs::read_to_string(root().join(page)).unwrap_or_default();
        let gone: Vec<&str> = code_spans(&doc)
            .into_iter()
            .filter(|s| {
                [
                    "src/",
                    "src-tauri/",
                    "crates/",
                    "tests/",
                    "ui/",
                    "docs/",
                    "benches/",
                    "examples/",
                ]
                .iter()
                .any(|p| s.starts_with(p))
                    && !s.contains(' ')
            })
            .filter(|s| !root().join(s).exists())
            .collect();
        assert_eq!(gone, Vec::<&str>::new(), "{page} names paths that do not exist");
    }
}

/// The app's commands as the table in `src-tauri/src/commands.rs` generates
/// them for the UI (`ui/src/bindings/commands.ts`, written by `make bindings`
/// and checked against the table by the app's own test).
fn app_commands() -> BTreeSet<String> {
    let list = std::fs::read_to_string(root().join("ui/src/bindings/commands.ts")).unwrap();
    let body = list.split_once("export interface Commands {").unwrap().1;
    body.lines()
        .filter_map(|l| l.strip_prefix("  ")?.split_once(':'))
        .map(|(name, _)| name.to_owned())
        .collect()
}

/// Every command is a row of the table: `commands!` writes the only
/// `#[tauri::command]` functions (a `sync` row with `(async)`, an `async`
/// row as an `async fn`: Tauri runs a plain `#[tauri::command] fn` on the
/// main thread, which paints the window) and the only handler list.
#[test]
fn every_app_command_is_a_row_of_the_table_and_runs_off_the_main_thread() {
    for f in files(&root().join("src-tauri/src"), "rs") {
        let text = std::fs::read_to_string(&f).unwrap();
        let attrs: Vec<(usize, &str)> = text
            .lines()
            .enumerate()
            .filter(|(_, l)| l.trim_start().starts_with("#[tauri::command"))
            .collect();
        if rel(&f) != "src-tauri/src/commands.rs" {
            assert!(
                attrs.is_empty(),
                "{}: a command outside the table: {attrs:?}",
                rel(&f)
            );
            assert!(
                !text.contains("generate_handler!"),
                "{}: a handler list outside the table",
                rel(&f)
            );
            continue;
        }
        let lines: Vec<&str> = text.lines().collect();
        let kinds: Vec<(&str, &str)> = attrs
            .iter()
            .map(|&(i, attr)| (attr.trim(), lines[i + 1].trim()))
            .collect();
        assert_eq!(
            kinds,
            [
                (
                    "#[tauri::command(async)]",
                    "pub fn $name($app: AppHandle $(, $arg: $ty)*) -> Res<$ret> $body"
                ),
                (
                    "#[tauri::command]",
                    "pub async fn $name($app: AppHandle $(, $arg: $ty)*) -> Res<$ret> $body"
                ),
            ],
            "commands! writes every command off the main thread"
        );
        assert_eq!(text.matches("generate_handler!").count(), 1);
    }
}

#[test]
fn the_ui_calls_exactly_the_commands_of_the_table() {
    let commands = app_commands();
    assert!(commands.len() >= 30 && commands.contains("edit"), "{commands:?}");
    let mut called = BTreeSet::new();
    for f in files(&root().join("ui/src"), "ts") {
        let ts = std::fs::read_to_string(&f).unwrap();
        for part in ts.split("call(\"").skip(1) {
            called.insert(part.split('"').next().unwrap().to_owned());
        }
        assert!(
            !ts.contains("invoke(\""),
            "{}: invoke by name, around the table's typed `call`",
            rel(&f)
        );
    }
    assert_eq!(
        called, commands,
        "the UI's call(\"…\") names vs the app's command table"
    );
}

/// Source lines of `file` that are code (not comments).
fn code_lines(file: &str) -> Vec<(usize, String)> {
    std::fs::read_to_string(root().join(file))
        .unwrap()
        .lines()
        .enumerate()
        .filter(|(_, l)| !l.trim_start().starts_with("//"))
        .map(|(i, l)| (i + 1, l.to_owned()))
        .collect()
}

#[test]
fn the_cli_and_the_mcp_server_are_thin_clients_of_the_one_api() {
    // What only `ops` may do for them: open a document's session, read the
    // decision log or the sidecar store, run a producer, build a view.
    let forbidden = [
        "Session",
        "Ledger",
        "store.load",
        ".load(",
        "run_and_file",
        "views::proposal",
        "views::thread",
        "views::doc_",
        "views::summary",
        "views::decision(",
    ];
    let mut found = Vec::new();
    // Every file of the CLI (its commands, the MCP server and its parts), not a list
    // that a new module would fall out of.
    let sources: Vec<String> = files(&root().join("src"), "rs").iter().map(|p| rel(p)).collect();
    assert!(
        sources.iter().any(|f| f == "src/commands/decide.rs") && sources.iter().any(|f| f == "src/mcp.rs"),
        "{sources:?}"
    );
    for file in &sources {
        let file = file.as_str();
        for (n, line) in code_lines(file) {
            for f in forbidden {
                if line.contains(f) {
                    found.push(format!("{file}:{n}: {f}: {}", line.trim()));
                }
            }
        }
    }
    assert!(
        found.is_empty(),
        "the CLI and MCP call cowriting::ops, never what it is made of:\n{}",
        found.join("\n")
    );
}
