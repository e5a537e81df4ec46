//! mCRL2's command-line options, so that mCRL2 users' scripts run unchanged.
//!
//! Every option of mCRL2's tools that its example scripts and tool documentation use is
//! declared here, in one place, and flattened into the subcommands: [`Common`] (the options
//! all of mCRL2's rewriting tools share) and one struct per tool. An option is either
//!
//! - *real*: it does what mCRL2's does (`--timings`, `pbessolve -f`, `lts2pbes -l`), or
//! - *a form hint*: it changes how mCRL2 works or what shape its output has, never the
//!   behaviour, counts or verdicts, and muon has one way of doing it (one rewriter, one
//!   linearisation, one solving strategy); it is accepted and `-v` says what muon does, or
//! - *refused*: muon cannot give it mCRL2's meaning; the tool stops with exit code 2 and
//!   one line that says what to do instead.
//!
//! `fixtures/compat/mcrl2_command_lines.tsv` lists the command lines of mCRL2's examples and
//! documentation with the outcome each gets here (`tests/cli_compat.rs`).

use std::io::Write;
use std::path::PathBuf;

/// The options every mCRL2 tool that rewrites data takes.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Common {
    /// mCRL2's rewriter choice: `jitty`, `jittyc` or `jittyp`. muon has one rewriter,
    /// which gives the same normal forms, so all three are accepted.
    #[arg(short = 'r', long = "rewriter", value_name = "NAME")]
    pub rewriter: Option<String>,
    /// `--timings[=FILE]`.
    #[command(flatten)]
    pub timings: Timings,
    /// mCRL2's limit on enumerating a quantifier over numbers that no condition bounds:
    /// the values its enumeration reaches in NUM steps are tried (default 10, 0 for no
    /// limit: up to the enumeration budget). Bounded quantifiers take every value.
    #[arg(short = 'Q', long = "qlimit", value_name = "NUM")]
    pub qlimit: Option<u64>,
}

/// What a command line asks that muon answers differently: a refusal, or notes for `-v`.
#[derive(Debug, Default)]
pub struct Verdict {
    /// The one-line reason the command line is refused (exit code 2), if it is.
    pub refusal: Option<String>,
    /// Accepted form hints, each with what muon does; printed under `-v`.
    pub notes: Vec<String>,
}

impl Verdict {
    fn refuse(&mut self, why: impl Into<String>) {
        if self.refusal.is_none() {
            self.refusal = Some(why.into());
        }
    }
    fn note(&mut self, on: bool, what: &str) {
        if on {
            self.notes.push(what.to_string());
        }
    }
}

/// mCRL2's `--timings[=FILE]`, which every tool takes (muon's own subcommands too).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Timings {
    /// Append the time each stage took and the total to FILE in mCRL2's format (standard
    /// error without FILE).
    #[arg(long, value_name = "FILE", num_args = 0..=1, require_equals = true,
          default_missing_value = "-")]
    pub timings: Option<PathBuf>,
}

impl Timings {
    /// Appends the stages timed in this run ([`crate::progress::timings`]) and `total` for
    /// `tool` to the `--timings` file (or standard error) in mCRL2's format, if `--timings`
    /// was given.
    pub fn write(&self, tool: &str, total: crate::progress::StageTime) -> std::io::Result<()> {
        let Some(path) = &self.timings else {
            return Ok(());
        };
        let text = crate::progress::timings_report(tool, &crate::progress::timings(), total);
        if path.as_os_str() == "-" {
            return std::io::stderr().lock().write_all(text.as_bytes());
        }
        std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)?
            .write_all(text.as_bytes())
    }
}

