// Creating a device from an address is the one promise a user makes, so it needs `unsafe`.
fn main() {
    let device = gba_pac::Device::from_ptr(core::ptr::null_mut());
    let _ = device;
}
