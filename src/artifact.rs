//! Serialized artifacts passed between pipeline stages, and safe file input/output.
//!
//! Every binary artifact starts with a fixed header — the magic bytes `MUON`, a four-byte
//! kind tag and a little-endian `u32` format version — followed by a `postcard` payload.
//! Readers check all three before decoding, so a truncated, corrupt or wrong-kind file gets a
//! clear error instead of a panic or a garbage result.
//!
//! Outputs are written to a temporary file beside the destination and renamed into place,
//! so a failing stage never leaves a half-written file behind.
//!
//! Each artifact kind is read and written through its one [`Artifact`] implementation, in
//! the module that owns the type (`lps`, `lts`, `pbes::io`, `bes`), which checks the type's
//! invariants on every read.

use std::fmt;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

use miette::Diagnostic;
use serde::{de::DeserializeOwned, Serialize};
use thiserror::Error;

/// The magic bytes at the start of every muon artifact.
pub const MAGIC: &[u8; 4] = b"MUON";

/// The kinds of binary artifact, each with its own tag and format version.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ArtifactKind {
    /// A linear process specification (`mcrl22lps` output).
    Lps,
    /// An explicit labelled transition system (`lps2lts` output).
    Lts,
    /// A parameterised Boolean equation system (`lps2pbes`, `lts2pbes`, `txt2pbes` output).
    Pbes,
    /// A Boolean equation system / parity game (`pbesinst` output).
    Bes,
}

impl ArtifactKind {
    /// The four-byte tag written after the magic.
    pub fn tag(self) -> [u8; 4] {
        match self {
            ArtifactKind::Lps => *b"LPS\0",
            ArtifactKind::Lts => *b"LTS\0",
            ArtifactKind::Pbes => *b"PBES",
            ArtifactKind::Bes => *b"BES\0",
        }
    }

    /// The current format version of this kind; bump it whenever the payload type changes.
    pub fn version(self) -> u32 {
        match self {
            // 2: summand origins name their synthetic sum variables; 3: and their clusters;
            // 4: and the model's names of the sum variables the lineariser renamed.
            ArtifactKind::Lps => 4,
            // 2: the PBES records the identity of the LPS or LTS it was generated from.
            ArtifactKind::Pbes => 2,
            ArtifactKind::Lts | ArtifactKind::Bes => 1,
        }
    }

    fn from_tag(tag: &[u8]) -> Option<ArtifactKind> {
        [
            ArtifactKind::Lps,
            ArtifactKind::Lts,
            ArtifactKind::Pbes,
            ArtifactKind::Bes,
        ]
        .into_iter()
        .find(|k| k.tag() == tag)
    }
}

impl fmt::Display for ArtifactKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ArtifactKind::Lps => "LPS",
            ArtifactKind::Lts => "LTS",
            ArtifactKind::Pbes => "PBES",
            ArtifactKind::Bes => "BES",
        })
    }
}

/// Length of the artifact header in bytes.
pub const HEADER_LEN: usize = 12;

