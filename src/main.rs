//! The `muon` binary: a thin shell around [`muon::cli`].

fn main() -> std::process::ExitCode {
    muon::cli::main()
}
