//! `muon sim` on a terminal, used as a person uses it: started in a detached tmux session of
//! 100 × 30 characters, keys sent with `tmux send-keys`, the screen read with `tmux
//! capture-pane`. It shows the state's parameters, the transitions to choose from and the
//! history; number keys, arrows and Enter take transitions, `u` undoes, `d` walks to a
//! deadlock, `q` quits and the terminal is as it was (not raw, echoing).
//!
//! tmux is required: without it this test fails and says to install it.

use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant};

/// The model of `tests/sim.rs` (the same file): the nearest deadlock is 7 steps away; at
/// `k == 1` there are several transitions to choose from.
const SPEC: &str = include_str!("../fixtures/sim/deadlock_seven_steps.mcrl2");

/// A tmux server of its own (its own socket), killed when dropped.
struct Tmux {
    socket: String,
}

impl Tmux {
    fn run(&self, args: &[&str]) -> String {
        let out = Command::new("tmux")
            .arg("-L")
            .arg(&self.socket)
            .args(args)
            .output()
            .expect("tmux runs");
        assert!(
            out.status.success(),
            "tmux {args:?}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        String::from_utf8_lossy(&out.stdout).into_owned()
    }

    /// Types `keys` (tmux key names: `Enter`, `Down`, `u`).
    fn keys(&self, keys: &[&str]) {
        let mut args = vec!["send-keys", "-t", "sim"];
        args.extend_from_slice(keys);
        self.run(&args);
    }

    fn screen(&self) -> String {
        self.run(&["capture-pane", "-p", "-t", "sim"])
    }

    /// Waits until the screen shows every one of `texts`; the screen then.
    fn wait_for(&self, texts: &[&str]) -> String {
        let start = Instant::now();
        loop {
            let screen = self.screen();
            if texts.iter().all(|t| screen.contains(t)) {
                return screen;
            }
            if start.elapsed() > Duration::from_secs(60) {
                panic!("the screen never showed {texts:?}; it shows:\n{screen}");
            }
            std::thread::sleep(Duration::from_millis(100));
        }
    }
}

impl Drop for Tmux {
    fn drop(&mut self) {
        let _ = Command::new("tmux")
            .args(["-L", &self.socket, "kill-server"])
            .output();
    }
}

/// The line of `screen` that contains `text`.
fn line_with<'a>(screen: &'a str, text: &str) -> &'a str {
    screen
        .lines()
        .find(|l| l.contains(text))
        .unwrap_or_else(|| panic!("no line with `{text}` in:\n{screen}"))
}

/// Starts `muon ARGS… m.mcrl2` (the model [`SPEC`]) in a detached tmux session of 100 × 30
/// in a new directory, on a tmux server of its own named after `name`. After muon ends, the
/// shell prints `sim-exited-STATUS` and whether the terminal is back to canonical mode with
/// echo (`tty: icanon echo`; raw mode would be `-icanon -echo`).
fn start(name: &str, args: &str) -> (Tmux, tempfile::TempDir) {
    let tmux_there = Command::new("tmux").arg("-V").output();
    assert!(
        tmux_there.is_ok_and(|o| o.status.success()),
        "this test drives `muon sim` in tmux, which is missing: install it (Debian: `apt-get install tmux`)"
    );
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("m.mcrl2"), SPEC).unwrap();
    let tmux = Tmux {
        socket: format!("muon-{name}-{}", std::process::id()),
    };
    let bin = Path::new(env!("CARGO_BIN_EXE_muon"));
    let shell = format!(
        "'{}' {args} m.mcrl2; echo \"sim-exited-$?\"; echo \"tty: $(stty -a | tr ' ;' '\\n\\n' | grep -x -e icanon -e -icanon -e echo -e -echo | tr '\\n' ' ')\"; sleep 600",
        bin.display()
    );
    tmux.run(&[
        "new-session",
        "-d",
        "-s",
        "sim",
        "-x",
        "100",
        "-y",
        "30",
        "-c",
        dir.path().to_str().unwrap(),
        &shell,
    ]);
    (tmux, dir)
}