/// What can go wrong reading or writing files and artifacts.
#[derive(Debug, Error, Diagnostic)]
pub enum ArtifactError {
    /// The file could not be read.
    #[error("cannot read {path}: {source}")]
    #[diagnostic(code(muon::io::read))]
    Read {
        /// The file, or `<stdin>`.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The output could not be written.
    #[error("cannot write {path}: {source}")]
    #[diagnostic(code(muon::io::write))]
    Write {
        /// The file, or `<stdout>`.
        path: String,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The run was stopped (memory limit, timeout, Ctrl-C) before the output was complete:
    /// nothing was written.
    #[error("{path} was not written: {stop}")]
    #[diagnostic(code(muon::io::stopped))]
    Stopped {
        /// The file.
        path: String,
        /// Why the run stopped.
        stop: crate::budget::Stopped,
    },
    /// The input does not start with the muon magic.
    #[error("{path} is not a muon artifact (expected a {expected} file written by muon)")]
    #[diagnostic(
        code(muon::artifact::magic),
        help("produce it with the muon stage that writes {expected} files (a specification `.mcrl2` becomes an LPS with `muon mcrl22lps`; `muon check` runs the whole pipeline), or pass a textual format (`.aut`, `.pg`, `.bes`, a PBES `.txt`) with its extension")
    )]
    NotAnArtifact {
        /// The file.
        path: String,
        /// The kind the reader wanted.
        expected: ArtifactKind,
    },
    /// The input is an artifact of another kind.
    #[error("{path} is a {found} artifact, but a {expected} artifact is needed here")]
    #[diagnostic(code(muon::artifact::kind))]
    WrongKind {
        /// The file.
        path: String,
        /// The kind the reader wanted.
        expected: ArtifactKind,
        /// The kind in the file.
        found: ArtifactKind,
    },
    /// The artifact was written by an incompatible muon version.
    #[error("{path}: {kind} format version {found} is not supported (this muon reads version {supported})")]
    #[diagnostic(
        code(muon::artifact::version),
        help("regenerate the file with this version of muon")
    )]
    Version {
        /// The file.
        path: String,
        /// The artifact kind.
        kind: ArtifactKind,
        /// The version in the file.
        found: u32,
        /// The version this build reads.
        supported: u32,
    },
    /// The payload does not decode.
    #[error("{path}: the {kind} artifact is corrupt or truncated ({detail})")]
    #[diagnostic(
        code(muon::artifact::corrupt),
        help("regenerate the file; it may have been cut short or modified")
    )]
    Corrupt {
        /// The file.
        path: String,
        /// The artifact kind.
        kind: ArtifactKind,
        /// What the decoder reported.
        detail: String,
    },
    /// The value could not be encoded.
    #[error("cannot encode the {kind} artifact: {detail}")]
    #[diagnostic(code(muon::artifact::encode))]
    Encode {
        /// The artifact kind.
        kind: ArtifactKind,
        /// What the encoder reported.
        detail: String,
    },
}

/// Display name of an optional path: the path, or `<stdin>` / `<stdout>`.
pub fn display_path(path: Option<&Path>, std_name: &str) -> String {
    match path {
        Some(p) if p != Path::new("-") => p.display().to_string(),
        _ => std_name.to_string(),
    }
}

fn is_std(path: Option<&Path>) -> bool {
    path.is_none() || path == Some(Path::new("-"))
}

/// Reads a whole input: the file, or standard input when `path` is `None` or `-`.
pub fn read_bytes(path: Option<&Path>) -> Result<Vec<u8>, ArtifactError> {
    let name = display_path(path, "<stdin>");
    let mut buf = Vec::new();
    let res = match path {
        Some(p) if !is_std(path) => {
            std::fs::File::open(p).and_then(|mut f| f.read_to_end(&mut buf))
        }
        _ => std::io::stdin().lock().read_to_end(&mut buf),
    };
    res.map_err(|source| ArtifactError::Read { path: name, source })?;
    Ok(buf)
}

/// Reads a whole text input (UTF-8); see [`read_bytes`].
pub fn read_text(path: Option<&Path>) -> Result<String, ArtifactError> {
    let name = display_path(path, "<stdin>");
    let bytes = read_bytes(path)?;
    String::from_utf8(bytes).map_err(|e| ArtifactError::Read {
        path: name,
        source: std::io::Error::new(std::io::ErrorKind::InvalidData, e),
    })
}

/// Writes an output atomically: `write` fills a buffered writer that goes to a temporary file
/// beside `path`, which is renamed onto `path` only when `write` succeeds. With no path (or
/// `-`) the output goes to standard output.
pub fn write_output<E>(
    path: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), E>
where
    E: From<ArtifactError>,
{
    write_file(path, write, false)
}

