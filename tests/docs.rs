//! The documentation checked against the product: the option tables of protocol.md and
//! docs/options.md against what `uci` lists, README's tools table against the command line's
//! subcommands, the links between the pages, no page pointing outside the repository, and every
//! runnable example (a fenced block whose info string is exactly `sh`) run from a fresh directory.
//!
//! The examples' convention (docs/README.md of the development record repeats it for writers):
//! blocks of one page run in order in one temporary directory holding links to the repository's
//! `data/`, `tests/` and `book/`; `wedge` is the binary under test; `cargo run --release -- ARGS`
//! runs as `wedge ARGS` and other `cargo` lines are skipped; a line `<!-- example: --flag V ... -->`
//! right before a block replaces those flags' values in its commands, to scale a long job down.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

const WEDGE: &str = env!("CARGO_BIN_EXE_wedge");

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// The pages of the user guide and the reference: README, protocol.md and docs/ outside the
/// development record (docs/dev/, whose commands are the record of what was run, not examples).
fn product_pages() -> Vec<PathBuf> {
    let mut pages = vec![root().join("README.md"), root().join("protocol.md")];
    let mut docs: Vec<PathBuf> = std::fs::read_dir(root().join("docs"))
        .expect("docs/")
        .map(|e| e.unwrap().path())
        .filter(|p| p.extension().is_some_and(|e| e == "md"))
        .collect();
    docs.sort();
    pages.extend(docs);
    pages
}

/// Every markdown page of the repository, the development record included.
fn all_pages() -> Vec<PathBuf> {
    let mut pages = product_pages();
    for dir in ["docs/dev", "book", "data"] {
        if let Ok(entries) = std::fs::read_dir(root().join(dir)) {
            let mut more: Vec<PathBuf> = entries
                .map(|e| e.unwrap().path())
                .filter(|p| p.extension().is_some_and(|e| e == "md"))
                .collect();
            more.sort();
            pages.extend(more);
        }
    }
    pages
}