impl Common {
    /// Judges the shared options.
    pub fn judge(&self, v: &mut Verdict) {
        if let Some(r) = &self.rewriter {
            match r.as_str() {
                "jitty" | "jittyc" | "jittyp" => v.notes.push(format!(
                    "-r {r}: muon has one rewriter (innermost, compiled once per run); \
                     normal forms are the same as with every mCRL2 rewriter"
                )),
                other => v.refuse(format!(
                    "unknown rewriter `{other}`: muon has one rewriter; use -rjitty, -rjittyc \
                     or -rjittyp, or drop -r"
                )),
            }
        }
        match self.qlimit {
            Some(0) => v.notes.push(
                "-Q0: a quantifier over numbers that no condition bounds is tried on values \
                 until a witness or the enumeration budget"
                    .to_string(),
            ),
            Some(n) => v.notes.push(format!(
                "-Q{n}: a quantifier over numbers that no condition bounds is tried on the \
                 values mCRL2's enumeration reaches in {n} steps"
            )),
            None => {}
        }
    }
}

/// A tool's judgement of its own options (see [`apply`]).
pub type Judge<'a> = &'a dyn Fn(&mut Verdict);

/// A tool's own mCRL2 options.
pub trait ToolCompat {
    /// Adds this tool's refusals and notes to `v`.
    fn judge(&self, v: &mut Verdict);
}

/// `mcrl22lps` options: linearisation variants. muon linearises one way, mCRL2's default
/// "regular" method with its clustering; the variants give LPSs of other shape with the
/// same behaviour (state space), so they are form hints. Timed linearisation is refused.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Mcrl22lps {
    /// mCRL2: linearisation method `regular`, `regular2` or `stack`.
    #[arg(short = 'l', long = "lin-method", value_name = "NAME")]
    pub lin_method: Option<String>,
    /// mCRL2: do not cluster intermediate LPSs.
    #[arg(short = 'n', long = "no-cluster")]
    pub no_cluster: bool,
    /// mCRL2: cluster all actions of the final LPS.
    #[arg(short = 'c', long = "cluster")]
    pub cluster: bool,
    /// mCRL2: add `true -> delta` summands (they have no transitions).
    #[arg(short = 'D', long = "delta")]
    pub delta: bool,
    /// mCRL2: instantiate don't-care values with constants instead of global variables.
    #[arg(short = 'f', long = "no-globvars")]
    pub no_globvars: bool,
    /// mCRL2: do not rewrite data terms while linearising.
    #[arg(short = 'o', long = "no-rewrite")]
    pub no_rewrite: bool,
    /// mCRL2: no sum elimination in parallel composition.
    #[arg(short = 'm', long = "no-sumelm")]
    pub no_sumelm: bool,
    /// mCRL2: binary case functions when clustering.
    #[arg(short = 'b', long = "binary")]
    pub binary: bool,
    /// mCRL2: encode control states by enumerated types.
    #[arg(short = 'w', long = "newstate")]
    pub newstate: bool,
    /// mCRL2: timed linearisation (refused: muon reads untimed specifications).
    #[arg(short = 'T', long = "timed")]
    pub timed: bool,
}

impl ToolCompat for Mcrl22lps {
    fn judge(&self, v: &mut Verdict) {
        if self.timed {
            v.refuse(
                "-T/--timed: muon linearises untimed specifications only; drop -T \
                 (an untimed specification gives the same LPS without it)",
            );
        }
        match self.lin_method.as_deref() {
            None => {}
            Some(m @ ("regular" | "regular2" | "stack")) => v.notes.push(format!(
                "-l {m}: muon linearises with mCRL2's regular method; the LPS has the same \
                 behaviour"
            )),
            Some(other) => v.refuse(format!(
                "unknown linearisation method `{other}`: use regular, regular2 or stack"
            )),
        }
        let hint = "muon's LPS has mCRL2's default form, with the same behaviour";
        for (on, flag) in [
            (self.no_cluster, "-n"),
            (self.cluster, "-c"),
            (self.delta, "-D"),
            (self.no_globvars, "-f"),
            (self.no_rewrite, "-o"),
            (self.no_sumelm, "-m"),
            (self.binary, "-b"),
            (self.newstate, "-w"),
        ] {
            v.note(on, &format!("{flag}: {hint}"));
        }
    }
}

