//! What a cancelled sync may still write: nothing. A sync hands CPU and disk work (reducing an
//! activity's series to its curves, committing them) to the blocking pool so the runtime's workers
//! stay free; dropping the sync's future (a cancelled `sync_history`, an aborted task) does not stop
//! a closure already running there. Each such commit passes through this gate, and the sync owns the
//! gate: once the gate is dropped, a pending commit is skipped, and dropping waits for a commit
//! already under way, so after the sync's future is dropped no row changes any more.

use std::sync::{Arc, Mutex, PoisonError};

/// Owned by one sync run; closes when dropped (see the module doc).
#[derive(Debug)]
pub(crate) struct WriteGate(Arc<Mutex<bool>>);

/// A ticket for work on the blocking pool: commits only while its [`WriteGate`] is alive.
#[derive(Clone, Debug)]
pub(crate) struct GatePass(Arc<Mutex<bool>>);

impl WriteGate {
    /// An open gate.
    pub(crate) fn new() -> Self {
        WriteGate(Arc::new(Mutex::new(true)))
    }

    /// A pass for one piece of blocking work.
    pub(crate) fn pass(&self) -> GatePass {
        GatePass(Arc::clone(&self.0))
    }
}

impl Drop for WriteGate {
    /// Closes the gate. Waits for a commit under way (one activity's transaction, milliseconds), so
    /// that when the drop returns nothing else is written.
    fn drop(&mut self) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = false;
    }
}

impl GatePass {
    /// Runs `commit` while the gate is open and holds it open until `commit` returns; `None` when
    /// the sync that issued the pass is gone (nothing was run).
    pub(crate) fn commit<T>(&self, commit: impl FnOnce() -> T) -> Option<T> {
        let open = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        if *open { Some(commit()) } else { None }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_pass_commits_while_its_gate_lives_and_never_after() {
        let gate = WriteGate::new();
        let pass = gate.pass();
        assert_eq!(pass.commit(|| 1), Some(1));
        drop(gate);
        let mut ran = false;
        assert_eq!(pass.commit(|| ran = true), None);
        assert!(!ran, "a commit ran after its sync was dropped");
    }

    #[test]
    fn dropping_the_gate_waits_for_a_commit_under_way() {
        let gate = WriteGate::new();
        let pass = gate.pass();
        let (started_tx, started_rx) = std::sync::mpsc::channel();
        let (finish_tx, finish_rx) = std::sync::mpsc::channel::<()>();
        let worker = std::thread::spawn(move || {
            pass.commit(|| {
                started_tx.send(()).unwrap();
                finish_rx.recv().unwrap();
                std::time::Instant::now()
            })
        });
        started_rx.recv().unwrap();
        let dropper = std::thread::spawn(move || {
            drop(gate);
            std::time::Instant::now()
        });
        finish_tx.send(()).unwrap();
        let committed_at = worker.join().unwrap().expect("the commit ran while the gate was open");
        let dropped_at = dropper.join().unwrap();
        assert!(dropped_at >= committed_at, "the drop returned before the commit under way had ended");
    }
}
