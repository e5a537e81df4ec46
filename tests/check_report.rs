//! `muon check --report FILE.html`, looked at as a person would: the page is opened in
//! headless Chromium, which renders it (the screenshot must not be blank) and runs its
//! self-test (`FILE.html#selftest`: the page selects every step through its own click and
//! key handlers and writes what it marked into `#selftest-result`, read back with
//! `--dump-dom`). What a step marks is held against what the other outputs of `check` say
//! independently: the state is found by walking the evidence LTS (`--evidence-file X.aut`)
//! along the trace's actions (`--format json`), and the source line is the specification's
//! line that writes the step's action; on an LTS model, the transition named is the `.aut`
//! file's line for it.
//!
//! Chromium is required: without it these tests fail and say how to install it.

use std::path::{Path, PathBuf};
use std::process::Command;

#[path = "cli_common/mod.rs"]
mod cli_common;
use cli_common::muon_in;

use serde_json::Value;

/// The headless browser: Debian's `chromium` (or another Chromium on `PATH`).
fn chromium() -> PathBuf {
    for name in [
        "chromium",
        "chromium-browser",
        "google-chrome",
        "google-chrome-stable",
    ] {
        if let Some(dirs) = std::env::var_os("PATH") {
            for d in std::env::split_paths(&dirs) {
                let p = d.join(name);
                if p.is_file() {
                    return p;
                }
            }
        }
    }
    panic!(
        "these tests open the report in headless Chromium, which is not installed: install it \
         (Debian: `apt-get install chromium`) and run them again"
    );
}

/// Runs headless Chromium on `url` with `args`, with a profile of its own in `dir`; its
/// standard output.
fn browse(dir: &Path, args: &[&str], url: &str) -> String {
    let profile = dir.join("chromium-profile");
    let out = Command::new(chromium())
        .args([
            "--headless",
            "--no-sandbox",
            "--disable-gpu",
            "--no-first-run",
            "--hide-scrollbars",
            "--virtual-time-budget=5000",
        ])
        .arg(format!("--user-data-dir={}", profile.display()))
        .args(args)
        .arg(url)
        .output()
        .expect("chromium runs");
    assert!(
        out.status.success(),
        "chromium failed on {url}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

fn file_url(p: &Path) -> String {
    format!(
        "file://{}",
        p.canonicalize().expect("the page exists").display()
    )
}

/// What the page's self-test marked, per formula with evidence.
fn selftest(dir: &Path, page: &Path) -> Vec<Value> {
    let dom = browse(
        dir,
        &["--dump-dom"],
        &format!("{}#selftest", file_url(page)),
    );
    let start = dom
        .find("<pre id=\"selftest-result\">")
        .unwrap_or_else(|| panic!("the self-test wrote no result; the page as rendered:\n{dom}"))
        + "<pre id=\"selftest-result\">".len();
    let end = start + dom[start..].find("</pre>").expect("end of the result");
    let text = dom[start..end]
        .replace("&lt;", "<")
        .replace("&gt;", ">")
        .replace("&quot;", "\"")
        .replace("&amp;", "&");
    match serde_json::from_str(&text).expect("the self-test result is JSON") {
        Value::Array(v) => v,
        other => panic!("the self-test result is not a list: {other}"),
    }
}

/// Takes a screenshot of `page` (`width` x `height`) to `png` and checks that it shows
/// something: many pixels that are not white, of several colours (text, the verdict badges,
/// the picture's blue trace).
fn screenshot(dir: &Path, page: &Path, png: &Path, width: u32, height: u32) {
    browse(
        dir,
        &[
            &format!("--screenshot={}", png.display()),
            &format!("--window-size={width},{height}"),
        ],
        &file_url(page),
    );
    let pixmap = resvg::tiny_skia::Pixmap::load_png(png).expect("the screenshot is a PNG");
    assert_eq!((pixmap.width(), pixmap.height()), (width, height));
    let mut ink = 0usize;
    let mut blue = 0usize;
    let mut red_or_green = 0usize;
    for p in pixmap.pixels() {
        let (r, g, b) = (p.red() as i32, p.green() as i32, p.blue() as i32);
        if r + g + b < 600 {
            ink += 1;
        }
        if b > 150 && r < 80 && g < 140 {
            blue += 1;
        }
        if (r > 150 && g < 80 && b < 80) || (g > 100 && r < 80 && b < 80) {
            red_or_green += 1;
        }
    }
    let total = (width * height) as usize;
    assert!(
        ink > total / 200,
        "{}: the page rendered (almost) blank: {ink} of {total} pixels not white",
        png.display()
    );
    assert!(
        red_or_green > 50,
        "{}: no verdict badge to be seen",
        png.display()
    );
    assert!(blue > 50, "{}: no blue trace in the picture", png.display());
}

/// The evidence LTS of an `.aut` file: initial state and (from, label, to) transitions.
fn read_aut(text: &str) -> (u32, Vec<(u32, String, u32)>) {
    let mut lines = text.lines();
    let head = lines.next().expect("des line");
    let init: u32 = head["des (".len()..]
        .split(',')
        .next()
        .unwrap()
        .trim()
        .parse()
        .unwrap();
    let trans = lines
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let l = l.trim().trim_start_matches('(').trim_end_matches(')');
            let from = l[..l.find(',').unwrap()].trim().parse().unwrap();
            let to = l[l.rfind(',').unwrap() + 1..].trim().parse().unwrap();
            let label = l[l.find(',').unwrap() + 1..l.rfind(',').unwrap()]
                .trim()
                .trim_matches('"')
                .to_string();
            (from, label, to)
        })
        .collect();
    (init, trans)
}

