//! The claim record's state machine lives in gba-hal (`gba_hal::claim`), where the hardware
//! backends' host segments use it too; re-exported here for the simulator's tests and tools.

pub use gba_hal::claim::*;
