//! One port of a fabric, as a host opens its `/dev/gba0`: its register window, its DMA
//! arena, and the switch's progress function. What [`SimBackend`](crate::SimBackend) is
//! built on; users reach a port through it.

use std::path::Path;
use std::ptr::NonNull;
use std::sync::Arc;

use gba_hal::DmaRegion;

use gba_pac::Device;
use gba_pac::common::Atomic;

use crate::error::{Error, Result};
use crate::fabric::Fabric;
use crate::layout::{self as l, ARENA_LINE, ARENA_SIZE};

/// An open port. Records this process as a user of the port until dropped.
#[derive(Debug)]
pub(crate) struct Port {
    fabric: Arc<Fabric>,
    port: usize,
}

impl Port {
    /// Opens port `port` of the fabric in `dir`.
    pub fn open(dir: &Path, port: usize) -> Result<Port> {
        Port::attach(Arc::new(Fabric::open(dir)?), port)
    }

    /// Opens port `port` of an already mapped fabric (threads of one process share it).
    pub fn attach(fabric: Arc<Fabric>, port: usize) -> Result<Port> {
        fabric.check_port(port)?;
        fabric.attach(port)?;
        Ok(Port { fabric, port })
    }

    pub fn number(&self) -> usize {
        self.port
    }

    pub fn fabric(&self) -> &Arc<Fabric> {
        &self.fabric
    }

    /// The port's register window (page-aligned, `gba_pac::Device::SIZE` bytes), with the
    /// atomic mechanism: the switch reads and writes it from other processes at the same time.
    pub fn window(&self) -> Device<Atomic> {
        self.fabric.window(self.port)
    }

    /// One switch step, unless another process or thread is stepping right now, or every
    /// busy group runs on the fast path and the last step is recent (see
    /// [`Fabric::progress_waiting`]): what wait loops call.
    pub fn progress(&self) {
        self.fabric.progress_waiting();
    }

    /// What the switch does with this port's release store of `doorbell` into `group`'s
    /// ARRIVAL register: aggregates it on the fast path ([`Fabric::arrive`]), or else steps.
    #[inline]
    pub fn arrive(&self, group: usize, doorbell: u64) {
        if !self.fabric.arrive(self.port, group, doorbell) {
            self.fabric.progress();
        }
    }

    /// What the switch does with this port's store to `group`'s CONTROL register: looks at
    /// the group in a step at once ([`Fabric::control_written`]).
    pub fn control_written(&self, group: usize) {
        self.fabric.control_written(group);
    }

    /// [`Fabric::alloc_dma`] on this port.
    pub fn alloc_dma(&self, len: usize) -> Result<DmaRegion> {
        self.fabric.alloc_dma(self.port, len)
    }

    /// [`Fabric::free_dma`] on this port.
    pub fn free_dma(&self, block: DmaRegion) {
        self.fabric.free_dma(self.port, block)
    }
}

impl Drop for Port {
    fn drop(&mut self) {
        self.fabric.detach(self.port);
    }
}

// The arena's allocator: the fabric's, as the arenas are (a port is a view of one).
impl Fabric {
    /// Allocates `len` bytes of port `port`'s arena, cache-line aligned and zeroed. Nothing else
    /// is allocated on the same cache lines.
    pub fn alloc_dma(&self, port: usize, len: usize) -> Result<DmaRegion> {
        self.check_port(port)?;
        if len == 0 || len > ARENA_SIZE {
            return Err(Error::DmaSize {
                len,
                max: ARENA_SIZE,
            });
        }
        let lines = len.div_ceil(ARENA_LINE);
        let _guard = self.lock_step();
        let first = (0..=ARENA_SIZE / ARENA_LINE - lines)
            .find(|&start| (start..start + lines).all(|line| !self.line_used(port, line)))
            .ok_or(Error::ArenaFull {
                port,
                len,
                arena: ARENA_SIZE,
            })?;
        for line in first..first + lines {
            self.set_line(port, line, true);
        }
        let offset = first * ARENA_LINE;
        let (arena, _) = self.arena(port);
        for word in (offset..offset + lines * ARENA_LINE).step_by(8) {
            if let Some(w) = self.dma_word(port, l::IOVA_BASE + word as u64) {
                w.store(0);
            }
        }
        let no_arena = Error::ArenaFull {
            port,
            len,
            arena: ARENA_SIZE,
        };
        Ok(DmaRegion {
            // A mapping never starts at address 0, so no byte of the arena is null.
            host: NonNull::new(arena.wrapping_add(offset)).ok_or(no_arena)?,
            iova: l::IOVA_BASE + offset as u64,
            len,
        })
    }

    /// Returns a block from [`alloc_dma`](Self::alloc_dma) to port `port`'s arena.
    pub fn free_dma(&self, port: usize, block: DmaRegion) {
        if self.check_port(port).is_err() {
            return;
        }
        let Some(offset) = block.iova.checked_sub(l::IOVA_BASE) else {
            return;
        };
        let first = offset as usize / ARENA_LINE;
        let lines = block.len.div_ceil(ARENA_LINE);
        let _guard = self.lock_step();
        for line in first..(first + lines).min(ARENA_SIZE / ARENA_LINE) {
            self.set_line(port, line, false);
        }
    }

    fn line_used(&self, port: usize, line: usize) -> bool {
        let word = self.port_state(port, l::P_ARENA_BITMAP + line / 64).load();
        word & (1 << (line % 64)) != 0
    }

    fn set_line(&self, port: usize, line: usize, used: bool) {
        let word = self.port_state(port, l::P_ARENA_BITMAP + line / 64);
        let bit = 1 << (line % 64);
        let value = word.load();
        word.store(if used { value | bit } else { value & !bit });
    }
}
