//! Shared by the integration tests: the parsed specs, and a zeroed, page-aligned buffer that
//! stands in for a register window. The buffer is only ever touched through raw pointers with
//! volatile accesses, as device memory would be.

#![allow(dead_code)] // each test file uses a different part

use std::alloc::{Layout, alloc_zeroed, dealloc};
use std::path::{Path, PathBuf};

use gba_codegen::Validated;
use gba_codegen::project::Target;

pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ lives in the project root")
        .to_path_buf()
}

pub fn load(relative: &str) -> Validated {
    match gba_codegen::load(&root().join(relative)) {
        Ok(device) => device,
        Err(error) => panic!("{}", error.render(gba_codegen::Style::Plain)),
    }
}

pub fn gba_spec() -> Validated {
    load("gba.yaml")
}

/// The second fixture device and its generated crate: every output.
pub fn uart_target() -> Target {
    Target::custom(
        "tests/fixtures/uart/uart.yaml".into(),
        "tests/fixtures/uart/pac".into(),
    )
}

/// The spec of a target, parsed and validated.
pub fn load_target(target: &Target) -> Validated {
    load(&target.spec.to_string_lossy())
}

pub struct Window {
    ptr: *mut u8,
    layout: Layout,
}

impl Window {
    pub fn new(size: usize) -> Self {
        let layout = Layout::from_size_align(size, 4096).expect("valid layout");
        // SAFETY: the layout has a non-zero size.
        let ptr = unsafe { alloc_zeroed(layout) };
        assert!(!ptr.is_null(), "allocation of {size} bytes failed");
        Window { ptr, layout }
    }

    pub fn gba(&self) -> gba_pac::Device {
        assert!(self.layout.size() >= gba_pac::Device::SIZE);
        // SAFETY: the buffer is Device::SIZE bytes or more, 4096-aligned, lives as long as
        // `self`, and is only ever accessed through raw pointers, volatilely, on this thread.
        unsafe { gba_pac::Device::from_ptr(self.ptr) }
    }

    pub fn uart(&self) -> uart_pac::Device {
        assert!(self.layout.size() >= uart_pac::Device::SIZE);
        // SAFETY: as for `gba`, with uart_pac::Device::SIZE bytes.
        unsafe { uart_pac::Device::from_ptr(self.ptr) }
    }

    /// The same window as the uart device built by `include_spec!` (`uart-macro-pac`).
    pub fn uart_macro(&self) -> uart_macro_pac::Device {
        assert!(self.layout.size() >= uart_macro_pac::Device::SIZE);
        // SAFETY: as for `gba`, with uart_macro_pac::Device::SIZE bytes.
        unsafe { uart_macro_pac::Device::from_ptr(self.ptr) }
    }

    pub fn offset_of(&self, address: *const u8) -> usize {
        let offset = (address as usize).wrapping_sub(self.ptr as usize);
        assert!(
            offset < self.layout.size(),
            "{address:p} is outside the window"
        );
        offset
    }

    pub fn clear(&self) {
        for i in 0..self.layout.size() {
            // SAFETY: i is inside the allocation.
            unsafe { self.ptr.add(i).write_volatile(0) };
        }
    }

    pub fn bytes(&self) -> Vec<u8> {
        (0..self.layout.size())
            // SAFETY: i is inside the allocation.
            .map(|i| unsafe { self.ptr.add(i).read_volatile() })
            .collect()
    }

    pub fn poke(&self, offset: usize, bytes: &[u8]) {
        assert!(offset + bytes.len() <= self.layout.size());
        for (i, byte) in bytes.iter().enumerate() {
            // SAFETY: checked to be inside the allocation just above.
            unsafe { self.ptr.add(offset + i).write_volatile(*byte) };
        }
    }

    pub fn peek(&self, offset: usize, len: usize) -> Vec<u8> {
        assert!(offset + len <= self.layout.size());
        // SAFETY: checked to be inside the allocation just above.
        (0..len)
            .map(|i| unsafe { self.ptr.add(offset + i).read_volatile() })
            .collect()
    }

    pub fn peek_u64(&self, offset: usize) -> u64 {
        u64::from_le_bytes(self.peek(offset, 8).try_into().expect("8 bytes"))
    }

    pub fn peek_u32(&self, offset: usize) -> u32 {
        u32::from_le_bytes(self.peek(offset, 4).try_into().expect("4 bytes"))
    }
}

impl Drop for Window {
    fn drop(&mut self) {
        // SAFETY: allocated in `new` with this layout, freed once.
        unsafe { dealloc(self.ptr, self.layout) };
    }
}