#[test]
fn a_person_chooses_undoes_and_quits() {
    let (tmux, _dir) = start("sim-keys", "sim");

    // The initial state: its parameters, its one transition, the history's start.
    let screen = tmux.wait_for(&["Transitions (1)", "History (0 steps)"]);
    assert!(screen.contains("│n = 0"), "{screen}");
    assert!(screen.contains("│k = 0"), "{screen}");
    assert!(
        line_with(&screen, "step(0)").contains("1  step(0)  n: 0 → 1"),
        "{screen}"
    );
    assert!(
        line_with(&screen, "0  initial state").contains('●'),
        "{screen}"
    );

    // Number keys take the only transition, four times (step(0), step(1), step(2), reset).
    for _ in 0..4 {
        tmux.keys(&["1"]);
    }
    let screen = tmux.wait_for(&["History (4 steps)", "Transitions (3)"]);
    assert!(screen.contains("after step 4 of 4: reset"), "{screen}");
    assert!(screen.contains("│n = 0"), "{screen}");
    assert!(screen.contains("│k = 1"), "{screen}");
    assert!(
        line_with(&screen, "pick(0)").contains("2  pick(0)  k: 1 → 10   [v = 0]"),
        "{screen}"
    );
    assert!(
        line_with(&screen, "pick(1)").contains("3  pick(1)  k: 1 → 11   [v = 1]"),
        "{screen}"
    );
    assert!(
        line_with(&screen, "4  reset").contains("n: 3 → 0, k: 0 → 1"),
        "{screen}"
    );

    // Arrows and Enter: the third transition, pick(1).
    tmux.keys(&["Down", "Down", "Enter"]);
    let screen = tmux.wait_for(&["History (5 steps)", "after step 5 of 5: pick(1)"]);
    assert!(screen.contains("│k = 11"), "{screen}");
    assert!(line_with(&screen, "5  pick(1)").contains('●'), "{screen}");

    // Undo: back at (0, 1), the step forgotten.
    tmux.keys(&["u"]);
    let screen = tmux.wait_for(&["History (4 steps)", "Transitions (3)"]);
    assert!(screen.contains("undid the last step"), "{screen}");
    assert!(screen.contains("│k = 1 "), "{screen}");
    assert!(!screen.contains("5  pick(1)"), "{screen}");
    assert!(line_with(&screen, "4  reset").contains('●'), "{screen}");

    // A deadlock: a shortest path walked to, 3 steps from here.
    tmux.keys(&["d"]);
    let screen = tmux.wait_for(&["History (7 steps)", "Transitions: none, a deadlock"]);
    assert!(screen.contains("found a deadlock 3 steps away"), "{screen}");
    assert!(line_with(&screen, "7  done").contains('●'), "{screen}");
    assert!(screen.contains("│n = 7"), "{screen}");

    // Back through the history: the step ahead is kept and selected to take again.
    tmux.keys(&["Left"]);
    let screen = tmux.wait_for(&["after step 6 of 7: step(1)"]);
    assert!(line_with(&screen, "6  step(1)").contains('●'), "{screen}");
    assert!(line_with(&screen, "4  done").contains('▶'), "{screen}");

    // Quit: muon ends with status 0 and the terminal is as it was.
    tmux.keys(&["q"]);
    let screen = tmux.wait_for(&["sim-exited-", "tty:"]);
    assert!(screen.contains("sim-exited-0"), "{screen}");
    assert!(screen.contains("tty: icanon echo"), "{screen}");
    assert!(
        !screen.contains("History"),
        "the screen was not restored:\n{screen}"
    );
}

#[test]
fn a_stop_by_the_run_s_budget_puts_the_terminal_back() {
    // `--timeout 1`: the screen ends by itself after a second, the terminal as it was, and
    // the run says it was stopped (exit 3).
    let (tmux, _dir) = start("sim-timeout", "--timeout 1 sim");
    tmux.wait_for(&["Transitions (1)"]);
    let screen = tmux.wait_for(&["sim-exited-", "tty:"]);
    assert!(screen.contains("muon: stopped: "), "{screen}");
    assert!(screen.contains("sim-exited-3"), "{screen}");
    assert!(screen.contains("tty: icanon echo"), "{screen}");
    assert!(
        !screen.contains("History"),
        "the screen was not restored:\n{screen}"
    );
}
