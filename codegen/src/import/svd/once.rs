//! Write-once access (`writeOnce`, `read-writeOnce`): carried as the spec's field flag
//! `write_once`. A field says it itself or inherits it from its register (SVD's access
//! inherits down the tree, and the register's `properties` already hold what its peripheral
//! and device say).

use svd_rs as svd;

/// Whether an SVD access is one of the write-once ones.
pub(super) fn is_once(access: svd::Access) -> bool {
    matches!(access, svd::Access::WriteOnce | svd::Access::ReadWriteOnce)
}

/// Whether field `f` of `register` is write-once: by its own access, or, when it has none, by
/// its register's.
pub(super) fn field_is_write_once(f: &svd::FieldInfo, register: &svd::RegisterInfo) -> bool {
    f.access.or(register.properties.access).is_some_and(is_once)
}
