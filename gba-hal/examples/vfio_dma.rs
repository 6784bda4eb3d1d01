//! Maps and unmaps DMA memory through a VFIO device's IOMMU, with both IOVA choices: the part
//! of the VFIO backend `gba dump` does not reach. Run as root in `tests/vm/cluster.sh`'s VFIO
//! guests: `vfio_dma 0000:00:03.0`; prints one line per allocation, exits 1 on any failure.

use gba_hal::Backend;
use gba_hal::backends::{IovaChoice, VfioBackend};

fn main() {
    let bdf = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "0000:00:03.0".into());
    let mut failed = false;
    for choice in [IovaChoice::Bump, IovaChoice::Physical] {
        let backend = match VfioBackend::open(&bdf, choice) {
            Ok(b) => b,
            Err(e) => {
                eprintln!("vfio_dma: {choice:?}: {e}");
                std::process::exit(1);
            }
        };
        let regions: Vec<_> = (0..3).map(|_| backend.alloc_dma(64)).collect();
        for region in regions {
            match region {
                Ok(r) => {
                    println!("vfio_dma: {choice:?}: mapped at IOVA {:#x}", r.iova);
                    backend.free_dma(r);
                }
                Err(e) => {
                    println!("vfio_dma: {choice:?}: {}", e.reason);
                    failed = true;
                }
            }
        }
    }
    if failed {
        std::process::exit(1);
    }
    println!("vfio_dma: ok");
}
