//! An out-of-band allgather through files in one directory, for processes that share a file
//! system and no runtime (tests, the VM guests' host-combining check, scripts): rank r writes
//! round k's part as `k-r` (written under a temporary name and renamed, so a reader never sees
//! half of it), then reads every rank's `k-*`. The directory must be empty at the start and
//! used by one team.

use std::path::PathBuf;
use std::time::{Duration, Instant};

use super::{OobError, OutOfBand};

/// See the module description.
#[derive(Debug)]
pub struct DirOob {
    dir: PathBuf,
    rank: usize,
    size: usize,
    round: usize,
    /// How long a round waits for the slowest rank before failing.
    limit: Duration,
}

impl DirOob {
    /// Rank `rank` of `size`, exchanging through `dir` (empty at the start, used by this team
    /// only); a round that waits longer than `limit` for the slowest rank fails with [`OobError`].
    pub fn new(dir: impl Into<PathBuf>, rank: usize, size: usize, limit: Duration) -> Self {
        DirOob {
            dir: dir.into(),
            rank,
            size,
            round: 0,
            limit,
        }
    }
}

impl OutOfBand for DirOob {
    fn allgather(&mut self, send: &[u8], recv: &mut [u8]) -> Result<(), OobError> {
        let name = |r: usize| self.dir.join(format!("{}-{r}", self.round));
        let tmp = self.dir.join(format!(".{}-{}", self.round, self.rank));
        let failed =
            |what: &str, e: std::io::Error| OobError(format!("{what} {}: {e}", self.dir.display()));
        std::fs::write(&tmp, send).map_err(|e| failed("cannot write into", e))?;
        std::fs::rename(&tmp, name(self.rank)).map_err(|e| failed("cannot rename in", e))?;
        let deadline = Instant::now() + self.limit;
        for r in 0..self.size {
            let part = loop {
                match std::fs::read(name(r)) {
                    Ok(part) => break part,
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => {
                        return Err(failed("cannot read from", e));
                    }
                    Err(_) if Instant::now() > deadline => {
                        return Err(OobError(format!(
                            "rank {r} sent nothing for round {} within {:?} ({})",
                            self.round,
                            self.limit,
                            self.dir.display()
                        )));
                    }
                    Err(_) => std::thread::sleep(Duration::from_millis(1)),
                }
            };
            let at = r * send.len();
            if part.len() != send.len() || recv.len() < at + send.len() {
                return Err(OobError(format!(
                    "rank {r}'s part of round {} is {} bytes, not {}",
                    self.round,
                    part.len(),
                    send.len()
                )));
            }
            recv[at..at + send.len()].copy_from_slice(&part);
        }
        self.round += 1;
        Ok(())
    }
}