/// The state of the evidence LTS at each position of the trace whose actions are `actions`
/// (as the picture names them: by number): the walk along them from the initial state,
/// which must be deterministic.
fn walk(aut: &str, actions: &[String]) -> Vec<String> {
    let (init, trans) = read_aut(aut);
    let mut out = vec![init];
    let mut at = init;
    for a in actions {
        let next: Vec<u32> = trans
            .iter()
            .filter(|(f, l, _)| *f == at && l == a)
            .map(|t| t.2)
            .collect();
        assert!(
            next.len() == 1,
            "the evidence takes {a} from state {at} to {next:?}: not one state"
        );
        at = next[0];
        out.push(at);
    }
    out.iter().map(u32::to_string).collect()
}

/// The 1-based number of the line of `text` containing `needle` (exactly one).
fn line_of(text: &str, needle: &str) -> u64 {
    let hits: Vec<usize> = text
        .lines()
        .enumerate()
        .filter(|(_, l)| l.contains(needle))
        .map(|(i, _)| i + 1)
        .collect();
    assert_eq!(hits.len(), 1, "`{needle}` should be on one line: {hits:?}");
    hits[0] as u64
}

/// Runs `muon check ARGS… --format json --evidence-file ev.aut --report PAGE` in `dir`, so
/// that the page can be held against the JSON trace and the evidence LTS (`ev.aut`, or
/// `ev.FORMULA.aut` per formula of several): (exit code, stdout, stderr).
fn check_with_report(dir: &Path, args: &[&str], page: &str) -> (i32, String, String) {
    let mut all = vec!["check"];
    all.extend_from_slice(args);
    all.extend_from_slice(&[
        "--format",
        "json",
        "--evidence-file",
        "ev.aut",
        "--report",
        page,
    ]);
    muon_in(dir, &all)
}

/// The actions of the steps of a JSON trace (`--format json`), in order.
fn step_actions(trace: &Value) -> Vec<String> {
    trace["steps"]
        .as_array()
        .expect("the trace's steps")
        .iter()
        .map(|s| s["action"].as_str().unwrap().to_string())
        .collect()
}

const SPEC: &str = "\
% Two processes: P counts with a(n) and hands its count to Q (s | r -> c).
act a, s, r, c: Nat;
    done;

