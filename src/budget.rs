//! The run's resource budget: a memory limit, a time limit and Ctrl-C, turned into one
//! cooperative stop request that the long loops (exploration, instantiation, reduction,
//! solving) poll, so that a run that outgrows its budget ends with what it found so far and
//! a message instead of being killed by the kernel.
//!
//! A watchdog thread samples the process's resident memory (`/proc/self/statm`) and the
//! clock every few milliseconds and raises the stop request; polling it is one relaxed
//! atomic load ([`stop_requested`]). Outputs written while a stop is requested are not
//! renamed into place ([`crate::artifact::write_output`] asks [`may_persist`]), and the
//! temporary files of outputs being written are registered here so that a second Ctrl-C,
//! which exits at once, removes them first.

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, AtomicU64, AtomicU8, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

/// Exit status of a run stopped by its budget (memory limit, timeout, Ctrl-C).
pub const EXIT_STOPPED: u8 = 3;

/// How often the watchdog samples memory and time.
const TICK: Duration = Duration::from_millis(5);
/// How long a stop request may wait for a polling point before the process is ended.
const GRACE: Duration = Duration::from_secs(2);
/// The same after the memory limit, which keeps growing meanwhile.
const GRACE_MEMORY: Duration = Duration::from_millis(300);
/// Whether a loop answered the stop request (it then ends the run itself, with partial
/// results, however long writing them takes).
static ACKNOWLEDGED: AtomicBool = AtomicBool::new(false);

/// Why a run was asked to stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StopReason {
    /// The resident memory reached the limit (bytes).
    Memory(u64),
    /// The time limit (seconds) passed.
    Timeout(u64),
    /// The user pressed Ctrl-C (SIGINT) or the process got SIGTERM.
    Interrupted,
}

impl StopReason {
    /// What happened, for the message of a stopped run.
    pub fn describe(self) -> String {
        match self {
            StopReason::Memory(b) => format!("the memory limit of {} was reached", show_bytes(b)),
            StopReason::Timeout(s) => format!("the time limit of {s} s passed"),
            StopReason::Interrupted => "interrupted".to_string(),
        }
    }

    /// What to try next.
    pub fn advice(self) -> &'static str {
        match self {
            StopReason::Memory(_) => {
                "raise --memory-limit (e.g. --memory-limit 8G), bound the exploration with \
                 --max, or reduce the model (fewer data values, more hiding/allow)"
            }
            StopReason::Timeout(_) => "raise --timeout, or bound the work (e.g. --max)",
            StopReason::Interrupted => "run again without interrupting to get the full result",
        }
    }
}

/// 0: none; 1: memory; 2: timeout; 3: interrupted.
static STOP: AtomicU8 = AtomicU8::new(0);
/// The memory limit in bytes (`u64::MAX`: none), and the time limit in seconds.
static MEM_LIMIT: AtomicU64 = AtomicU64::new(u64::MAX);
static TIME_LIMIT: AtomicU64 = AtomicU64::new(u64::MAX);
/// Highest resident memory the watchdog saw.
static PEAK: AtomicU64 = AtomicU64::new(0);
/// Whether outputs may still be persisted after a stop (the user asked for partial results).
static PARTIAL_OK: AtomicBool = AtomicBool::new(false);
/// Temporary files of outputs being written (removed by a second Ctrl-C before exiting).
static TEMP_FILES: Mutex<Vec<PathBuf>> = Mutex::new(Vec::new());

/// Whether a stop was requested, and why. One atomic load: cheap enough for inner loops.
pub fn stop_requested() -> Option<StopReason> {
    match STOP.load(Ordering::Relaxed) {
        0 => None,
        1 => Some(StopReason::Memory(MEM_LIMIT.load(Ordering::Relaxed))),
        2 => Some(StopReason::Timeout(TIME_LIMIT.load(Ordering::Relaxed))),
        _ => Some(StopReason::Interrupted),
    }
}

/// Requests a stop (the first reason wins).
pub fn request_stop(reason: StopReason) {
    let code = match reason {
        StopReason::Memory(_) => 1,
        StopReason::Timeout(_) => 2,
        StopReason::Interrupted => 3,
    };
    let _ = STOP.compare_exchange(0, code, Ordering::Relaxed, Ordering::Relaxed);
}

/// Whether a stop was requested, acknowledging it: the caller stops at this point and ends
/// the run with what it found so far (the watchdog no longer ends the process).
pub fn poll_stop() -> Option<StopReason> {
    let r = stop_requested();
    if r.is_some() {
        ACKNOWLEDGED.store(true, Ordering::Relaxed);
    }
    r
}

/// Announces an allocation of `bytes` at once in a step that does not poll (a hash table's
/// rehash), by a stage that polls between such steps (exploration). When the memory limit
/// would be reached, or a stop is already pending, the stop is requested and acknowledged
/// here: the step completes (overshooting the limit by at most `bytes`) and the stage stops
/// at its next polling point with its partial results, instead of the watchdog ending the
/// process in the middle of the step because it did not poll in time.
pub fn before_big_allocation(bytes: u64) {
    let limit = MEM_LIMIT.load(Ordering::Relaxed);
    if limit != u64::MAX {
        if let Some(rss) = resident_bytes() {
            if rss.saturating_add(bytes) >= limit {
                request_stop(StopReason::Memory(limit));
            }
        }
    }
    if stop_requested().is_some() {
        ACKNOWLEDGED.store(true, Ordering::Relaxed);
    }
}