/// Writes a report about a run (statistics) like [`write_output`], also after a stop: the
/// report of a stopped run is whole, it describes a partial result (and says so).
pub fn write_report<E>(
    path: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
) -> Result<(), E>
where
    E: From<ArtifactError>,
{
    write_file(path, write, true)
}

fn write_file<E>(
    path: Option<&Path>,
    write: impl FnOnce(&mut dyn Write) -> Result<(), E>,
    after_stop: bool,
) -> Result<(), E>
where
    E: From<ArtifactError>,
{
    let name = display_path(path, "<stdout>");
    let werr = |source: std::io::Error| ArtifactError::Write {
        path: name.clone(),
        source,
    };
    if is_std(path) {
        let stdout = std::io::stdout();
        let mut w = std::io::BufWriter::new(stdout.lock());
        write(&mut w)?;
        w.flush().map_err(werr)?;
        return Ok(());
    }
    let path = path.expect("checked above");
    // Devices, pipes and other special files (e.g. `/dev/null`, a FIFO) must be written in
    // place: renaming a temporary file onto them would replace the special file itself.
    let existing = std::fs::metadata(path).ok();
    if let Some(meta) = &existing {
        if !meta.file_type().is_file() {
            let file = std::fs::OpenOptions::new()
                .write(true)
                .open(path)
                .map_err(werr)?;
            let mut w = std::io::BufWriter::new(file);
            write(&mut w)?;
            w.flush().map_err(werr)?;
            return Ok(());
        }
    }
    let dir: PathBuf = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let mut builder = tempfile::Builder::new();
    builder.prefix(".muon-").suffix(".tmp");
    // A temporary file is created private (0600); the output must get the permissions any
    // program's new file gets (0666 less the umask), or keep those of the file it replaces.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = existing
            .as_ref()
            .map_or(0o666, |m| m.permissions().mode() & 0o7777);
        builder.permissions(std::fs::Permissions::from_mode(mode));
    }
    let tmp = builder.tempfile_in(&dir).map_err(werr)?;
    // Registered so that a second Ctrl-C (which exits at once) removes it; dropping `tmp`
    // on every other way out removes it too.
    let tmp_path = tmp.path().to_path_buf();
    crate::budget::register_temp(&tmp_path);
    let written = (|| -> Result<(), E> {
        let mut w = std::io::BufWriter::new(tmp.as_file());
        write(&mut w)?;
        w.flush().map_err(werr)?;
        Ok(())
    })();
    let result = match written {
        Err(e) => Err(e),
        // A stopped run's output is incomplete: never rename it into place (unless partial
        // output was asked for).
        Ok(()) if !after_stop && !crate::budget::may_persist() => {
            Err(E::from(ArtifactError::Stopped {
                path: name.clone(),
                stop: crate::budget::Stopped(
                    crate::budget::stop_requested()
                        .expect("may_persist is false only after a stop"),
                ),
            }))
        }
        Ok(()) => tmp
            .persist(path)
            .map(|_| ())
            .map_err(|e| E::from(werr(e.error))),
    };
    crate::budget::unregister_temp(&tmp_path);
    result
}

/// Encodes `value` as an artifact of `kind` (header + payload).
pub fn encode<T: Serialize>(kind: ArtifactKind, value: &T) -> Result<Vec<u8>, ArtifactError> {
    let mut out = Vec::with_capacity(1024);
    out.extend_from_slice(MAGIC);
    out.extend_from_slice(&kind.tag());
    out.extend_from_slice(&kind.version().to_le_bytes());
    postcard::to_io(value, &mut out).map_err(|e| ArtifactError::Encode {
        kind,
        detail: e.to_string(),
    })?;
    Ok(out)
}