/// `lps2lts` options beyond the ones muon's exploration implements itself.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Lps2lts {
    /// mCRL2: cache enumerations (muon always memoises each summand's transitions).
    #[arg(long)]
    pub cached: bool,
    /// mCRL2: do not store state values in a `.lts` OUTFILE (muon's `.lts` stores none).
    #[arg(long = "no-info")]
    pub no_info: bool,
    /// mCRL2: the output format; muon takes it from OUTFILE's extension, which must agree.
    #[arg(short = 'o', long = "out", value_name = "FORMAT")]
    pub out: Option<String>,
    /// mCRL2: confluence reduction with tau label NAME (refused).
    #[arg(short = 'c', long = "confluence", value_name = "NAME", num_args = 0..=1,
          default_missing_value = "ctau")]
    pub confluence: Option<String>,
    /// mCRL2: report divergences (refused).
    #[arg(short = 'F', long = "divergence")]
    pub divergence: bool,
    /// mCRL2: report nondeterministic states (refused).
    #[arg(short = 'n', long = "nondeterminism")]
    pub nondeterminism: bool,
    /// mCRL2: report these multi-actions (refused; `-a` detects actions).
    #[arg(short = 'm', long = "multiaction", value_name = "NAMES")]
    pub multiaction: Option<String>,
}

impl Lps2lts {
    /// Judges the options against the output file `outfile` (its extension names the format).
    pub fn judge_with(&self, outfile: Option<&std::path::Path>, v: &mut Verdict) {
        v.note(
            self.cached,
            "--cached: muon always memoises each summand's transitions",
        );
        let ext = outfile
            .and_then(|p| p.extension())
            .and_then(|e| e.to_str())
            .unwrap_or("");
        if self.no_info {
            if ext.eq_ignore_ascii_case("lts") {
                v.notes
                    .push("--no-info: muon's `.lts` files carry no state values".into());
            } else {
                v.refuse("--no-info requires that the output is in .lts format (as in mCRL2)");
            }
        }
        if let Some(f) = &self.out {
            if !f.eq_ignore_ascii_case(ext) {
                v.refuse(format!(
                    "-o {f}: muon takes the output format from the extension of OUTFILE; \
                     name it `NAME.{f}` and drop -o"
                ));
            }
        }
        if self.confluence.is_some() {
            v.refuse(
                "-c/--confluence: muon does no confluence reduction while exploring; reduce \
                 the LTS afterwards with `muon ltsconvert -e branching-bisim`",
            );
        }
        if self.divergence {
            v.refuse(
                "-F/--divergence: muon does not report divergences while exploring; check \
                 `<true*>nu X. <tau>X` with `muon check` (it gives a trace)",
            );
        }
        if self.nondeterminism {
            v.refuse(
                "-n/--nondeterminism: muon does not report nondeterministic states; compare \
                 the LTS with its determinisation: `muon ltscompare -e trace`",
            );
        }
        if self.multiaction.is_some() {
            v.refuse(
                "-m/--multiaction: muon detects actions by name; use -a NAMES (a \
                 multi-action is reported when it contains one of them)",
            );
        }
    }
}

/// `lps2pbes` form hints.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Lps2pbes {
    /// mCRL2: insert fixpoints into modal operators (a smaller PBES, the same solution).
    #[arg(short = 'm', long = "preprocess-modal-operators")]
    pub preprocess: bool,
    /// mCRL2: the output format (`pbes`, `text`, `bes`, `pgsolver`).
    #[arg(short = 'o', long = "out", value_name = "FORMAT")]
    pub out: Option<String>,
    /// mCRL2: timed translation (refused).
    #[arg(short = 't', long = "timed")]
    pub timed: bool,
}

impl ToolCompat for Lps2pbes {
    fn judge(&self, v: &mut Verdict) {
        v.note(
            self.preprocess,
            "-m: muon translates modal operators one way; the PBES has the same solution",
        );
        out_pbes(self.out.as_deref(), v);
        if self.timed {
            v.refuse("-t/--timed: muon translates untimed LPSs only; drop -t");
        }
    }
}