/// Whether `bytes` more would keep the process's resident memory under `percent` % of the
/// memory limit (always, without a limit): for stages that can trade memory for time and
/// should stop trading well before the limit stops them.
pub fn room_for(bytes: u64, percent: u64) -> bool {
    let limit = MEM_LIMIT.load(Ordering::Relaxed);
    if limit == u64::MAX {
        return true;
    }
    resident_bytes().is_none_or(|rss| rss.saturating_add(bytes) < limit / 100 * percent)
}

/// A stop request as an error value, for stages whose loops return `Result`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error("stopped: {}", .0.describe())]
pub struct Stopped(pub StopReason);

/// `Err(Stopped)` when a stop was requested: `budget::check()?` in a loop.
pub fn check() -> Result<(), Stopped> {
    match poll_stop() {
        None => Ok(()),
        Some(r) => Err(Stopped(r)),
    }
}

/// Lets outputs be persisted although a stop was requested (partial results on request).
pub fn allow_partial_output(yes: bool) {
    PARTIAL_OK.store(yes, Ordering::Relaxed);
}

/// Whether an output may be renamed into place now: not after a stop, unless partial
/// output was asked for.
pub fn may_persist() -> bool {
    stop_requested().is_none() || PARTIAL_OK.load(Ordering::Relaxed)
}

/// Registers the temporary file of an output being written.
pub fn register_temp(path: &Path) {
    if let Ok(mut v) = TEMP_FILES.lock() {
        v.push(path.to_path_buf());
    }
}

/// Forgets a temporary file (renamed into place or removed).
pub fn unregister_temp(path: &Path) {
    if let Ok(mut v) = TEMP_FILES.lock() {
        v.retain(|p| p != path);
    }
}

/// The highest resident memory seen so far (bytes; 0 where it cannot be measured).
pub fn peak_memory() -> u64 {
    PEAK.load(Ordering::Relaxed)
        .max(resident_bytes().unwrap_or(0))
}

/// The process's resident memory in bytes (Linux: `/proc/self/statm`).
pub fn resident_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = text.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// Bytes of a `/proc/meminfo` field (given in kB there).
fn meminfo(field: &str) -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with(field))?;
    let kb: u64 = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb * 1024)
}

/// The memory this process may use without risking the kernel's OOM killer: what is
/// available now (and under a cgroup's `memory.max`), of which the default limit takes
/// [`DEFAULT_SHARE_PERCENT`]. `None` where it cannot be read.
pub fn available_memory() -> Option<u64> {
    let mut avail = meminfo("MemAvailable:")?;
    let cg = |f: &str| -> Option<u64> {
        std::fs::read_to_string(format!("/sys/fs/cgroup/{f}"))
            .ok()?
            .trim()
            .parse()
            .ok()
    };
    if let (Some(max), Some(cur)) = (cg("memory.max"), cg("memory.current")) {
        avail = avail.min(max.saturating_sub(cur));
    }
    Some(avail + resident_bytes().unwrap_or(0))
}

/// Share of the available memory the default limit allows.
pub const DEFAULT_SHARE_PERCENT: u64 = 80;

/// The default memory limit: [`DEFAULT_SHARE_PERCENT`] of [`available_memory`].
pub fn default_memory_limit() -> Option<u64> {
    available_memory().map(|a| a / 100 * DEFAULT_SHARE_PERCENT)
}

/// Parses a size: a number with an optional `K`, `M`, `G` or `T` suffix (powers of 1024,
/// an optional trailing `B` or `iB`), or plain bytes.
pub fn parse_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let t = t
        .strip_suffix("iB")
        .or_else(|| t.strip_suffix("ib"))
        .or_else(|| t.strip_suffix(['B', 'b']))
        .unwrap_or(t);
    let (num, shift) = match t.chars().last() {
        Some('k' | 'K') => (&t[..t.len() - 1], 10),
        Some('m' | 'M') => (&t[..t.len() - 1], 20),
        Some('g' | 'G') => (&t[..t.len() - 1], 30),
        Some('t' | 'T') => (&t[..t.len() - 1], 40),
        _ => (t, 0),
    };
    let bad = || format!("`{text}` is not a size (e.g. 200M, 4G, 1048576)");
    let value: f64 = num.trim().parse().map_err(|_| bad())?;
    if !value.is_finite() || value <= 0.0 {
        return Err(bad());
    }
    let bytes = value * (1u64 << shift) as f64;
    if bytes >= u64::MAX as f64 {
        return Err(bad());
    }
    Ok(bytes as u64)
}

/// Prints a byte count with a binary unit.
pub fn show_bytes(b: u64) -> String {
    const UNITS: [&str; 4] = ["KiB", "MiB", "GiB", "TiB"];
    let mut v = b as f64;
    let mut unit = "B";
    for u in UNITS {
        if v < 1024.0 {
            break;
        }
        v /= 1024.0;
        unit = u;
    }
    if unit == "B" {
        format!("{b} B")
    } else {
        format!("{v:.1} {unit}")
    }
}

