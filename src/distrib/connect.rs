//! The connections between the processes of a run, made before timely starts: each
//! process dials the processes before it and accepts the ones after it, every connection
//! opened by the dialler's index (a little-endian `u64`), the protocol timely's own set-up
//! follows. Made here rather than by timely because timely prints its progress on standard
//! output (where `check` prints its results) and retries for ever; here the set-up is
//! silent and ends with an error after the connect timeout.

use std::io::{Read, Write};
use std::net::{TcpListener, TcpStream};
use std::time::{Duration, Instant};

/// The streams to every other process of `hosts` (`None` at `me`), in process order.
pub(super) fn sockets(
    hosts: &[String],
    me: usize,
    timeout: Duration,
) -> Result<Vec<Option<TcpStream>>, String> {
    let deadline = Instant::now() + timeout;
    let late = || {
        format!(
            "process {me} could not connect to every other process within {} s; start all of them with the same --hosts file (or raise --connect-timeout)",
            timeout.as_secs()
        )
    };
    // Bound before dialling, so that a later process never waits on this one's listener.
    let listener = TcpListener::bind(&hosts[me])
        .map_err(|e| format!("process {me} cannot listen on {}: {e}", hosts[me]))?;
    listener
        .set_nonblocking(true)
        .map_err(|e| format!("cannot set up the listener: {e}"))?;
    let dialled = std::thread::scope(|s| {
        let dial = s.spawn(|| -> Result<Vec<TcpStream>, String> {
            let mut out = Vec::with_capacity(me);
            for (i, host) in hosts.iter().enumerate().take(me) {
                let mut stream = loop {
                    match TcpStream::connect(host) {
                        Ok(stream) => break stream,
                        Err(_) if Instant::now() < deadline => {
                            std::thread::sleep(Duration::from_millis(50))
                        }
                        Err(e) => return Err(format!("{} (process {i} at {host}: {e})", late())),
                    }
                };
                stream
                    .write_all(&(me as u64).to_le_bytes())
                    .map_err(|e| format!("cannot greet process {i} at {host}: {e}"))?;
                out.push(stream);
            }
            Ok(out)
        });
        let mut accepted: Vec<Option<TcpStream>> = (me + 1..hosts.len()).map(|_| None).collect();
        while accepted.iter().any(Option::is_none) {
            match listener.accept() {
                Ok((mut stream, from)) => {
                    stream
                        .set_nonblocking(false)
                        .map_err(|e| format!("cannot set up a connection: {e}"))?;
                    stream
                        .set_read_timeout(Some(
                            deadline
                                .saturating_duration_since(Instant::now())
                                .max(Duration::from_millis(100)),
                        ))
                        .map_err(|e| format!("cannot set up a connection: {e}"))?;
                    let mut index = [0u8; 8];
                    stream.read_exact(&mut index).map_err(|e| {
                        format!("a connection from {from} did not say which process it is: {e}")
                    })?;
                    stream
                        .set_read_timeout(None)
                        .map_err(|e| format!("cannot set up a connection: {e}"))?;
                    let i = u64::from_le_bytes(index) as usize;
                    match accepted.get_mut(i.wrapping_sub(me + 1)) {
                        Some(slot @ None) => *slot = Some(stream),
                        _ => {
                            return Err(format!(
                                "a connection from {from} says it is process {i}, which process {me} does not expect: give every process the same --hosts file"
                            ))
                        }
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::WouldBlock => {
                    if Instant::now() >= deadline {
                        return Err(late());
                    }
                    std::thread::sleep(Duration::from_millis(20));
                }
                Err(e) => return Err(format!("process {me} cannot accept connections: {e}")),
            }
        }
        let dialled = dial
            .join()
            .map_err(|_| "the thread that connects the processes failed".to_string())??;
        Ok::<_, String>((dialled, accepted))
    })?;
    let (dialled, accepted) = dialled;
    let mut all: Vec<Option<TcpStream>> = dialled.into_iter().map(Some).collect();
    all.push(None);
    all.extend(accepted);
    for s in all.iter().flatten() {
        s.set_nodelay(true)
            .map_err(|e| format!("cannot set up a connection: {e}"))?;
    }
    Ok(all)
}