proc
  P(n: Nat) =
      (n < 3) -> a(n) . P(n + 1)
    + (n == 3) -> s(n) . P(0);

  Q(m: Nat) =
      sum k: Nat . (k < 4) -> r(k) . Q(k)
    + done . Q(m);

init allow({a, c, done}, comm({s | r -> c}, P(0) || Q(0)));
";

/// Checks the self-test of one formula's evidence against the trace and evidence LTS:
/// every row selects its own row, exactly one state (the walk's), drawn; the keys move
/// the selection; a click on the last state in the picture selects its first position.
fn check_marks(ev: &Value, expected: &[String]) {
    let clicks = ev["clicks"].as_array().expect("clicks");
    assert_eq!(clicks.len(), expected.len(), "one row per trace position");
    for (i, c) in clicks.iter().enumerate() {
        assert_eq!(c["row"], i as u64, "row {i} selected itself: {c}");
        if ev["picture"] == true {
            assert_eq!(c["states"], 1, "position {i}: one state marked: {c}");
            assert_eq!(
                c["state"].as_str(),
                Some(expected[i].as_str()),
                "position {i}: the state the trace is in: {c}"
            );
            assert_eq!(
                c["drawn"], true,
                "position {i}: the marked state is drawn: {c}"
            );
            if i > 0 {
                assert!(
                    c["edge"].is_u64(),
                    "step {i}: its transition is marked: {c}"
                );
            }
        }
    }
    let keys: Vec<(String, u64)> = ev["keys"]
        .as_array()
        .unwrap()
        .iter()
        .map(|k| (k[0].as_str().unwrap().to_string(), k[1].as_u64().unwrap()))
        .collect();
    // From the first row: down, down, up, up, up, within the rows.
    let last = clicks.len() as u64 - 1;
    let mut at = 0u64;
    assert_eq!(keys.len(), 5, "{keys:?}");
    for (k, got) in &keys {
        at = match k.as_str() {
            "j" | "ArrowDown" => (at + 1).min(last),
            _ => at.saturating_sub(1),
        };
        assert_eq!(*got, at, "the keys move the selection: {keys:?}");
    }
    if ev["picture"] == true {
        assert_eq!(
            ev["picked"], ev["expected_pick"],
            "a click on a state selects it"
        );
    }
}

