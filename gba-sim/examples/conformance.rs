//! The backend conformance suite (`tests/suite/conformance.rs`) on a port of the kernel
//! driver: `conformance /dev/gbaN PORT`, run in the `kernel` stage's guest (tests/vm/kernel.sh)
//! against a switch stepped on the host. Prints `conformance: ok: ...` or panics naming the
//! check that failed.

#[path = "../tests/suite/conformance.rs"]
mod suite;

use gba_hal::backends::KernelBackend;

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let (Some(path), Some(port)) = (args.get(1), args.get(2).and_then(|p| p.parse().ok())) else {
        eprintln!("usage: conformance /dev/gbaN PORT (the port's PORT_ID)");
        std::process::exit(2);
    };
    let backend = KernelBackend::open(std::path::Path::new(path))
        .unwrap_or_else(|e| panic!("conformance: {path}: {e}"));
    suite::conformance(backend, port, suite::Dma::ClaimOnly);
    println!("conformance: ok: {path} (port {port}): identity, claim-only DMA and flags, progress");
}
