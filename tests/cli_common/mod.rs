//! Running the `muon` binary from an integration test: one helper for every test crate that
//! drives the command line (include with `#[path = "cli_common/mod.rs"] mod cli_common;`).

use std::path::Path;
use std::process::Command;

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
