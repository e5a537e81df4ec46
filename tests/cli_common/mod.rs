//! Running the `muon` binary from an integration test: one helper for every test crate that
//! drives the command line (include with `#[path = "cli_common/mod.rs"] mod cli_common;`).

use std::path::Path;
use std::process::{Child, Command, ExitStatus, Output};
use std::time::{Duration, Instant};

/// Runs `muon args…`: (exit code, or -1 when killed by a signal; stdout; stderr).
#[allow(dead_code)] // not every test crate runs the binary
pub fn muon(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_muon"))
        .args(args)
        .output()
        .expect("the muon binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// Runs `muon args…` in the directory `dir` (relative paths in `args` are read and written
/// there), with an empty standard input: (exit code, stdout, stderr) as [`muon`].
#[allow(dead_code)] // not every test crate runs the binary elsewhere
pub fn muon_in(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_muon"))
        .current_dir(dir)
        .args(args)
        .stdin(std::process::Stdio::null())
        .output()
        .expect("the muon binary runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// `p` as an argument (test paths are UTF-8).
#[allow(dead_code)] // not every test crate passes paths
pub fn s(p: &Path) -> &str {
    p.to_str().expect("a UTF-8 path")
}

/// Writes `src` to `dir/NAME.mcrl2` and linearises it to `dir/NAME.lps` (which it returns),
/// failing the test when `mcrl22lps` does not accept it.
#[allow(dead_code)] // not every test crate linearises a text of its own
pub fn linearise_text(dir: &Path, name: &str, src: &str) -> std::path::PathBuf {
    let spec = dir.join(format!("{name}.mcrl2"));
    std::fs::write(&spec, src).unwrap();
    let lps = dir.join(format!("{name}.lps"));
    let (code, _, err) = muon(&["mcrl22lps", s(&spec), s(&lps)]);
    assert_eq!(code, 0, "{err}\n{src}");
    lps
}

/// Waits for `child` (spawned with piped standard output and error) at most `limit`:
/// `Ok` with its output when it ends, `Err` with what it wrote when it had to be killed.
/// Both pipes are read while it runs: a child that writes more than a pipe holds would
/// otherwise block on the write and look hung.
#[allow(dead_code)] // not every test crate spawns children
pub fn wait_limited(mut child: Child, limit: Duration) -> Result<Output, Output> {
    use std::io::Read;
    fn drain(pipe: Option<impl Read + Send + 'static>) -> std::thread::JoinHandle<Vec<u8>> {
        std::thread::spawn(move || {
            let mut buf = Vec::new();
            if let Some(mut p) = pipe {
                let _ = p.read_to_end(&mut buf);
            }
            buf
        })
    }
    let out = drain(child.stdout.take());
    let err = drain(child.stderr.take());
    let start = Instant::now();
    let (status, ended): (ExitStatus, bool) = loop {
        if let Some(status) = child.try_wait().expect("waiting for a child") {
            break (status, true);
        }
        if start.elapsed() > limit {
            let _ = child.kill();
            break (child.wait().expect("waiting for a killed child"), false);
        }
        std::thread::sleep(Duration::from_millis(5));
    };
    let output = Output {
        status,
        stdout: out.join().unwrap_or_default(),
        stderr: err.join().unwrap_or_default(),
    };
    if ended {
        Ok(output)
    } else {
        Err(output)
    }
}
