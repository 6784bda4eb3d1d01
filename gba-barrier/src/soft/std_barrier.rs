//! [`StdBarrier`]: `std::sync::Barrier` behind the crate's [`crate::Wait`] interface, the
//! benchmark's baseline for threads.

use std::sync::{Arc, Barrier};
use std::time::Duration;

use crate::wait_error::{Result, Who};

/// One thread's handle on a shared `std::sync::Barrier` (a mutex and a condition variable).
#[derive(Debug, Clone)]
pub struct StdBarrier {
    inner: Arc<Barrier>,
    member: usize,
    members: usize,
}

impl StdBarrier {
    /// A barrier for `members` threads: one handle per member.
    pub fn threads(members: usize) -> Vec<Self> {
        let inner = Arc::new(Barrier::new(members));
        (0..members)
            .map(|member| StdBarrier {
                inner: Arc::clone(&inner),
                member,
                members,
            })
            .collect()
    }
}

impl crate::Wait for StdBarrier {
    /// Waits for every member. `std::sync::Barrier` cannot time out, so `timeout` is ignored:
    /// use a [`super::SoftBarrier`] where a wait must be bounded.
    fn wait(&mut self, _timeout: Option<Duration>) -> Result<()> {
        self.inner.wait();
        Ok(())
    }

    fn who(&self) -> Who {
        Who::Software {
            name: "std-barrier-threads",
            member: self.member,
            members: self.members,
        }
    }
}
