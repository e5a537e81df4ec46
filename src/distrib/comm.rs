//! The messages of a distributed run's workers: records batched per destination and
//! kind, sent through one timely exchange, and rounds ended by timely's progress tracking.

use std::cell::RefCell;
use std::rc::Rc;
use std::time::Duration;

use timely::container::CapacityContainerBuilder;
use timely::dataflow::channels::pact::Exchange;
use timely::dataflow::operators::generic::operator::Operator;
use timely::dataflow::operators::{Input, Probe};
use timely::dataflow::{InputHandle, ProbeHandle};

/// A message: destination worker, kind and sender (`kind | sender << 8`), the round it
/// belongs to, and records.
type Msg = (u32, u32, u64, Vec<u32>);

/// Record kinds are below this (see [`super::rounds`] and [`super::paths`]).
pub(super) const KINDS: usize = 16;

/// A batch is sent once it holds this many words (32 KiB), so no buffer grows with the
/// level: batches of 256 KiB left a level's worth of freed buffers in the allocator
/// (resident memory 3.4x with two workers on D.1).
const FLUSH: usize = 1 << 13;

/// The low and high words of `x`.
pub(super) fn split(x: u64) -> [u32; 2] {
    [x as u32, (x >> 32) as u32]
}

/// The number of words `lo`, `hi`.
pub(super) fn join(lo: u32, hi: u32) -> u64 {
    lo as u64 | (hi as u64) << 32
}

/// The rounds of one worker: timely's input, its exchange by destination, and the probe
/// that says when every worker's records of a round have arrived.
pub(super) struct Comm {
    input: InputHandle<u64, CapacityContainerBuilder<Vec<Msg>>>,
    probe: ProbeHandle<u64>,
    /// Records received, with the round they belong to: a faster worker's records of the
    /// next round may arrive before this worker has finished the current one.
    inbox: Rc<RefCell<Vec<Msg>>>,
    time: u64,
    pub(super) me: u32,
    pub(super) peers: u32,
    /// Per destination, per kind: the batch being filled.
    out: Vec<[Vec<u32>; KINDS]>,
    /// Words sent to other workers.
    pub(super) sent_words: u64,
}

impl Comm {
    pub(super) fn new(worker: &mut timely::worker::Worker) -> Comm {
        let inbox: Rc<RefCell<Vec<Msg>>> = Rc::new(RefCell::new(Vec::new()));
        let mut input = InputHandle::new();
        let probe = ProbeHandle::new();
        let sink = Rc::clone(&inbox);
        worker.dataflow(|scope| {
            scope
                .input_from(&mut input)
                .unary::<CapacityContainerBuilder<Vec<()>>, _, _, _>(
                    Exchange::new(|m: &Msg| m.0 as u64),
                    "muon-records",
                    move |_, _| {
                        move |records, _out| {
                            records.for_each(|_, data| sink.borrow_mut().append(data));
                        }
                    },
                )
                .probe_with(&probe);
        });
        let peers = worker.peers() as u32;
        Comm {
            input,
            probe,
            inbox,
            time: 0,
            me: worker.index() as u32,
            peers,
            out: (0..peers).map(|_| Default::default()).collect(),
            sent_words: 0,
        }
    }

    /// Appends one record for `dest`.
    pub(super) fn push(&mut self, dest: u32, kind: u32, record: &[u32]) {
        let buf = &mut self.out[dest as usize][kind as usize];
        buf.extend_from_slice(record);
        if buf.len() >= FLUSH {
            let words = std::mem::take(buf);
            self.send(dest, kind, words);
        }
    }

    /// Appends one record for every worker.
    pub(super) fn broadcast(&mut self, kind: u32, record: &[u32]) {
        for d in 0..self.peers {
            self.push(d, kind, record);
        }
    }

    fn send(&mut self, dest: u32, kind: u32, words: Vec<u32>) {
        if dest != self.me {
            self.sent_words += words.len() as u64;
        }
        self.input
            .send((dest, kind | self.me << 8, self.time, words));
    }

    /// Between states of round 1: lets timely move records, and returns those of the
    /// current round that have arrived (later rounds' stay in the inbox).
    pub(super) fn poll(
        &mut self,
        worker: &mut timely::worker::Worker,
    ) -> Vec<(u32, u32, Vec<u32>)> {
        worker.step_or_park(Some(Duration::ZERO));
        self.take(self.time)
    }

    /// The records of `round` that have arrived, as (kind, sender, words).
    fn take(&mut self, round: u64) -> Vec<(u32, u32, Vec<u32>)> {
        let mut inbox = self.inbox.borrow_mut();
        if inbox.is_empty() {
            return Vec::new();
        }
        let (now, later): (Vec<_>, Vec<_>) = inbox.drain(..).partition(|m| m.2 == round);
        *inbox = later;
        now.into_iter()
            .map(|(_, ks, _, words)| (ks & 0xff, ks >> 8, words))
            .collect()
    }

    /// Ends a round: sends what is buffered and waits until every worker's records of the
    /// round have arrived; returns them as (kind, sender, words).
    pub(super) fn round(
        &mut self,
        worker: &mut timely::worker::Worker,
    ) -> Vec<(u32, u32, Vec<u32>)> {
        self.finish();
        while !self.settled() {
            self.wait(worker);
        }
        self.take_finished()
    }

    /// Sends what is buffered and closes the round: no record of it follows from this
    /// worker. Then [`Comm::settled`] says when every worker's have arrived; in between,
    /// [`Comm::take_finished`] gives those that have, so a worker that ends its part of a
    /// round early takes in the others' records as they come instead of holding them all.
    pub(super) fn finish(&mut self) {
        for dest in 0..self.peers {
            for kind in 0..KINDS {
                let words = std::mem::take(&mut self.out[dest as usize][kind]);
                if !words.is_empty() {
                    self.send(dest, kind as u32, words);
                }
            }
        }
        self.time += 1;
        self.input.advance_to(self.time);
    }

    /// Whether every worker's records of the round closed by [`Comm::finish`] have arrived.
    pub(super) fn settled(&self) -> bool {
        !self.probe.less_than(&self.time)
    }

    /// Lets timely move records, parking a moment when there is nothing to do.
    pub(super) fn wait(&mut self, worker: &mut timely::worker::Worker) {
        worker.step_or_park(Some(Duration::from_millis(2)));
    }

    /// The records of the round closed by [`Comm::finish`] that have arrived so far.
    pub(super) fn take_finished(&mut self) -> Vec<(u32, u32, Vec<u32>)> {
        self.take(self.time - 1)
    }
}
