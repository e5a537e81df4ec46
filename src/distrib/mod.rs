//! State-space exploration over several workers and processes, on timely dataflow.
//!
//! `muon lps2lts --workers N` (one process, N workers) and `--processes P --process I
//! --hosts FILE` (P processes, each with N workers) run the breadth-first search as a
//! timely computation; without these options `lps2lts` takes the one-process path of
//! [`crate::lts::generate()`] unchanged.
//!
//! # How the work is split
//!
//! Every worker has its own term store, compiled LPS, summand memo and part of the state
//! table. A state belongs to the worker chosen by a hash of the *value words*
//! ([`crate::data::portable`]) of some of its parameters: those that transitions seldom
//! change, chosen alike on every process from random walks (`partition`), so
//! most successors belong to their source's worker, which looks them up from the source's
//! tree with no message. Term ids mean nothing in another store, so the other successors
//! travel as values and their owner rebuilds them in its own store. Every process compiles the
//! same specification the same way, so function symbols travel by number; the processes
//! compare a fingerprint of their symbols before exploring and refuse to start when they
//! differ (different inputs or versions).
//!
//! # Levels and the numbering
//!
//! The search is level-synchronous. A level is five rounds, each ended by timely's progress
//! tracking (a round is over when every worker's records of it have arrived):
//!
//! 1. *expand*: each worker expands its states of the level in number order and sends
//!    successor `j` of state `c` to its owner as `(c, j, label, value)`;
//! 2. *look up*: owners insert the successors; a new state keeps the least position
//!    `(c, j)` that reached it (the first transition to it in the order of a sequential
//!    search) and sends it to the worker that ranks that part of the level's numbers;
//! 3. *count*: rankers sort the positions they got and tell everyone how many;
//! 4. *number*: a prefix sum over the counts gives each ranker its range, so position `k`
//!    in the sorted order gets number `states + k`, exactly as the one-process search
//!    numbers it; with `--max`, the ranker holding the state that reaches the bound says
//!    after which source the sequential search would have stopped;
//! 5. *settle*: owners record the numbers, send worker 0 the level's transitions (when an
//!    output is written) and every worker its counts.
//!
//! Worker 0 sorts a level's transitions by `(c, j)` and hands them to the same output code
//! as the one-process run ([`crate::lts::generate::generate_with`]), so the `.aut` file is
//! identical for any number of processes and workers, labels numbered in order of first use.
//! The cost of this numbering is two extra rounds per level and 28 bytes per new state in
//! messages (16 to its ranker, 12 back); a run without an output keeps only the current
//! level's numbers.
//!
//! A stop anywhere (Ctrl-C, `--timeout`, `--memory-limit` of any process, an error) is
//! reported in round 5, and every worker ends after that level with the statistics so far
//! and no output. A process that dies takes timely's connections down with it; the others
//! end with an error (see [`run_lps`]).

mod comm;
mod connect;
mod partition;
mod paths;
mod records;
mod rounds;

pub use rounds::Dist;

use std::path::Path;
use std::sync::Arc;

use std::time::Duration;
use timely::communication::allocator::zero_copy::initialize::initialize_networking_from_sockets;
use timely::communication::allocator::{AllocatorBuilder, ProcessBuilder};
use timely::communication::initialize::Hooks;

use crate::data::portable::{self, PortableError};
use crate::lps::Lps;
use crate::lts::generate::{
    explore_options, generate_with, GenerateError, GenerateOptions, GenerateReport,
};
use crate::lts::lps::LpsSystem;
use crate::lts::TransitionSystem;