/// Decodes an artifact of `kind` from `bytes`; `path` names the source in errors.
fn decode<T: DeserializeOwned>(
    kind: ArtifactKind,
    bytes: &[u8],
    path: &str,
) -> Result<T, ArtifactError> {
    if bytes.len() < HEADER_LEN || &bytes[..4] != MAGIC {
        return Err(ArtifactError::NotAnArtifact {
            path: path.to_string(),
            expected: kind,
        });
    }
    let found = ArtifactKind::from_tag(&bytes[4..8]).ok_or_else(|| ArtifactError::Corrupt {
        path: path.to_string(),
        kind,
        detail: "unknown artifact kind tag".to_string(),
    })?;
    if found != kind {
        return Err(ArtifactError::WrongKind {
            path: path.to_string(),
            expected: kind,
            found,
        });
    }
    let version = u32::from_le_bytes(bytes[8..12].try_into().expect("4 bytes"));
    if version != kind.version() {
        return Err(ArtifactError::Version {
            path: path.to_string(),
            kind,
            found: version,
            supported: kind.version(),
        });
    }
    let (value, rest) = postcard::take_from_bytes::<T>(&bytes[HEADER_LEN..]).map_err(|e| {
        ArtifactError::Corrupt {
            path: path.to_string(),
            kind,
            detail: e.to_string(),
        }
    })?;
    if !rest.is_empty() {
        return Err(ArtifactError::Corrupt {
            path: path.to_string(),
            kind,
            detail: format!("{} trailing bytes after the payload", rest.len()),
        });
    }
    Ok(value)
}

/// Whether `bytes` start with the artifact header (used to tell artifacts from text inputs).
pub fn is_artifact(bytes: &[u8]) -> bool {
    bytes.len() >= HEADER_LEN && &bytes[..4] == MAGIC
}

/// Writes an artifact of `kind` atomically to a file, or to standard output.
fn write_artifact<T: Serialize>(
    kind: ArtifactKind,
    path: Option<&Path>,
    value: &T,
) -> Result<(), ArtifactError> {
    let bytes = encode(kind, value)?;
    let name = display_path(path, "<stdout>");
    write_output(path, |w| {
        w.write_all(&bytes).map_err(|source| ArtifactError::Write {
            path: name.clone(),
            source,
        })
    })
}

/// The identity of a file's contents: 64-bit FNV-1a of its bytes. It tells a PBES's LPS
/// from another LPS (a guard against mixing up files, not against forgery).
pub fn identity(bytes: &[u8]) -> u64 {
    bytes.iter().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(*b)).wrapping_mul(0x0000_0100_0000_01b3)
    })
}

/// A stage's value that travels between processes as a binary artifact. Each artifact kind
/// has exactly one implementation, in the module that owns the type, so reading always
/// checks the invariants the consuming stages rely on (a decoded but inconsistent payload
/// is reported as [`ArtifactError::Corrupt`], never passed on).
pub trait Artifact: Serialize + DeserializeOwned {
    /// The kind tag written in the header.
    const KIND: ArtifactKind;

    /// Checks the invariants other stages rely on; `Err` says which one is broken.
    fn check_invariants(&self) -> Result<(), String>;

    /// Reads the artifact from a file or standard input (`None`) and checks its invariants.
    fn read_artifact(path: Option<&Path>) -> Result<Self, ArtifactError> {
        let bytes = read_bytes(path)?;
        Self::decode_artifact(&bytes, &display_path(path, "<stdin>"))
    }

    /// Decodes an artifact already read into memory (`name` names its source in errors)
    /// and checks its invariants: for readers that look at the bytes to pick a format.
    fn decode_artifact(bytes: &[u8], name: &str) -> Result<Self, ArtifactError> {
        let value: Self = decode(Self::KIND, bytes, name)?;
        value
            .check_invariants()
            .map_err(|detail| ArtifactError::Corrupt {
                path: name.to_string(),
                kind: Self::KIND,
                detail,
            })?;
        Ok(value)
    }