/// `-o FORMAT` of the PBES writers: muon writes its PBES artifact; the others have a tool.
fn out_pbes(out: Option<&str>, v: &mut Verdict) {
    match out {
        None | Some("pbes") => {}
        Some("text") => {
            v.refuse("-o text: muon writes a PBES artifact; print it with `muon pbespp`")
        }
        Some(f @ ("bes" | "pgsolver")) => v.refuse(format!(
            "-o {f}: muon writes a PBES artifact; instantiate it with `muon pbesinst`"
        )),
        Some(f) => v.refuse(format!("-o {f}: unknown PBES format; muon writes `pbes`")),
    }
}

/// `lts2pbes` form hints and refusals (`-l`/`-m` are real options of the subcommand).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Lts2pbes {
    /// mCRL2: insert fixpoints into modal operators (a smaller PBES, the same solution).
    #[arg(short = 'p', long = "preprocess-modal-operators")]
    pub preprocess: bool,
    /// Add the equations that `pbessolve --file=LTS` reads evidence from (as mCRL2's `-c`).
    #[arg(short = 'c', long = "counter-example")]
    pub counter_example: bool,
    /// mCRL2: the output format (`pbes`, `text`, `bes`, `pgsolver`).
    #[arg(short = 'o', long = "out", value_name = "FORMAT")]
    pub out: Option<String>,
}

impl ToolCompat for Lts2pbes {
    fn judge(&self, v: &mut Verdict) {
        v.note(
            self.preprocess,
            "-p: muon translates modal operators one way; the PBES has the same solution",
        );
        out_pbes(self.out.as_deref(), v);
    }
}

/// `pbessolve` and `pbes2bool` strategy options: how mCRL2 organises solving, never what
/// the solution is.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Solve {
    /// mCRL2: solve strategy 0-4 (partial solving while instantiating). muon always stops
    /// instantiating early when constant propagation decides the initial variable.
    #[arg(short = 's', long = "solve-strategy", value_name = "NAME")]
    pub solve_strategy: Option<u8>,
    /// mCRL2: instantiation order `breadth-first` or `depth-first`.
    #[arg(short = 'z', long = "search-strategy", value_name = "NAME")]
    pub search_strategy: Option<String>,
    /// mCRL2: solver threads (muon solves with one; the solution does not depend on it).
    #[arg(long, value_name = "NUM")]
    pub threads: Option<usize>,
    /// mCRL2: solve a second PBES for the evidence (refused).
    #[arg(long = "original-pbes", value_name = "NAME")]
    pub original_pbes: Option<PathBuf>,
}

impl ToolCompat for Solve {
    fn judge(&self, v: &mut Verdict) {
        match self.solve_strategy {
            None => {}
            Some(n @ 0..=4) => v.notes.push(format!(
                "-s{n}: muon instantiates breadth-first and stops as soon as constant \
                 propagation decides the initial variable; the solution is the same"
            )),
            Some(n) => v.refuse(format!("-s{n}: unknown solve strategy; mCRL2's are 0 to 4")),
        }
        match self.search_strategy.as_deref() {
            None => {}
            Some(s @ ("breadth-first" | "depth-first" | "b" | "d")) => v.notes.push(format!(
                "-z {s}: muon instantiates breadth-first; the solution is the same"
            )),
            Some(s) => v.refuse(format!(
                "unknown search strategy `{s}`: use breadth-first or depth-first"
            )),
        }
        if let Some(n) = self.threads {
            v.notes.push(format!(
                "--threads={n}: muon solves with one thread; the solution is the same"
            ));
        }
        if self.original_pbes.is_some() {
            v.refuse(
                "--original-pbes: muon reads evidence from the one PBES it solves; generate \
                 it with `lps2pbes -c` and give the LPS with --file",
            );
        }
    }
}

/// `lpsconstelm` and `lpssumelm` options: variants of the simplification that keep the
/// behaviour (muon's simplifier has one form).
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Simplify {
    /// mCRL2 lpsconstelm: ignore conditions; lpssumelm: decluster conditions first.
    #[arg(short = 'c')]
    pub c: bool,
    /// mCRL2 lpsconstelm: remove summands whose condition is false.
    #[arg(short = 't', long = "remove-trivial-summands")]
    pub trivial: bool,
    /// mCRL2 lpsconstelm: remove parameters of singleton sorts.
    #[arg(short = 's', long = "remove-singleton-sorts")]
    pub singleton: bool,
    /// mCRL2 lpsconstelm: instantiate free variables.
    #[arg(short = 'f', long = "instantiate-free-variables")]
    pub free: bool,
}