/// A system whose states can be sent to another process as values: each word of a row
/// (for an LPS, one term per parameter) has *value words* that any process can rebuild.
pub trait Portable: TransitionSystem {
    /// A worker's caches of the values it wrote and read (values repeat across states far
    /// more than states do, as tree compression relies on).
    type Codec: Default;
    /// Appends the value words of row word `word` to `out`.
    fn encode_value(&self, codec: &mut Self::Codec, word: u32, out: &mut Vec<u32>);
    /// The row word of value words written by [`encode_value`](Portable::encode_value) on
    /// any process (all of `words`).
    fn decode_value(&self, codec: &mut Self::Codec, words: &[u32]) -> Result<u32, PortableError>;
    /// A hash of the value of row word `word`, the same on every process.
    fn value_hash(&self, codec: &mut Self::Codec, word: u32) -> u64;
    /// Equal on every process that may exchange states with this one.
    fn fingerprint(&self) -> u64;
    /// Whether row word `pos` means the same on every process (a control word such as an
    /// automaton's class, not a term): it travels as itself, not as a value.
    fn literal(&self, _pos: usize) -> bool {
        false
    }
}

/// The caches of an LPS as a [`Portable`] system (the function symbols it knew when
/// compiled travel by number): per term id, its value's words and hash.
#[derive(Default)]
pub struct LpsCodec {
    /// Per term id: (start, length) of its words in `arena`; length 0 for not yet known.
    words: Vec<(u32, u32)>,
    hashes: Vec<u64>,
    arena: Vec<u32>,
}

impl LpsCodec {
    /// The value words of term `t`, written once.
    fn words_of(&mut self, sys: &LpsSystem<'_>, t: u32) -> (usize, usize) {
        if let Some(&(at, len)) = self.words.get(t as usize) {
            if len > 0 {
                return (at as usize, len as usize);
            }
        }
        let at = self.arena.len();
        portable::encode(
            sys.store(),
            sys.shared_symbols(),
            crate::data::TermId(t),
            &mut self.arena,
        );
        let len = self.arena.len() - at;
        if self.words.len() <= t as usize {
            self.words.resize(t as usize + 1, (0, 0));
        }
        self.words[t as usize] = (at as u32, len as u32);
        (at, len)
    }
}

impl Portable for LpsSystem<'_> {
    type Codec = LpsCodec;

    fn encode_value(&self, codec: &mut LpsCodec, word: u32, out: &mut Vec<u32>) {
        let (at, len) = codec.words_of(self, word);
        out.extend_from_slice(&codec.arena[at..at + len]);
    }

    fn decode_value(&self, _codec: &mut LpsCodec, words: &[u32]) -> Result<u32, PortableError> {
        let mut pos = 0;
        let t = portable::decode(self.store(), self.shared_symbols(), words, &mut pos)?;
        if pos != words.len() {
            return Err(PortableError("words left after a value".into()));
        }
        Ok(t.0)
    }

    fn value_hash(&self, codec: &mut LpsCodec, word: u32) -> u64 {
        if let Some(&h) = codec.hashes.get(word as usize) {
            if h != 0 {
                return h;
            }
        }
        let (at, len) = codec.words_of(self, word);
        let mut h: u64 = 0x243F_6A88_85A3_08D3;
        for &w in &codec.arena[at..at + len] {
            h = (h ^ w as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15);
            h ^= h >> 29;
        }
        let h = h | 1;
        if codec.hashes.len() <= word as usize {
            codec.hashes.resize(word as usize + 1, 0);
        }
        codec.hashes[word as usize] = h;
        h
    }

    fn fingerprint(&self) -> u64 {
        portable::fingerprint(self.store(), self.shared_symbols())
    }
}

/// Where the workers run.
#[derive(Clone, Debug)]
pub struct Cluster {
    /// Workers (threads) per process.
    pub workers: usize,
    /// This process's index, `0..hosts.len()`.
    pub process: usize,
    /// One `host:port` per process, in process order; a process listens on its own entry
    /// only (loopback addresses by default).
    pub hosts: Vec<String>,
    /// How long a process waits for the others to connect before giving up.
    pub connect_timeout: Duration,
}

/// The first port of the default loopback addresses (`127.0.0.1:2101`, `:2102`, ...).
pub const DEFAULT_PORT: u16 = 2101;