    /// Writes the artifact atomically to a file, or to standard output (`None`).
    fn write_artifact(&self, path: Option<&Path>) -> Result<(), ArtifactError> {
        write_artifact(Self::KIND, path, self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_and_errors() {
        let v: Vec<u32> = vec![1, 2, 3, 1 << 30];
        let bytes = encode(ArtifactKind::Lts, &v).unwrap();
        let back: Vec<u32> = decode(ArtifactKind::Lts, &bytes, "x").unwrap();
        assert_eq!(back, v);
        assert!(matches!(
            decode::<Vec<u32>>(ArtifactKind::Lps, &bytes, "x"),
            Err(ArtifactError::WrongKind { .. })
        ));
        assert!(matches!(
            decode::<Vec<u32>>(ArtifactKind::Lts, &bytes[..bytes.len() - 1], "x"),
            Err(ArtifactError::Corrupt { .. })
        ));
        assert!(matches!(
            decode::<Vec<u32>>(ArtifactKind::Lts, b"des (0,1,2)\n", "x"),
            Err(ArtifactError::NotAnArtifact { .. })
        ));
        let mut newer = bytes.clone();
        newer[8] = 99;
        assert!(matches!(
            decode::<Vec<u32>>(ArtifactKind::Lts, &newer, "x"),
            Err(ArtifactError::Version { .. })
        ));
    }

    #[cfg(unix)]
    #[test]
    fn special_files_are_written_in_place() {
        use std::os::unix::fs::FileTypeExt;
        let dev_null = Path::new("/dev/null");
        let is_device = || {
            std::fs::metadata(dev_null)
                .unwrap()
                .file_type()
                .is_char_device()
        };
        // Not a device (another process broke it) would leave nothing to test: fail, not skip.
        assert!(is_device(), "/dev/null is not a character device");
        write_output::<ArtifactError>(Some(dev_null), |w| {
            w.write_all(b"discarded")
                .map_err(|source| ArtifactError::Write {
                    path: "/dev/null".into(),
                    source,
                })
        })
        .unwrap();
        assert!(is_device(), "writing replaced /dev/null");
    }

    /// Outputs get the permissions of a plainly created file (not the temporary file's
    /// private 0600), and a replaced file keeps its own.
    #[cfg(unix)]
    #[test]
    fn outputs_get_ordinary_permissions() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let plain = dir.path().join("plain.txt");
        std::fs::File::create(&plain).unwrap();
        let expected = std::fs::metadata(&plain).unwrap().permissions().mode() & 0o7777;
        let out = dir.path().join("out.txt");
        let put = |p: &Path| {
            write_output::<ArtifactError>(Some(p), |w| {
                w.write_all(b"x").map_err(|source| ArtifactError::Write {
                    path: "out".into(),
                    source,
                })
            })
            .unwrap()
        };
        put(&out);
        let mode = |p: &Path| std::fs::metadata(p).unwrap().permissions().mode() & 0o7777;
        assert_eq!(mode(&out), expected);
        std::fs::set_permissions(&out, std::fs::Permissions::from_mode(0o640)).unwrap();
        put(&out);
        assert_eq!(mode(&out), 0o640 & expected);
    }

    #[test]
    fn atomic_write_leaves_nothing_on_failure() {
        let dir = tempfile::tempdir().unwrap();
        let out = dir.path().join("out.txt");
        let r: Result<(), ArtifactError> = write_output(Some(&out), |w| {
            w.write_all(b"partial").unwrap();
            Err(ArtifactError::Encode {
                kind: ArtifactKind::Bes,
                detail: "boom".into(),
            })
        });
        assert!(r.is_err());
        assert!(!out.exists());
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 0);
        write_output::<ArtifactError>(Some(&out), |w| {
            w.write_all(b"ok").map_err(|source| ArtifactError::Write {
                path: "out".into(),
                source,
            })
        })
        .unwrap();
        assert_eq!(std::fs::read(&out).unwrap(), b"ok");
    }
}