fn read(path: &Path) -> String {
    std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn rel(path: &Path) -> String {
    path.strip_prefix(root())
        .unwrap_or(path)
        .display()
        .to_string()
}

// ---------------------------------------------------------------------------------------------
// Options

/// An option as `uci` declares it: type, default, range (`min..max` for spins, the values for
/// combos, empty otherwise).
#[derive(Debug, Clone, PartialEq, Eq)]
struct OptionDecl {
    kind: String,
    default: String,
    range: String,
}

fn uci_options() -> BTreeMap<String, OptionDecl> {
    let out = Command::new(WEDGE)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .and_then(|mut child| {
            use std::io::Write;
            child.stdin.take().unwrap().write_all(b"uci\nquit\n")?;
            child.wait_with_output()
        })
        .expect("run wedge");
    let text = String::from_utf8(out.stdout).unwrap();
    let mut options = BTreeMap::new();
    for line in text.lines() {
        let Some(rest) = line.strip_prefix("option name ") else {
            continue;
        };
        let (name, rest) = rest.split_once(" type ").expect("option line has a type");
        let words: Vec<&str> = rest.split_whitespace().collect();
        let kind = words[0].to_string();
        let mut default = String::new();
        let (mut min, mut max) = (String::new(), String::new());
        let mut vars = Vec::new();
        let mut i = 1;
        while i < words.len() {
            let value = words.get(i + 1).copied().unwrap_or("").to_string();
            match words[i] {
                "default" => default = value,
                "min" => min = value,
                "max" => max = value,
                "var" => vars.push(format!("`{value}`")),
                other => panic!("unexpected word {other} in {line}"),
            }
            i += 2;
        }
        let range = match kind.as_str() {
            "spin" => format!("{min}..{max}"),
            "combo" => vars.join(", "),
            _ => String::new(),
        };
        options.insert(
            name.to_string(),
            OptionDecl {
                kind,
                default,
                range,
            },
        );
    }
    assert!(options.len() > 20, "uci listed {} options", options.len());
    options
}

/// The rows of every `| name | type | default | range | meaning |` table of a page, by name
/// (backticks removed), with the line each is on.
fn option_rows(page: &Path) -> BTreeMap<String, (OptionDecl, usize)> {
    let text = read(page);
    let mut rows = BTreeMap::new();
    let mut in_table = false;
    for (n, line) in text.lines().enumerate() {
        let cells: Vec<String> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(|c| c.trim().to_string())
            .collect();
        if !line.trim_start().starts_with('|') {
            in_table = false;
            continue;
        }
        if cells.len() >= 5 && cells[..4] == ["name", "type", "default", "range"] {
            in_table = true;
            continue;
        }
        if !in_table || cells[0].starts_with("---") {
            continue;
        }
        let name = cells[0].trim_matches('`').to_string();
        let default = cells[2].trim_matches('`').to_string();
        let decl = OptionDecl {
            kind: cells[1].clone(),
            default,
            range: cells[3].clone(),
        };
        rows.insert(name, (decl, n + 1));
    }
    rows
}

fn check_option_table(
    page: &Path,
    uci: &BTreeMap<String, OptionDecl>,
    exempt: &dyn Fn(&str) -> bool,
) -> Vec<String> {
    let rows = option_rows(page);
    let mut problems = Vec::new();
    for (name, decl) in uci {
        match rows.get(name) {
            None if exempt(name) => {}
            None => problems.push(format!(
                "{}: no row for option `{name}`, which uci lists",
                rel(page)
            )),
            Some((row, line)) if row != decl => problems.push(format!(
                "{}:{line}: `{name}` documented as {row:?}, uci says {decl:?}",
                rel(page)
            )),
            Some(_) => {}
        }
    }
    for (name, (_, line)) in &rows {
        if !uci.contains_key(name) && !exempt(name) {
            problems.push(format!(
                "{}:{line}: documents option `{name}`, which uci does not list",
                rel(page)
            ));
        }
    }
    problems
}

#[test]
fn options_md_documents_every_option_as_uci_declares_it() {
    let uci = uci_options();
    let problems = check_option_table(&root().join("docs/options.md"), &uci, &|_| false);
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn protocol_md_option_table_matches_uci() {
    let uci = uci_options();
    // protocol.md gives the evaluation weights and the variant weights one summary row each and
    // sends the reader to docs/options.md, which has a row for each (the test above).
    let weights: BTreeSet<String> = option_weight_names();
    let summary_rows = ["evaluation weights", "variant weights"];
    let problems = check_option_table(&root().join("protocol.md"), &uci, &|name| {
        weights.contains(name) || summary_rows.contains(&name)
    });
    assert!(problems.is_empty(), "{}", problems.join("\n"));
    let rows = option_rows(&root().join("protocol.md"));
    for row in summary_rows {
        assert!(rows.contains_key(row), "protocol.md has no `{row}` row");
    }
}

/// The named evaluation weights and the variant weights: the options docs/options.md lists under a
/// heading that names weights.
fn option_weight_names() -> BTreeSet<String> {
    let text = read(&root().join("docs/options.md"));
    let mut names = BTreeSet::new();
    let mut under_weights = false;
    for line in text.lines() {
        if line.starts_with('#') {
            under_weights =
                line.to_lowercase().contains("weights") || line.to_lowercase().contains("variant");
            continue;
        }
        if under_weights && line.starts_with("| `") {
            let name = line.trim_start_matches("| `");
            if let Some(end) = name.find('`') {
                names.insert(name[..end].to_string());
            }
        }
    }
    assert!(names.len() >= 18, "found only {names:?}");
    names
}

// ---------------------------------------------------------------------------------------------
// Subcommands

/// The subcommands a `--help` page lists under "Commands:" (without `help`).
fn subcommands(args: &[&str]) -> Vec<String> {
    let out = Command::new(WEDGE)
        .args(args)
        .arg("--help")
        .output()
        .expect("run wedge --help");
    let text = String::from_utf8(out.stdout).unwrap();
    let mut names = Vec::new();
    let mut in_commands = false;
    for line in text.lines() {
        if line.starts_with("Commands:") {
            in_commands = true;
            continue;
        }
        if in_commands {
            if !line.starts_with("  ") {
                break;
            }
            let name = line.split_whitespace().next().unwrap().to_string();
            if name != "help" {
                names.push(name);
            }
        }
    }
    names
}

#[test]
fn readme_tools_table_names_every_subcommand_and_no_other() {
    let readme = read(&root().join("README.md"));
    // The first cell of each row of the tools table: `wedge NAME ...`.
    let first_cells: Vec<&str> = readme
        .lines()
        .filter(|l| l.starts_with("| `wedge "))
        .map(|l| l.trim_start_matches("| ").split(" | ").next().unwrap())
        .collect();
    assert!(!first_cells.is_empty(), "README has no tools table");
    let top = subcommands(&[]);
    assert!(top.len() >= 10, "wedge --help lists {top:?}");
    let documented: BTreeSet<String> = first_cells
        .iter()
        .flat_map(|cell| {
            cell.split('`')
                .skip(1)
                .step_by(2)
                .filter_map(|code| code.strip_prefix("wedge "))
                .filter_map(|rest| rest.split_whitespace().next())
                .filter(|w| !w.starts_with('-'))
                .map(str::to_string)
                .collect::<Vec<_>>()
        })
        .collect();
    let mut problems = Vec::new();
    for name in &top {
        if !documented.contains(name) {
            problems.push(format!("`wedge {name}` is not in README's tools table"));
        }
        let nested = subcommands(&[name]);
        for action in nested {
            let named = first_cells.iter().any(|cell| {
                cell.contains(&format!("wedge {name} "))
                    && cell
                        .split(|c: char| !c.is_ascii_alphanumeric() && c != '-')
                        .any(|w| w == action)
            });
            if !named {
                problems.push(format!(
                    "`wedge {name} {action}` is not in README's tools table"
                ));
            }
        }
    }
    for name in &documented {
        if !top.contains(name) {
            problems.push(format!(
                "README's tools table names `wedge {name}`, which is no subcommand"
            ));
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Links and references

/// A heading's anchor as GitHub makes it: lower case, punctuation dropped, spaces to hyphens.
fn anchor(heading: &str) -> String {
    heading
        .trim()
        .to_lowercase()
        .chars()
        .filter_map(|c| {
            if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c)
            } else if c == ' ' {
                Some('-')
            } else {
                None
            }
        })
        .collect()
}

fn anchors(page: &Path) -> BTreeSet<String> {
    let mut in_fence = false;
    let mut set = BTreeSet::new();
    for line in read(page).lines() {
        if line.trim_start().starts_with("```") {
            in_fence = !in_fence;
        }
        if !in_fence && line.starts_with('#') {
            set.insert(anchor(line.trim_start_matches('#')));
        }
    }
    set
}

#[test]
fn links_between_pages_resolve() {
    let mut problems = Vec::new();
    for page in all_pages() {
        let text = read(&page);
        let mut in_fence = false;
        for (n, line) in text.lines().enumerate() {
            if line.trim_start().starts_with("```") {
                in_fence = !in_fence;
            }
            if in_fence {
                continue;
            }
            let mut rest = line;
            while let Some(start) = rest.find("](") {
                rest = &rest[start + 2..];
                let Some(end) = rest.find(')') else { break };
                let target = &rest[..end];
                rest = &rest[end..];
                if target.contains("://") || target.starts_with("mailto:") {
                    continue;
                }
                let (file, frag) = target.split_once('#').unwrap_or((target, ""));
                let dest = if file.is_empty() {
                    page.clone()
                } else {
                    page.parent().unwrap().join(file)
                };
                if !dest.exists() {
                    problems.push(format!("{}:{}: no file {target}", rel(&page), n + 1));
                } else if !frag.is_empty()
                    && dest.extension().is_some_and(|e| e == "md")
                    && !anchors(&dest).contains(frag)
                {
                    problems.push(format!("{}:{}: no heading #{frag}", rel(&page), n + 1));
                }
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

#[test]
fn nothing_refers_outside_the_repository() {
    // A user has only the clone: no page, source file, test or script points beside it.
    let mut problems = Vec::new();
    let mut stack = vec![
        root().join("src"),
        root().join("tests"),
        root().join("scripts"),
        root().join("docs"),
    ];
    let mut files: Vec<PathBuf> = vec![
        root().join("README.md"),
        root().join("protocol.md"),
        root().join(".ci/run"),
    ];
    while let Some(dir) = stack.pop() {
        for entry in std::fs::read_dir(&dir).unwrap() {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|e| {
                ["rs", "md", "sh", "py", "txt", "toml"].contains(&e.to_str().unwrap())
            }) {
                files.push(path);
            }
        }
    }
    let needle = ["..", "/shared"].concat();
    for file in files {
        let Ok(text) = std::fs::read_to_string(&file) else {
            continue;
        };
        for (n, line) in text.lines().enumerate() {
            if line.contains(&needle) {
                problems.push(format!("{}:{}: {line}", rel(&file), n + 1));
            }
        }
    }
    assert!(problems.is_empty(), "{}", problems.join("\n"));
}

// ---------------------------------------------------------------------------------------------
// Runnable examples

/// A runnable example: its page, the line its fence opens on, its commands (continuations joined,
/// comments and build lines dropped, flags scaled).
struct Example {
    line: usize,
    script: String,
}

/// Replaces the value of each `--flag` of `scale` in `command` (both `--flag V` and `--flag=V`).
fn scale_flags(command: &str, scale: &[(String, String)]) -> String {
    let mut words: Vec<String> = shell_words(command);
    for (flag, value) in scale {
        let mut i = 0;
        while i < words.len() {
            if words[i] == *flag && i + 1 < words.len() {
                words[i + 1] = value.clone();
                i += 2;
                continue;
            }
            if let Some(_old) = words[i].strip_prefix(&format!("{flag}=")) {
                words[i] = format!("{flag}={value}");
            }
            i += 1;
        }
    }
    words.join(" ")
}

/// Splits a command line into words, keeping quoted parts (with their quotes) whole.
fn shell_words(command: &str) -> Vec<String> {
    let mut words = Vec::new();
    let mut word = String::new();
    let mut quote: Option<char> = None;
    for c in command.chars() {
        match quote {
            Some(q) => {
                word.push(c);
                if c == q {
                    quote = None;
                }
            }
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                word.push(c);
            }
            None if c.is_whitespace() => {
                if !word.is_empty() {
                    words.push(std::mem::take(&mut word));
                }
            }
            None => word.push(c),
        }
    }
    if !word.is_empty() {
        words.push(word);
    }
    words
}

fn examples(page: &Path) -> Vec<Example> {
    let text = read(page);
    let lines: Vec<&str> = text.lines().collect();
    let mut examples = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let trimmed = lines[i].trim_start();
        let Some(info) = trimmed.strip_prefix("```") else {
            i += 1;
            continue;
        };
        let indent = lines[i].len() - trimmed.len();
        let open = i;
        let mut body = Vec::new();
        i += 1;
        while i < lines.len() && !lines[i].trim_start().starts_with("```") {
            body.push(lines[i].get(indent..).unwrap_or(lines[i].trim_start()));
            i += 1;
        }
        i += 1;
        if info.trim() != "sh" {
            continue;
        }
        let mut scale = Vec::new();
        if open > 0 {
            if let Some(spec) = lines[open - 1]
                .trim()
                .strip_prefix("<!-- example:")
                .and_then(|s| s.strip_suffix("-->"))
            {
                let words: Vec<&str> = spec.split_whitespace().collect();
                for pair in words.chunks(2) {
                    assert!(
                        pair.len() == 2 && pair[0].starts_with("--"),
                        "{}:{open}: bad example line",
                        rel(page)
                    );
                    scale.push((pair[0].to_string(), pair[1].to_string()));
                }
            }
        }
        let mut commands = Vec::new();
        let mut pending = String::new();
        for raw in body {
            let line = raw.trim_end();
            if pending.is_empty() && (line.trim_start().starts_with('#') || line.trim().is_empty())
            {
                continue;
            }
            if let Some(head) = line.strip_suffix('\\') {
                pending.push_str(head);
                pending.push(' ');
                continue;
            }
            pending.push_str(line);
            let command = std::mem::take(&mut pending);
            let command = command.trim();
            let command = if let Some(args) = command.strip_prefix("cargo run --release --") {
                format!("wedge {}", args.trim())
            } else if command == "cargo run --release" {
                "wedge".to_string()
            } else if command.starts_with("cargo ") {
                continue;
            } else {
                command.replace("target/release/wedge", "wedge")
            };
            commands.push(scale_flags(&command, &scale));
        }
        examples.push(Example {
            line: open + 1,
            script: commands.join("\n"),
        });
    }
    examples
}

/// Runs `script` with `sh -e` in `dir`, `wedge` first on PATH; output and whether it succeeded in
/// time.
fn run_script(dir: &Path, bin: &Path, script: &str, limit: Duration) -> (bool, String) {
    let path = format!(
        "{}:{}",
        bin.display(),
        std::env::var("PATH").unwrap_or_default()
    );
    let mut child = Command::new("sh")
        .arg("-ec")
        .arg(script)
        .current_dir(dir)
        .env("PATH", path)
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run sh");
    let start = Instant::now();
    loop {
        if let Some(_status) = child.try_wait().unwrap() {
            break;
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            let out = child.wait_with_output().unwrap();
            return (
                false,
                format!(
                    "timed out after {limit:?}\n{}{}",
                    String::from_utf8_lossy(&out.stdout),
                    String::from_utf8_lossy(&out.stderr)
                ),
            );
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    let out = child.wait_with_output().unwrap();
    let text = format!(
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    (out.status.success(), text)
}

fn tail(text: &str, lines: usize) -> String {
    let all: Vec<&str> = text.lines().collect();
    all[all.len().saturating_sub(lines)..].join("\n")
}

#[test]
fn every_runnable_example_runs_from_a_fresh_checkout() {
    let base = std::env::temp_dir().join(format!("wedge-doc-examples-{}", std::process::id()));
    let bin = base.join("bin");
    std::fs::create_dir_all(&bin).unwrap();
    std::os::unix::fs::symlink(WEDGE, bin.join("wedge")).unwrap();
    let mut problems = Vec::new();
    let mut ran = 0;
    for page in product_pages() {
        let examples = examples(&page);
        if examples.is_empty() {
            continue;
        }
        let name = page.file_stem().unwrap().to_string_lossy().to_string();
        let dir = base.join(name);
        std::fs::create_dir_all(&dir).unwrap();
        for folder in ["data", "tests", "book"] {
            std::os::unix::fs::symlink(root().join(folder), dir.join(folder)).unwrap();
        }
        for example in examples {
            ran += 1;
            let (ok, output) = run_script(&dir, &bin, &example.script, Duration::from_secs(120));
            if !ok {
                problems.push(format!(
                    "{}:{}: the example failed\n{}\n--- output ---\n{}",
                    rel(&page),
                    example.line,
                    example.script,
                    tail(&output, 15)
                ));
            }
        }
    }
    let _ = std::fs::remove_dir_all(&base);
    assert!(ran >= 10, "only {ran} runnable examples in the docs");
    assert!(problems.is_empty(), "{}", problems.join("\n\n"));
}

#[test]
fn scaling_replaces_values_not_words() {
    let scale = vec![
        ("--games".to_string(), "2".to_string()),
        ("--tc".to_string(), "1+0.01".to_string()),
    ];
    assert_eq!(
        scale_flags(
            "wedge match --engine \"wedge --x\" --games 200 --tc=10+0.1 --gamesx 5",
            &scale
        ),
        "wedge match --engine \"wedge --x\" --games 2 --tc=1+0.01 --gamesx 5"
    );
}
