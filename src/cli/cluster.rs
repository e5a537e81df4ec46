//! The options of a run on several workers and processes, shared by `lps2lts` and
//! `check --engine explore`.

use std::path::PathBuf;

use crate::distrib::Cluster;

/// Where a distributed run happens: workers per process, processes and their addresses.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct ClusterArgs {
    /// Explore on NUM workers per process, as a timely dataflow computation (states
    /// partitioned over the workers); results do not depend on it. Without it, and without
    /// --processes, the one-process search of --threads runs.
    #[arg(long, value_name = "NUM")]
    pub workers: Option<usize>,
    /// Explore on NUM processes (this machine's or the --hosts file's); every process gets
    /// the same command line but for --process. Process 0 writes the outputs and prints the
    /// results; the others print nothing.
    #[arg(long, value_name = "NUM")]
    pub processes: Option<usize>,
    /// This process's index among --processes, from 0.
    #[arg(long, value_name = "I")]
    pub process: Option<usize>,
    /// The processes' addresses: one `host:port` per line, in process order (default:
    /// 127.0.0.1 from port 2101 on). Each process listens on its own line's address only.
    /// The links are neither encrypted nor authenticated: use them inside a trusted network.
    #[arg(long, value_name = "FILE")]
    pub hosts: Option<PathBuf>,
    /// Seconds a process waits for the others to connect before it gives up.
    #[arg(long, value_name = "SECONDS", default_value_t = 60)]
    pub connect_timeout: u64,
}

impl ClusterArgs {
    /// Whether any option of a distributed run was given (`--process` alone is refused by
    /// [`ClusterArgs::cluster`]).
    pub fn asked(&self) -> bool {
        self.workers.is_some() || self.processes.is_some() || self.hosts.is_some()
    }

    /// The cluster these options describe, or `None` for a one-process run; `tool` names
    /// the subcommand in error codes.
    pub fn cluster(&self, tool: &str) -> miette::Result<Option<Cluster>> {
        let refuse = |what: String, help: &str| -> miette::Result<Option<Cluster>> {
            Err(miette::miette!(
                code = format!("muon::{tool}::cluster"),
                help = help.to_string(),
                "{what}"
            ))
        };
        if !self.asked() {
            if self.process.is_some() {
                return refuse(
                    "--process needs --processes".into(),
                    "add --processes NUM (or --hosts FILE)",
                );
            }
            return Ok(None);
        }
        let workers = self.workers.unwrap_or(1);
        if workers == 0 || workers > 1024 {
            return refuse(
                "--workers must be between 1 and 1024".into(),
                "e.g. --workers 2",
            );
        }
        let hosts = match &self.hosts {
            Some(f) => Cluster::read_hosts(f)
                .map_err(|e| miette::miette!(code = format!("muon::{tool}::hosts"), "{e}"))?,
            None => Cluster::loopback(self.processes.unwrap_or(1), crate::distrib::DEFAULT_PORT),
        };
        if let Some(p) = self.processes {
            if p == 0 || p != hosts.len() {
                return refuse(
                    format!(
                        "--processes {p} but the hosts file names {} process{}",
                        hosts.len(),
                        if hosts.len() == 1 { "" } else { "es" }
                    ),
                    "give one host:port line per process",
                );
            }
        }
        let process = self.process.unwrap_or(0);
        if process >= hosts.len() {
            return refuse(
                format!(
                    "--process {process} is not below the {} processes",
                    hosts.len()
                ),
                "processes are numbered from 0",
            );
        }
        if hosts.len() > 1 && self.process.is_none() {
            return refuse(
                "a run on several processes needs --process I on each".into(),
                "start process I with --process I (scripts/cluster starts them all)",
            );
        }
        Ok(Some(Cluster {
            workers,
            process,
            hosts,
            connect_timeout: std::time::Duration::from_secs(self.connect_timeout.max(1)),
        }))
    }
}
