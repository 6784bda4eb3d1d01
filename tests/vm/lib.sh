# Shared by the guest tests under tests/vm/ (sourced, not run): the guest kernel
# (Debian's 6.1 package, fetched with apt-get download and unpacked, never installed) and a
# busybox initramfs holding the given binaries, their libraries, the UIO/VFIO modules and an
# init script.

# vm_need_qemu: exit 77 with one line when QEMU cannot run here at all.
vm_need_qemu() {
    if ! command -v qemu-system-x86_64 >/dev/null; then
        echo "vm: SKIPPED: qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
        exit 77
    fi
}

# vm_kernel_package: the guest kernel's package (linux-image-6.1.0-N-amd64, the newest apt
# knows); tests/install.sh installs the matching linux-headers-6.1.0-N-amd64 for gba.ko.
vm_kernel_package() {
    apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' | awk '{print $1}' | sort -V | tail -1
}

# vm_kernel CACHE: sets $vm_kdir to CACHE/kernel, holding vmlinuz and modules/, fetched once.
vm_kernel() {
    vm_kdir="$1/kernel"
    if [ -f "$vm_kdir/vmlinuz" ]; then return 0; fi
    rm -rf "$vm_kdir.tmp" && mkdir -p "$vm_kdir.tmp"
    (
        cd "$vm_kdir.tmp"
        pkg=$(vm_kernel_package)
        [ -n "$pkg" ] || { echo "vm: no linux-image-6.1.0-*-amd64 package known to apt (apt-get update?)"; exit 1; }
        apt-get download "$pkg" >/dev/null 2>&1
        dpkg-deb -x ./*.deb root
        cp root/boot/vmlinuz-* vmlinuz
        mv root/lib/modules/* modules
        rm -rf root ./*.deb
    )
    mv "$vm_kdir.tmp" "$vm_kdir"
}

# vm_kernel_version: the guest kernel's version (after vm_kernel), from a module's vermagic.
vm_kernel_version() {
    grep -ao 'vermagic=[^ ]*' "$(find "$vm_kdir/modules" -name 'uio.ko*' | head -1)" | head -1 | cut -d= -f2
}

# vm_gba_module DIR KVER: driver/ built (Kbuild, warnings fatal) in DIR against the installed
# headers of the guest kernel KVER, with the generated gba_regs.h; prints the module's path.
# (tests/vm/kernel.sh builds it the administrator's way, with DKMS.)
vm_gba_module() {
    local dir=$1 kver=$2 repo
    repo=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
    if [ ! -d "/lib/modules/$kver/build" ]; then
        echo "vm: no headers for the guest kernel $kver: apt-get install linux-headers-$kver (tests/install.sh does)" >&2
        return 1
    fi
    mkdir -p "$dir" && cp -r "$repo/driver/." "$dir/" && rm -f "$dir"/*.ko "$dir"/*.o
    make -s -C "/lib/modules/$kver/build" M="$dir" GBA_REGS_DIR="$repo/gba-pac/include" GBA_WERROR=1 modules >&2 || return 1
    echo "$dir/gba.ko"
}

# virtio and 9p (in load order): the cluster's guests share a host directory (`-virtfs`) for
# their teams' out-of-band exchange.
VM_MODULES="uio uio_pci_generic irqbypass vfio vfio_iommu_type1 vfio_virqfd vfio-pci-core vfio-pci virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci netfs fscache 9pnet 9pnet_virtio 9p"

# vm_initramfs OUT.gz INIT_SCRIPT BINARY...: busybox, the modules, the binaries (into /bin)
# with their libraries, and INIT_SCRIPT as /init. $VM_EXTRA_MODULES: more .ko files (paths)
# copied into /lib/modules beside them (tests/vm/kernel.sh's gba.ko), loaded by the init script.
# $VM_EXTRA_FILES: more files, each SOURCE:GUEST_PATH (kernel.sh's udev rule, /etc/group).
vm_initramfs() {
    local out=$1 init_script=$2 root
    shift 2
    root=$(mktemp -d)
    mkdir -p "$root"/{bin,sbin,proc,sys,dev,tmp,lib/modules}
    cp "$(command -v busybox || echo /bin/busybox)" "$root/bin/busybox"
    local m
    for m in $VM_MODULES; do
        find "$vm_kdir/modules" -name "${m//-/[-_]}.ko*" -exec cp {} "$root/lib/modules/" \;
    done
    for m in ${VM_EXTRA_MODULES:-}; do cp "$m" "$root/lib/modules/"; done
    for m in ${VM_EXTRA_FILES:-}; do mkdir -p "$root$(dirname "${m#*:}")" && cp "${m%%:*}" "$root${m#*:}"; done
    local bin lib
    for bin in "$@"; do
        cp "$bin" "$root/bin/"
        # Debug builds are mostly debug info (the debug gba is ~50 MB, 10 without): the guest's
        # root file system lives in its RAM, and unstripped binaries left no room for /tmp.
        strip --strip-debug "$root/bin/$(basename "$bin")" 2>/dev/null || true
        ldd "$bin" | grep -o '/[^ ]*' | while read -r lib; do
            mkdir -p "$root$(dirname "$lib")" && cp -L "$lib" "$root$lib"
        done
    done
    cp "$init_script" "$root/init"
    chmod +x "$root/init"
    (cd "$root" && find . | cpio -o -H newc 2>/dev/null | gzip -1) > "$out"
    rm -rf "$root"
}

# The part of every guest's /init that loads the modules and finds the ivshmem device
# ($bdf); sourced by the init scripts (written into them by cat).
VM_INIT_PRELUDE='#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
# /dev/shm and /run as on any distribution: the UIO and VFIO backends keep the host segment
# of a port in /run/gba (the trusted runtime directory of root, made by the first opener).
mkdir -p /dev/shm && mount -t tmpfs shm /dev/shm
mkdir -p /run && mount -t tmpfs -o mode=0755 run /run
for m in /lib/modules/*; do
    case $m in *.zst) zstd -dqf "$m" -o "${m%.zst}" 2>/dev/null && m=${m%.zst};; *.xz) xz -dkf "$m" && m=${m%.xz};; esac
done
for m in uio uio_pci_generic irqbypass vfio vfio_iommu_type1 vfio_virqfd vfio-pci-core vfio-pci virtio_ring virtio virtio_pci_modern_dev virtio_pci_legacy_dev virtio_pci netfs fscache 9pnet 9pnet_virtio 9p; do
    f=$(ls /lib/modules/$(echo $m | tr - _).ko /lib/modules/$m.ko 2>/dev/null | head -1)
    [ -n "$f" ] && insmod "$f" 2>/dev/null
done
bdf=$(grep -l 0x1110 /sys/bus/pci/devices/*/device | head -1 | xargs dirname | xargs basename)
echo "GUEST: ivshmem at $bdf"
arg() { sed -n "s/.*$1=\([^ ]*\).*/\1/p" /proc/cmdline; }
# bind MODE: binds the device to vfio-pci or uio_pci_generic and sets $address.
bind() {
    if [ "$1" = vfio ]; then
        echo vfio-pci > /sys/bus/pci/devices/$bdf/driver_override
        echo $bdf > /sys/bus/pci/drivers_probe
        address=vfio:$bdf
    else
        echo "1af4 1110" > /sys/bus/pci/drivers/uio_pci_generic/new_id
        sleep 1
        address=/dev/uio0
    fi
}
'

# vm_scratch NAME: a test script's scratch directory $work (in /dev/shm where it can) and its
# background processes $pids, which the EXIT trap kills before removing $work (GBA_VM_KEEP=1
# keeps it). It also starts the script's counts ($passed, $failed) for vm_check.
vm_scratch() {
    vm_name=$1
    work=$(mktemp -d -p /dev/shm "gba-$1.XXXXXX" 2>/dev/null || mktemp -d)
    pids=()
    passed=0 failed=0
    trap vm_scratch_cleanup EXIT
}
vm_scratch_cleanup() {
    local pid
    for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
    wait 2>/dev/null || true
    if [ -n "${GBA_VM_KEEP:-}" ]; then echo "$vm_name: kept $work"; else rm -rf "$work"; fi
}

# vm_check NAME CONDITION...: one check, counted in $passed or $failed; a failure is printed
# ("NAME_OF_SCRIPT: FAILED: NAME"), a pass too when VM_CHECK_SAY_OK is set.
vm_check() {
    local name=$1
    shift
    if "$@"; then
        passed=$((passed + 1))
        if [ -n "${VM_CHECK_SAY_OK:-}" ]; then echo "$vm_name: ok: $name"; fi
    else
        failed=$((failed + 1))
        echo "$vm_name: FAILED: $name"
    fi
}
