#!/usr/bin/env bash
# One QEMU guest (TCG) whose GBA port is an ivshmem PCI device backed by a host file holding a
# simulator port's window: `gba dump` opens it from inside the guest over VFIO
# (vfio:BDF, q35 + intel-iommu) and over UIO (uio_pci_generic + the PCI resource file).
# This checks gba-hal's VFIO and UIO backends against a real kernel; it does not step a switch
# (issue 17 item 3, the cluster, is not built yet).
#
# Usage: tests/vm/smoke.sh [GBA_BINARY]   (cache: $GBA_VM_CACHE or ~/.cache/gba-vm;
# GBA_VM_MODES="uio vfio" picks the paths, GBA_VM_KEEP=1 keeps the work dir and guest logs)
# Exit 0 both paths passed, 1 a path failed, 77 QEMU cannot run here (one line says why).
# Bounded: each guest is killed after 180 s; about 35 s each under TCG on a loaded 2-core host.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
gba=${1:-$repo/target/debug/gba}
cache=${GBA_VM_CACHE:-$HOME/.cache/gba-vm}
mkdir -p "$cache"

if ! command -v qemu-system-x86_64 >/dev/null; then
    echo "vm: SKIPPED: qemu-system-x86_64 is not installed (apt-get install qemu-system-x86)"
    exit 77
fi
busybox=$(command -v busybox || echo /bin/busybox)

# The guest kernel: Debian's 6.1, unpacked, never installed.
kdir="$cache/kernel"
if [ ! -f "$kdir/vmlinuz" ]; then
    rm -rf "$kdir.tmp" && mkdir -p "$kdir.tmp" && cd "$kdir.tmp"
    pkg=$(apt-cache search --names-only '^linux-image-6\.1\.0-[0-9]+-amd64$' | awk '{print $1}' | sort -V | tail -1)
    [ -n "$pkg" ] || { echo "vm: no linux-image-6.1.0-*-amd64 package known to apt (apt-get update?)"; exit 1; }
    apt-get download "$pkg" >/dev/null 2>&1
    dpkg-deb -x ./*.deb root
    cp root/boot/vmlinuz-* vmlinuz
    mv root/lib/modules/* modules
    rm -rf root ./*.deb
    cd - >/dev/null && mv "$kdir.tmp" "$kdir"
fi

work=$(mktemp -d)
trap '[ -n "${GBA_VM_KEEP:-}" ] || rm -rf "$work"' EXIT

# The initramfs: busybox, the modules the two paths need, the gba binary and its libraries.
init="$work/initramfs"
mkdir -p "$init"/{bin,sbin,proc,sys,dev,tmp,lib/modules}
cp "$busybox" "$init/bin/busybox"
for m in uio uio_pci_generic irqbypass vfio vfio_iommu_type1 vfio_virqfd vfio-pci-core vfio-pci; do
    find "$kdir/modules" -name "${m//-/[-_]}.ko*" -exec cp {} "$init/lib/modules/" \;
done
cp "$gba" "$init/bin/gba"
dma_example="$(dirname "$gba")/examples/vfio_dma"
[ -x "$dma_example" ] && cp "$dma_example" "$init/bin/vfio_dma"
ldd "$gba" | grep -o '/[^ ]*' | while read -r lib; do
    mkdir -p "$init$(dirname "$lib")" && cp -L "$lib" "$init$lib"
done
cat > "$init/init" <<'INIT'
#!/bin/busybox sh
/bin/busybox --install -s /bin
mount -t proc proc /proc; mount -t sysfs sys /sys; mount -t devtmpfs dev /dev
for m in /lib/modules/*; do
    case $m in *.zst) zstd -dqf "$m" -o "${m%.zst}" 2>/dev/null && m=${m%.zst};; *.xz) xz -dkf "$m" && m=${m%.xz};; esac
done
for m in uio uio_pci_generic irqbypass vfio vfio_iommu_type1 vfio_virqfd vfio-pci-core vfio-pci; do
    f=$(ls /lib/modules/$(echo $m | tr - _).ko /lib/modules/$m.ko 2>/dev/null | head -1)
    [ -n "$f" ] && insmod "$f" 2>/dev/null
done
bdf=$(grep -l 0x1110 /sys/bus/pci/devices/*/device | head -1 | xargs dirname | xargs basename)
echo "GUEST: ivshmem at $bdf"
mode=$(cat /proc/cmdline | sed -n 's/.*gba_mode=\([a-z]*\).*/\1/p')
if [ "$mode" = vfio ]; then
    echo vfio-pci > /sys/bus/pci/devices/$bdf/driver_override
    echo $bdf > /sys/bus/pci/drivers_probe
    gba dump --device vfio:$bdf > /tmp/out 2>&1; echo "GUEST: vfio rc=$?"
    [ -x /bin/vfio_dma ] && { vfio_dma $bdf 2>&1 | sed 's/^/GUEST: /'; }
else
    echo "1af4 1110" > /sys/bus/pci/drivers/uio_pci_generic/new_id
    sleep 1
    gba dump --device /dev/uio0 > /tmp/out 2>&1; echo "GUEST: uio rc=$?"
fi
head -12 /tmp/out
poweroff -f
INIT
chmod +x "$init/init"
(cd "$init" && find . | cpio -o -H newc 2>/dev/null | gzip -1) > "$work/initramfs.gz"

# Port 0's window of a fresh fabric, padded to a power of two for ivshmem.
fabric="$work/fabric"
"$gba" sim create --path "$fabric" --ports 1 >/dev/null 2>&1 || "$gba" sim create "$fabric" 1 >/dev/null
window="$work/window-0"
truncate -s 512K "$window"
dd if="$fabric/windows" of="$window" bs=64K count=5 conv=notrunc status=none

passed=0 failed=0
for mode in ${GBA_VM_MODES:-uio vfio}; do
    iommu=()
    cmdline="console=ttyS0 quiet panic=-1 gba_mode=$mode"
    if [ "$mode" = vfio ]; then
        iommu=(-device intel-iommu)
        cmdline="$cmdline intel_iommu=on"
    fi
    start=$(date +%s%N)
    timeout 180 qemu-system-x86_64 -machine q35 -accel tcg -m 256 -smp 1 -nographic -no-reboot \
        -kernel "$kdir/vmlinuz" -initrd "$work/initramfs.gz" -append "$cmdline" \
        "${iommu[@]}" \
        -object memory-backend-file,id=gba0,mem-path="$window",size=512K,share=on \
        -device ivshmem-plain,memdev=gba0 > "$work/$mode.log" 2>&1 || true
    end=$(date +%s%N)
    echo "vm: $mode path: guest ran $(((end - start) / 1000000)) ms"
    grep -ao 'GUEST: .*\|0x[0-9a-f]* *DEVICE_ID.*\|0x[0-9a-f]* *PORT_ID.*\|[Ee]rror.*' "$work/$mode.log" | head -14 || true
    dma_ok=true
    if [ "$mode" = vfio ] && [ -x "$dma_example" ] && ! grep -aq "GUEST: vfio_dma: ok" "$work/$mode.log"; then
        dma_ok=false
    fi
    if $dma_ok && grep -aq "GUEST: $mode rc=0" "$work/$mode.log" && grep -aq "DEVICE_ID *0x47424131" "$work/$mode.log"; then
        passed=$((passed + 1))
    else
        echo "vm: $mode path FAILED; guest log:"; tail -30 "$work/$mode.log"; failed=$((failed + 1))
    fi
done
echo "vm: $passed passed, $failed failed"
[ "$failed" = 0 ]