impl Cluster {
    /// `processes` processes on loopback, from [`DEFAULT_PORT`] on.
    pub fn loopback(processes: usize, base_port: u16) -> Vec<String> {
        (0..processes)
            .map(|i| format!("127.0.0.1:{}", base_port as usize + i))
            .collect()
    }

    /// Reads a hosts file: one `host:port` per process, in process order; blank lines and
    /// lines starting with `#` are skipped.
    pub fn read_hosts(path: &Path) -> Result<Vec<String>, String> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("{}: cannot read the hosts file: {e}", path.display()))?;
        let mut hosts = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let ok = line
                .rsplit_once(':')
                .is_some_and(|(h, p)| !h.is_empty() && p.parse::<u16>().is_ok_and(|p| p > 0));
            if !ok || line.contains(char::is_whitespace) {
                return Err(format!(
                    "{}:{}:1: `{line}` is not `host:port` (one process per line, e.g. 127.0.0.1:2101)",
                    path.display(),
                    i + 1
                ));
            }
            hosts.push(line.to_string());
        }
        if hosts.is_empty() {
            return Err(format!(
                "{}: the hosts file names no process",
                path.display()
            ));
        }
        Ok(hosts)
    }

    fn processes(&self) -> usize {
        self.hosts.len()
    }
}

/// What a distributed `lps2lts` gives back on this process.
pub enum Outcome {
    /// Process 0: the report of the run (outputs written as asked).
    Lead(Box<GenerateReport>),
    /// Another process: it wrote nothing; the counts are process 0's to print.
    Helper,
}

/// Explores `lps` on `cluster` and, on process 0, writes what `opts` asks for (as
/// [`crate::lts::generate()`] does). `stack` is each worker's stack (deep rewriting needs
/// more than a thread's default).
pub fn run_lps(
    lps: Arc<Lps>,
    opts: &GenerateOptions,
    cluster: &Cluster,
    stack: usize,
) -> Result<Outcome, GenerateError> {
    let opts = Arc::new(opts.clone());
    let lead_process = cluster.process == 0;
    let report = execute(cluster, stack, move |worker| {
        work(worker, &lps, &opts, lead_process, stack)
    })?;
    Ok(match report {
        Some(r) => Outcome::Lead(Box::new(r)),
        None => Outcome::Helper,
    })
}

/// Runs `work` on each of this process's workers of `cluster`, as one timely computation
/// with the other processes (each worker on a stack of `stack` bytes), and returns the
/// value of the first of this process's workers that gave one (`work` gives one on worker 0
/// of process 0 for `lps2lts`, on the first worker of every process for the monitor). The first error of any
/// worker is returned; a lost connection or a peer that never comes is an error too, never
/// a hang.
pub fn execute<T, E, F>(cluster: &Cluster, stack: usize, work: F) -> Result<Option<T>, E>
where
    T: Send + 'static,
    E: From<GenerateError> + Send + 'static,
    F: Fn(&mut timely::worker::Worker) -> Result<Option<T>, E> + Send + Sync + 'static,
{
    // timely's threads panic when a connection breaks; the panic is reported once, below,
    // as an error, so their messages are not printed.
    quiet_timely_panics();
    let (builders, others): (Vec<AllocatorBuilder>, Box<dyn std::any::Any + Send>) =
        if cluster.processes() == 1 {
            timely::CommunicationConfig::Process(cluster.workers)
                .try_build()
                .map_err(|e| GenerateError::Explore(format!("cannot start the workers: {e}")))?
        } else {
            let sockets =
                connect::sockets(&cluster.hosts, cluster.process, cluster.connect_timeout)
                    .map_err(GenerateError::Explore)?;
            let hooks = Hooks::default();
            let local = ProcessBuilder::new_typed_vector(
                cluster.workers,
                hooks.refill.clone(),
                hooks.spill.clone(),
            );
            let (tcp, guard) = initialize_networking_from_sockets(
                local,
                sockets,
                cluster.process,
                cluster.workers,
                hooks,
            )
            .map_err(|e| GenerateError::Explore(format!("cannot connect the processes: {e}")))?;
            (
                tcp.into_iter().map(AllocatorBuilder::Tcp).collect(),
                Box::new(guard),
            )
        };
    let guards = timely::execute::execute_from(
        builders,
        others,
        timely::WorkerConfig::default(),
        move |worker| stacker::grow(stack, || work(worker)),
    )
    .map_err(|e| GenerateError::Explore(format!("cannot start the workers: {e}")))?;
    let mut lead = None;
    let mut first_error = None;
    // Dropping the connections re-raises a broken connection's panic: it becomes an error.
    let results = std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| guards.join()))
        .map_err(|p| {
            let text = p
                .downcast_ref::<String>()
                .cloned()
                .or_else(|| p.downcast_ref::<&str>().map(|s| s.to_string()))
                .unwrap_or_default();
            GenerateError::Explore(lost(&text))
        })?;
    for r in results {
        match r {
            Ok(Ok(Some(t))) => {
                lead.get_or_insert(t);
            }
            Ok(Ok(None)) => {}
            Ok(Err(e)) => {
                first_error.get_or_insert(e);
            }
            Err(panic) => {
                first_error.get_or_insert(E::from(GenerateError::Explore(lost(&panic))));
            }
        }
    }
    match first_error {
        Some(e) => Err(e),
        None => Ok(lead),
    }
}