#[test]
fn report_on_a_specification_marks_states_and_shows_source_lines() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("two.mcrl2"), SPEC).unwrap();
    // A false formula (counterexample a(0) a(1) a(2) c(3)) and a true one whose witness
    // is a lasso (a run without `done` forever).
    std::fs::write(
        dir.join("no_c3.mcf"),
        "% c(3) never happens\n[true*] [c(3)] false\n",
    )
    .unwrap();
    std::fs::write(dir.join("forever.mcf"), "nu X . <!done> X\n").unwrap();
    let (code, out, err) = check_with_report(
        dir,
        &["two.mcrl2", "-f", "no_c3.mcf", "-f", "forever.mcf"],
        "report.html",
    );
    assert_eq!(code, 1, "one formula is false: {out}{err}");
    let page = dir.join("report.html");
    let html = std::fs::read_to_string(&page).expect("the report is written");
    // Nothing is fetched: no links to other files, no address but SVG's namespace.
    let bare = html.replace("http://www.w3.org/2000/svg", "");
    for needle in [
        "http://", "https://", "<link", " src=", "@import", "url(http",
    ] {
        assert!(
            !bare.contains(needle),
            "the page needs something beside itself: {needle}"
        );
    }
    let traces: Vec<Value> = out
        .lines()
        .map(|l| serde_json::from_str(l).expect("a JSON line"))
        .collect();
    assert_eq!(traces.len(), 2);
    let results = selftest(dir, &page);
    assert_eq!(results.len(), 2, "both formulas have evidence: {results:?}");
    let a_line = line_of(SPEC, "(n < 3) -> a(n)");
    let s_line = line_of(SPEC, "(n == 3) -> s(n)");
    let r_line = line_of(SPEC, "(k < 4) -> r(k)");
    // Steps by communication checked (their lines are those of the parts, `s` and `r`).
    let mut communications = 0;
    for (t, ev) in traces.iter().zip(&results) {
        let stem = Path::new(t["formula"].as_str().unwrap())
            .file_stem()
            .unwrap()
            .to_str()
            .unwrap()
            .to_string();
        let actions = step_actions(t);
        assert!(!actions.is_empty(), "{stem}: the trace has steps: {t}");
        let aut = std::fs::read_to_string(dir.join(format!("ev.{stem}.aut"))).unwrap();
        assert_eq!(ev["picture"], true, "{stem}: a small evidence is drawn");
        check_marks(ev, &walk(&aut, &actions));
        let clicks = ev["clicks"].as_array().unwrap();
        for (i, a) in actions.iter().enumerate() {
            let c = &clicks[i + 1];
            let hits: Vec<u64> = c["hits"]
                .as_array()
                .unwrap()
                .iter()
                .map(|h| h[0].as_u64().unwrap())
                .collect();
            let want: Vec<u64> = if a.starts_with("a(") {
                vec![a_line]
            } else if a.starts_with("c(") {
                communications += 1;
                let mut v = vec![s_line, r_line];
                v.sort_unstable();
                v
            } else {
                panic!("{stem}: unexpected step {a}")
            };
            let mut got = hits.clone();
            got.sort_unstable();
            assert_eq!(
                got,
                want,
                "{stem} step {} ({a}): the marked lines: {c}",
                i + 1
            );
            assert!(
                c["head"].as_str().unwrap().contains(a.as_str()),
                "{stem} step {}: the pane names the step: {c}",
                i + 1
            );
            for h in c["hits"].as_array().unwrap() {
                let l = h[0].as_u64().unwrap() as usize;
                assert_eq!(
                    h[1].as_str().unwrap(),
                    SPEC.lines().nth(l - 1).unwrap(),
                    "{stem}: line {l} shown as written"
                );
            }
        }
        assert!(clicks[0]["hits"].as_array().unwrap().is_empty());
    }
    assert!(communications > 0, "no step by communication: {traces:?}");
    // The lasso is marked as one.
    assert!(
        traces[1]["loop_start"].is_u64(),
        "the witness is a lasso: {}",
        traces[1]
    );
    assert!(
        html.contains("class=\"cycle-mark\""),
        "the cycle's start is marked"
    );
    screenshot(dir, &page, &dir.join("report.png"), 1280, 1400);
}

#[test]
fn report_on_an_lts_names_the_transitions() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("two.mcrl2"), SPEC).unwrap();
    let (code, _, err) = muon_in(dir, &["mcrl22lps", "two.mcrl2", "two.lps"]);
    assert_eq!(code, 0, "{err}");
    let (code, _, err) = muon_in(dir, &["lps2lts", "two.lps", "two.aut"]);
    assert_eq!(code, 0, "{err}");
    std::fs::write(dir.join("no_c3.mcf"), "[true*] [c(3)] false\n").unwrap();
    let (code, out, err) = muon_in(
        dir,
        &[
            "check",
            "two.aut",
            "-l",
            "two.lps",
            "-f",
            "no_c3.mcf",
            "--format",
            "json",
            "--report",
            "lts.html",
        ],
    );
    assert_eq!(code, 1, "{out}{err}");
    let t: Value = serde_json::from_str(out.trim()).unwrap();
    let steps = t["steps"].as_array().unwrap();
    assert!(!steps.is_empty(), "the counterexample has steps: {t}");
    let page = dir.join("lts.html");
    let results = selftest(dir, &page);
    assert_eq!(results.len(), 1);
    let ev = &results[0];
    assert_eq!(ev["picture"], true, "a small evidence is drawn");
    // On an LTS the picture names states by their numbers in the LTS, as the trace does.
    let states: Vec<String> = std::iter::once(t["initial"][0].as_str().unwrap().to_string())
        .chain(
            steps
                .iter()
                .map(|s| s["state"][0].as_str().unwrap().to_string()),
        )
        .collect();
    check_marks(ev, &states);
    // Each step names its transition of two.aut, whose line in the file is that step.
    let model = std::fs::read_to_string(dir.join("two.aut")).unwrap();
    let model_lines: Vec<&str> = model.lines().collect();
    let mut state = states[0].clone();
    for (i, st) in steps.iter().enumerate() {
        let c = &ev["clicks"][i + 1];
        let head = c["head"].as_str().unwrap();
        let k: usize = st["transition"].as_u64().expect("the step's transition") as usize;
        assert!(
            head.contains(&format!("is transition {k} of two.aut")),
            "step {}: {head}",
            i + 1
        );
        let to = st["state"][0].as_str().unwrap().to_string();
        let want = format!("({state},\"{}\",{to})", st["action"].as_str().unwrap());
        assert_eq!(
            model_lines[k + 1].replace(' ', ""),
            want.replace(' ', ""),
            "step {}: transition {k} is the step",
            i + 1
        );
        assert!(head.contains(&format!("from state {state} by")), "{head}");
        assert!(
            c["lines"].as_array().unwrap().is_empty(),
            "no source lines for an LTS"
        );
        state = to;
    }
    screenshot(dir, &page, &dir.join("lts.png"), 1280, 1200);
}