/// Starts the watchdog with a memory limit (bytes) and a time limit, and the Ctrl-C
/// (SIGINT, SIGTERM) handler: the first Ctrl-C requests a stop; a second one, or no stop
/// within a grace period (2 s; 0.3 s after the memory limit), removes the temporary files
/// of outputs being written and exits (130 after Ctrl-C, else 3). Call once per process.
pub fn install(memory_limit: Option<u64>, timeout: Option<Duration>) {
    if let Some(m) = memory_limit {
        MEM_LIMIT.store(m, Ordering::Relaxed);
    }
    if let Some(t) = timeout {
        TIME_LIMIT.store(t.as_secs().max(1), Ordering::Relaxed);
    }
    let _ = ctrlc::set_handler(|| {
        if stop_requested() == Some(StopReason::Interrupted) {
            exit_now(StopReason::Interrupted);
        }
        STOP.store(3, Ordering::Relaxed);
    });
    // A limit the process already exceeds stops the run at its first polling point, not
    // at the watchdog's first tick: a short stage would otherwise finish or not depending
    // on which comes first.
    if let (Some(limit), Some(rss)) = (memory_limit, resident_bytes()) {
        PEAK.fetch_max(rss, Ordering::Relaxed);
        if rss >= limit {
            request_stop(StopReason::Memory(limit));
        }
    }
    let start = Instant::now();
    let deadline = timeout.map(|t| start + t);
    let mut stop_seen_at: Option<Instant> = None;
    let _ = std::thread::Builder::new()
        .name("muon-watchdog".into())
        .stack_size(64 << 10)
        .spawn(move || loop {
            if let Some(rss) = resident_bytes() {
                PEAK.fetch_max(rss, Ordering::Relaxed);
                if let Some(limit) = memory_limit {
                    if rss >= limit {
                        request_stop(StopReason::Memory(limit));
                    }
                }
            }
            if deadline.is_some_and(|d| Instant::now() >= d) {
                request_stop(StopReason::Timeout(TIME_LIMIT.load(Ordering::Relaxed)));
            }
            // A stage without polling points (e.g. linearisation) cannot stop early: a stop
            // request no loop acknowledges within the grace period ends the process (as
            // the signal or the kernel would have, but with a message), after removing the
            // temporary files of unfinished outputs.
            if let Some(reason) = stop_requested() {
                let since = *stop_seen_at.get_or_insert_with(Instant::now);
                let grace = match reason {
                    StopReason::Memory(_) => GRACE_MEMORY,
                    _ => GRACE,
                };
                if !ACKNOWLEDGED.load(Ordering::Relaxed) && since.elapsed() >= grace {
                    exit_now(reason);
                }
            }
            std::thread::sleep(TICK);
        });
}

/// Removes the temporary files of unfinished outputs, before the process exits without
/// unwinding (their guards would otherwise leave them behind).
fn remove_temp_files() {
    if let Ok(v) = TEMP_FILES.lock() {
        for p in v.iter() {
            let _ = std::fs::remove_file(p);
        }
    }
}

/// Removes the temporary files of unfinished outputs and exits: status 130 after an
/// interrupt (as if killed by it), [`EXIT_STOPPED`] after the memory or time limit.
fn exit_now(reason: StopReason) -> ! {
    remove_temp_files();
    errln!(
        "muon: stopped: {} (peak memory {}) in a stage that cannot report partial results; \
         no output written; {}",
        reason.describe(),
        show_bytes(peak_memory()),
        reason.advice()
    );
    std::process::exit(match reason {
        StopReason::Interrupted => 130,
        _ => i32::from(EXIT_STOPPED),
    });
}

/// Standard output failed while muon wrote a result. A closed pipe (the reader has all it
/// wants) ends the run quietly with status 141, as SIGPIPE ends mCRL2's tools; any other
/// error is reported, with status 2. The temporary files of unfinished outputs are removed
/// first, so no half-written output is left behind.
pub fn stdout_failed(e: std::io::Error) -> ! {
    remove_temp_files();
    if e.kind() == std::io::ErrorKind::BrokenPipe {
        std::process::exit(141);
    }
    errln!("muon: cannot write to standard output: {e}");
    std::process::exit(2);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_parse_with_binary_units() {
        assert_eq!(parse_size("200M"), Ok(200 << 20));
        assert_eq!(parse_size("4G"), Ok(4 << 30));
        assert_eq!(parse_size("1.5k"), Ok(1536));
        assert_eq!(parse_size("512MiB"), Ok(512 << 20));
        assert_eq!(parse_size("1048576"), Ok(1 << 20));
        assert!(parse_size("lots").is_err());
        assert!(parse_size("-5M").is_err());
        assert!(parse_size("0").is_err());
    }

    #[test]
    fn byte_counts_print_with_units() {
        assert_eq!(show_bytes(512), "512 B");
        assert_eq!(show_bytes(200 << 20), "200.0 MiB");
    }
}