/// Leaves the panics of timely's threads (workers, senders, receivers), and the one its
/// connections raise again when they are dropped, to be reported as errors by [`run_lps`];
/// other panics are printed as before.
fn quiet_timely_panics() {
    static ONCE: std::sync::Once = std::sync::Once::new();
    ONCE.call_once(|| {
        let previous = std::panic::take_hook();
        std::panic::set_hook(Box::new(move |info| {
            let timely = std::thread::current()
                .name()
                .is_some_and(|n| n.starts_with("timely:"))
                || info.location().is_some_and(|l| l.file().contains("timely"));
            if !timely {
                previous(info);
            }
        }));
    });
}

/// The message for a worker that panicked: timely's lost connections say so.
fn lost(panic: &str) -> String {
    let broken = [
        "timely communication error",
        "MergeQueue poisoned",
        "Send thread panic",
        "Recv thread panic",
    ];
    if broken.iter().any(|b| panic.contains(b)) {
        // timely's own words ("Send thread panic: Any { .. }") say nothing more.
        let cause = panic
            .split_once("timely communication error:")
            .map(|(_, c)| format!(" ({})", c.trim()))
            .unwrap_or_default();
        format!(
            "the connection to another process was lost{cause}: did it stop or fail, or was it started with other --workers or --hosts?"
        )
    } else {
        format!("a worker failed: {panic}")
    }
}

/// One worker: its own store and compiled LPS, then the level loop; worker 0 of process 0
/// writes the outputs.
fn work(
    worker: &mut timely::worker::Worker,
    lps: &Lps,
    opts: &GenerateOptions,
    lead_process: bool,
    stack: usize,
) -> Result<Option<GenerateReport>, GenerateError> {
    let store = crate::data::TermStore::new();
    let sys = LpsSystem::new(lps, &store, Some(stack.saturating_sub(64 << 20)))
        .map_err(|e| GenerateError::Explore(format!("cannot explore the LPS: {e}")))?;
    let keep_transitions = opts.output.is_some();
    let lead = lead_process && worker.index() == 0;
    if lead {
        let mut log = std::io::stderr();
        let report = generate_with(opts, &mut log, |explore| {
            rounds::Dist::new(worker, &sys, explore.clone(), keep_transitions)
        })?;
        Ok(Some(report))
    } else {
        let mut dist = rounds::Dist::new(worker, &sys, explore_options(opts)?, keep_transitions);
        crate::lts::generate::Engine::run(&mut dist, &mut ())?;
        Ok(None)
    }
}