#[test]
fn report_without_evidence_still_lists_the_verdicts() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    std::fs::write(dir.join("two.mcrl2"), SPEC).unwrap();
    std::fs::write(dir.join("no_c3.mcf"), "[true*] [c(3)] false\n").unwrap();
    let (code, out, err) = muon_in(
        dir,
        &[
            "check",
            "two.mcrl2",
            "-f",
            "no_c3.mcf",
            "--no-evidence",
            "--report",
            "v.html",
        ],
    );
    assert_eq!(code, 1, "{out}{err}");
    let html = std::fs::read_to_string(dir.join("v.html")).unwrap();
    assert!(html.contains("<span class=\"verdict false\">false</span>"));
    assert!(
        html.contains("[true*] [c(3)] false"),
        "the formula's text is shown"
    );
    assert!(selftest(dir, &dir.join("v.html")).is_empty());
    let (code, out, err) = muon_in(
        dir,
        &["check", "two.mcrl2", "-f", "no_c3.mcf", "--report", "-"],
    );
    assert_eq!(code, 2, "a report is a file: {err}");
    assert!(
        err.contains("--report writes a page to a file, not to standard output"),
        "{err}"
    );
    assert!(out.is_empty(), "refused before the check: {out}");
}

#[test]
fn report_draws_the_trace_part_of_evidence_too_large_to_draw() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path();
    // 81 states: the witness of `[true*] <true> true` is all of them, too many to draw.
    std::fs::write(
        dir.join("count.mcrl2"),
        "act a: Nat; b;\nproc P(n: Nat) = (n < 80) -> a(n) . P(n + 1) + b . P(0);\ninit P(0);\n",
    )
    .unwrap();
    std::fs::write(dir.join("big.mcf"), "<a(0)> true && [true*] <true> true\n").unwrap();
    let (code, out, err) = check_with_report(
        dir,
        &["count.mcrl2", "-f", "big.mcf", "--engine", "product"],
        "big.html",
    );
    assert_eq!(code, 0, "{out}{err}");
    let t: Value = serde_json::from_str(out.trim()).unwrap();
    assert!(
        t["evidence_lts"]["states"].as_u64().unwrap() > 60,
        "the evidence is too large to draw: {t}"
    );
    let html = std::fs::read_to_string(dir.join("big.html")).unwrap();
    assert!(
        html.contains("too many to draw") && html.contains("drawn are the trace's states"),
        "the caption says what is drawn"
    );
    let actions = step_actions(&t);
    let aut = std::fs::read_to_string(dir.join("ev.aut")).unwrap();
    let results = selftest(dir, &dir.join("big.html"));
    assert_eq!(results.len(), 1);
    assert_eq!(results[0]["picture"], true, "the trace's part is drawn");
    check_marks(&results[0], &walk(&aut, &actions));
}