impl ToolCompat for Simplify {
    fn judge(&self, v: &mut Verdict) {
        let hint = "muon's simplification has one form; the LPS has the same behaviour";
        for (on, flag) in [
            (self.c, "-c"),
            (self.trivial, "-t"),
            (self.singleton, "-s"),
            (self.free, "-f"),
        ] {
            v.note(on, &format!("{flag}: {hint}"));
        }
    }
}

/// `ltsconvert` options of mCRL2's `.lts` format: its data specification (`-l`) and state
/// values (`-n`) are what muon's LTS files never carry.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Ltsconvert {
    /// mCRL2: the LPS whose data specification goes into a `.lts` output.
    #[arg(short = 'l', long = "lps", value_name = "FILE")]
    pub lps: Option<PathBuf>,
    /// mCRL2: drop state values.
    #[arg(short = 'n', long = "no-state")]
    pub no_state: bool,
}

impl ToolCompat for Ltsconvert {
    fn judge(&self, v: &mut Verdict) {
        v.note(
            self.lps.is_some(),
            "-l: muon's LTS files carry labels as text and need no data specification",
        );
        v.note(self.no_state, "-n: muon's LTS files carry no state values");
    }
}

/// `pbesinst` strategies: muon instantiates lazily, from the initial variable, to a BES.
#[derive(clap::Args, Debug, Clone, Default)]
pub struct Pbesinst {
    /// mCRL2: instantiation strategy `lazy` (muon's) or `finite` (refused).
    #[arg(short = 's', long = "strategy", value_name = "NAME")]
    pub strategy: Option<String>,
    /// mCRL2: with `-s finite`, the parameters to instantiate.
    #[arg(short = 'f', long = "select", value_name = "PARAMS")]
    pub select: Option<String>,
}

impl ToolCompat for Pbesinst {
    fn judge(&self, v: &mut Verdict) {
        match self.strategy.as_deref() {
            None => {}
            Some("lazy") => v
                .notes
                .push("-s lazy: muon instantiates lazily, from the initial variable".into()),
            Some("finite") => v.refuse(
                "-s finite: muon instantiates to a BES only; partial instantiation of finite \
                 parameters is not supported (drop -s and -f)",
            ),
            Some(s) => v.refuse(format!("unknown strategy `{s}`: muon instantiates lazily")),
        }
        if self.select.is_some() && self.strategy.as_deref() != Some("finite") {
            v.refuse("-f: selects parameters for `-s finite`, which muon does not do");
        }
    }
}

/// `tracepp -f mcrl2`: mCRL2's binary trace format, which muon does not write (refused);
/// the other formats of mCRL2's `tracepp` (`plain`, `states`, `aut`, `dot`, `none`) are real.
pub fn tracepp(mcrl2_format: bool, v: &mut Verdict) {
    if mcrl2_format {
        v.refuse("-f mcrl2: muon does not write mCRL2's binary trace format; -f plain writes the multi-actions, one per line, which mCRL2's tools read");
    }
}

/// Judges `common` and the tool's own options: prints the refusal (one line, returns
/// `Err` with exit code 2) or, under `verbose`, the notes.
pub fn apply(
    tool: &str,
    common: &Common,
    own: Judge,
    verbose: bool,
) -> Result<(), std::process::ExitCode> {
    let mut v = Verdict::default();
    common.judge(&mut v);
    if let Some(n) = common.qlimit {
        crate::data::qlimit::set_limit(usize::try_from(n).unwrap_or(usize::MAX));
    }
    own(&mut v);
    if let Some(why) = v.refusal {
        errln!("muon {tool}: {why}");
        return Err(std::process::ExitCode::from(2));
    }
    if verbose {
        for n in v.notes {
            errln!("{tool}: {n}");
        }
    }
    Ok(())
}
