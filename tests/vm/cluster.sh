#!/usr/bin/env bash
# A cluster of QEMU guests (TCG) running barriers through the unchanged gba-barrier over VFIO
# and over UIO, against the simulated switch stepped on the host (`gba sim run`), with an
# independent observer on the host, and the last guest killed mid-run (docs/design/vm.md):
#
# - a fabric with per-port window files and guest RAM files (`gba sim create
#   --per-port-windows --guest-ram 256M`, in /dev/shm); guest P's RAM is guest-P.ram
#   (memory-backend-file, share=on) and its GBA port is window-P as ivshmem BAR 2;
# - guest P binds vfio-pci (even P, behind intel-iommu, GBA_VFIO_IOVA=physical) and runs
#   `vm_member` (gba-barrier's AnyDevice in Rust), or uio_pci_generic (odd P) and runs
#   `c_member` (tests/vm/c_member.c, the C ABI), after `gba dump` on its port: one start
#   episode, EPISODES timed ones, then on until a wait times out; before that, each guest
#   runs `vm_team` (two processes of the guest on its one port, host combining: the switch
#   must count each of GBA_VM_TEAM_EPISODES barriers once; over VFIO the second process gets
#   the first one's descriptors), then one team across the guests (two ranks per guest,
#   meeting in a host directory shared over 9p): every port must count each barrier once;
# - the host's `vm_observer` checks every sample: no flag ahead of any member's doorbell, no
#   flag going back;
# - once every guest has reported, the last guest's QEMU is killed: the others' timeouts must
#   name its port, and `gba sim fault dead` + `reclaim` must reset its group;
# - the same barrier between host processes on a host-only fabric (vm_member over `sim:`),
#   stepped the same way, before and after the guests, for the comparison.
#
# Usage: tests/vm/cluster.sh [TARGET_DIR]   (default target/debug: gba, examples/vm_member,
#   examples/vm_observer, examples/vfio_dma, examples/vm_team)
# Environment: GBA_VM_GUESTS (default 3, at least 2), GBA_VM_EPISODES (default 1000),
#   GBA_VM_ROUNDS (default 1: rounds of EPISODES timed episodes; between two, every guest
#   sleeps 8 s while the host peers run a round, for alternating comparison rounds),
#   GBA_VM_KILL=0 (no kill), GBA_VM_CACHE (default ~/.cache/gba-vm), GBA_VM_KEEP=1 (keep the
#   work directory and logs), GBA_VM_MEM (guest RAM, default 256M: under q35's 2.75 GiB, so
#   all of it is below the PCI hole; larger works, see gba_sim::vm).
# Exit 0 every check passed, 1 one failed, 77 QEMU cannot run here (one line says why).
# Bounded: every guest is killed after 300 s.
set -euo pipefail
# no_timer_check (guest kernel): on a loaded host a TCG guest's IO-APIC timer check can fail,
# and behind intel-iommu's interrupt remapping that panics the boot ("timer doesn't work
# through Interrupt-remapped IO-APIC"); the check proves nothing about the device under test.
here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/../.." && pwd)
# shellcheck source=tests/vm/lib.sh
. "$here/lib.sh"
target=${1:-$repo/target/debug}
gba=$target/gba
member=$target/examples/vm_member
observer=$target/examples/vm_observer
vfio_dma=$target/examples/vfio_dma
team=$target/examples/vm_team
team_episodes=${GBA_VM_TEAM_EPISODES:-100}
guests=${GBA_VM_GUESTS:-3}
episodes=${GBA_VM_EPISODES:-1000}
rounds=${GBA_VM_ROUNDS:-1}
pause_ms=8000
kill_last=${GBA_VM_KILL:-1}
mem=${GBA_VM_MEM:-256M}
group=3
# With a kill, members go on after their timed episodes until a wait times out (10 s);
# without, they stop and the guests power off.
until_timeout=$([ "$kill_last" = 1 ] && echo 10 || echo 0)
cache=${GBA_VM_CACHE:-$HOME/.cache/gba-vm}
mkdir -p "$cache"

vm_need_qemu
for bin in "$gba" "$member" "$observer" "$vfio_dma" "$team" "$target/libgba_barrier.a"; do
    [ -e "$bin" ] || { echo "vm: $bin is missing (cargo build -p gba -p gba-hal -p gba-barrier -p gba-barrier-c -p gba-sim --lib --bins --example vfio_dma --example vm_member --example vm_observer --example vm_team)"; exit 1; }
done
[ "$guests" -ge 2 ] || { echo "vm: GBA_VM_GUESTS=$guests: a cluster has at least 2 guests"; exit 1; }
vm_kernel "$cache"

vm_scratch vm

# The guests' init: bind, dump, member.
cat > "$work/init" <<INIT
$VM_INIT_PRELUDE
mode=\$(arg gba_mode)
bind \$mode
[ \$mode = vfio ] && export GBA_VFIO_IOVA=physical
gba dump --device \$address > /tmp/dump 2>&1; echo "GUEST: dump rc=\$?"
# VFIO_IOMMU_MAP_DMA/UNMAP_DMA at both IOVA choices (gba-hal/examples/vfio_dma.rs).
[ \$mode = vfio ] && vfio_dma \$bdf 2>&1 | sed 's/^/GUEST: /'
grep -a 'DEVICE_ID\|PORT_ID\|host claims' /tmp/dump | sed 's/^/GUEST: /'
# Host combining (issue 13): two processes of this guest share its port as one member (host
# segment and release-flag page in /dev/shm; over VFIO the second process receives the first
# one's descriptors; gba-barrier/examples/vm_team.rs).
vm_team \$address 2 \$(arg gba_team_episodes) /tmp/team 2>&1 | sed 's/^/GUEST: /'
# One team across the guests, two ranks in each (one member of the group per guest: the switch
# counts each barrier once on every port); the ranks meet in the host directory every guest
# mounts over 9p.
mkdir -p /oob && mount -t 9p -o trans=virtio,version=9p2000.L,cache=none gbaoob /oob \
    && vm_team \$address \$(arg gba_team_here) \$(arg gba_team_episodes) /oob/team \
        --team \$(arg gba_team_size) \$(arg gba_team_first) 2>&1 | sed 's/^/GUEST: cluster /'
# Straight to the console: a pipe would hold the timed line until the member exits.
until=\$(arg gba_until)
[ "\$until" = 0 ] && until= || until="--then-until-timeout \$until"
\$(arg gba_member) \$address \$(arg gba_members) \$(arg gba_group) \$(arg gba_episodes) \
    --rounds \$(arg gba_rounds) --pause-ms \$(arg gba_pause_ms) \$until 2>&1
poweroff -f
INIT
# The C ABI's member (same command line and output), for the UIO guests.
gcc -std=c11 -Wall -Wextra -Werror -pedantic -O1 -I "$repo/gba-barrier-c/include" \
    "$here/c_member.c" "$target/libgba_barrier.a" -lpthread -ldl -lm -lrt -o "$work/c_member"
vm_initramfs "$work/initramfs.gz" "$work/init" "$gba" "$member" "$vfio_dma" "$work/c_member" "$team"

check() { vm_check "$@"; }

# The same barrier between host processes on a host-only fabric, stepped by `gba sim run`.
host_median() { # host_median LABEL: prints member 0's line
    local dir=$work/host-$1 out
    "$gba" sim create --ports 2 --path "$dir" >/dev/null
    "$gba" sim run --path "$dir" 2>/dev/null &
    local run=$!
    "$member" "sim:$dir#1" 2 "$group" "$episodes" > "$dir.1" 2>&1 &
    local other=$!
    out=$("$member" "sim:$dir#0" 2 "$group" "$episodes" 2>&1 | tail -1) || true
    wait "$other" || true
    kill "$run" 2>/dev/null; wait "$run" 2>/dev/null || true
    "$gba" sim destroy --path "$dir" >/dev/null
    echo "vm: host processes ($1): $out"
}
host_median before

fabric=$work/fabric
"$gba" sim create --ports "$guests" --per-port-windows --guest-ram "$mem" --path "$fabric" >/dev/null
"$gba" sim run --path "$fabric" 2>/dev/null &
stepper=$!
pids+=($stepper)
rm -f "$work/stop"
"$observer" "$fabric" "$group" "$guests" "$work/stop" > "$work/observer.log" 2>&1 &
observer_pid=$!

# The cluster team: two ranks per guest.
team_here() { echo 2; }
team_size=0
for ((p = 0; p < guests; p++)); do team_size=$((team_size + $(team_here "$p"))); done
mkdir -p "$work/oob"

start=$(date +%s%N)
team_first=0
qemu=()
for ((p = 0; p < guests; p++)); do
    mode=$([ $((p % 2)) = 0 ] && echo vfio || echo uio)
    member_bin=$([ "$mode" = vfio ] && echo vm_member || echo c_member)
    iommu=() cmdline="console=ttyS0 quiet panic=-1 no_timer_check gba_mode=$mode gba_member=$member_bin gba_members=$guests gba_group=$group gba_episodes=$episodes gba_rounds=$rounds gba_pause_ms=$pause_ms gba_until=$until_timeout gba_team_episodes=$team_episodes gba_team_here=$(team_here "$p") gba_team_size=$team_size gba_team_first=$team_first"
    team_first=$((team_first + $(team_here "$p")))
    if [ "$mode" = vfio ]; then iommu=(-device intel-iommu); cmdline="$cmdline intel_iommu=on"; fi
    timeout 300 qemu-system-x86_64 -machine q35,memory-backend=ram0 -accel tcg -m "$mem" -smp 1 \
        -nographic -no-reboot -kernel "$vm_kdir/vmlinuz" -initrd "$work/initramfs.gz" \
        -append "$cmdline" "${iommu[@]}" \
        -object memory-backend-file,id=ram0,mem-path="$fabric/guest-$p.ram",size="$mem",share=on \
        -object memory-backend-file,id=gba0,mem-path="$fabric/window-$p",size=512K,share=on \
        -device ivshmem-plain,memdev=gba0 \
        -fsdev local,id=oob,path="$work/oob",security_model=none \
        -device virtio-9p-pci,fsdev=oob,mount_tag=gbaoob > "$work/guest-$p.log" 2>&1 &
    qemu+=($!)
    pids+=($!)
    echo "vm: guest $p: $mode, $member_bin, pid $!"
done

# Wait until every guest has reported its timed episodes (or stopped); between two rounds,
# while the guests sleep, the host peers run theirs.
reported() { grep -aq "^member $1: $((episodes * rounds)) episodes" "$work/guest-$1.log"; }
round_done() { grep -aq "^member $1: round $2: " "$work/guest-$1.log"; }
next_round=1
while :; do
    done_all=true round_all=true
    lost=false
    for ((p = 0; p < guests; p++)); do
        if ! reported "$p"; then
            if kill -0 "${qemu[$p]}" 2>/dev/null; then done_all=false; else lost=true; fi
        fi
        round_done "$p" "$next_round" || round_all=false
    done
    # A guest that stopped before reporting (a boot that failed) fails the run now, not when
    # the others' QEMU times out.
    $lost && break
    if $round_all && [ "$next_round" -lt "$rounds" ]; then
        # The guests sleep: their switch is stopped too, so the host peers run alone.
        kill -STOP "$stepper"
        host_median "round-$next_round"
        kill -CONT "$stepper"
        next_round=$((next_round + 1))
    fi
    $done_all && break
    sleep 0.2
done
ran=$((($(date +%s%N) - start) / 1000000))
echo "vm: $guests guests booted and ran $rounds x $episodes timed episodes in $ran ms"
for ((p = 0; p < guests; p++)); do
    grep -a 'GUEST: \|^member' "$work/guest-$p.log" | sed "s/^/vm: guest $p: /" | head -$((12 + rounds))
    check "guest $p dumped its port" grep -aq "GUEST: dump rc=0" "$work/guest-$p.log"
    # VFIO's claims were missing from the dump while it asked the backend's type, not its arbiter.
    check "guest $p: its dump lists its port's claims" grep -aq "GUEST: host claims (" "$work/guest-$p.log"
    if [ $((p % 2)) = 0 ]; then
        check "guest $p mapped and unmapped DMA in its IOMMU" grep -aq "GUEST: vfio_dma: ok" "$work/guest-$p.log"
    fi
    check "guest $p: two processes shared its $([ $((p % 2)) = 0 ] && echo VFIO || echo UIO) port, each barrier counted once" \
        grep -aq "GUEST: vm_team: ok: 2 processes on one port (ranks 0..1 of 2), $team_episodes barriers" "$work/guest-$p.log"
    check "guest $p: its ranks of the cluster team ran $team_episodes barriers over $guests ports, its port counting each once" \
        grep -aq "GUEST: cluster vm_team: ok: $(team_here "$p") processes on one port (ranks .* of $team_size), $team_episodes barriers" "$work/guest-$p.log"
    check "guest $p ran $rounds x $episodes episodes" reported "$p"
done
# ${qemu[P]} is `timeout`'s pid; QEMU is its child.
qemu_pid() { pgrep -P "${qemu[$1]}" qemu-system-x86 | head -1; }
for ((p = 0; p < guests; p++)); do
    if rss=$(ps -o rss= -p "$(qemu_pid "$p")" 2>/dev/null); then
        echo "vm: guest $p's QEMU resident memory: $((rss / 1024)) MiB"
    fi
done

last=$((guests - 1))
if [ "$kill_last" = 1 ]; then
    sleep 2
    victim=$(qemu_pid "$last")
    kill -9 "$victim" 2>/dev/null || true
    echo "vm: killed guest $last (QEMU pid $victim) mid-run"
fi
for ((p = 0; p < guests; p++)); do wait "${qemu[$p]}" 2>/dev/null || true; done
touch "$work/stop"
observer_rc=0
wait "$observer_pid" || observer_rc=$?
sed 's/^/vm: /' "$work/observer.log"
check "the observer saw no violation" [ "$observer_rc" = 0 ]
check "the observer saw episodes released" grep -q "episodes [0-9]*\.\.[1-9][0-9]* released, 0 violations" "$work/observer.log"

if [ "$kill_last" = 1 ]; then
    for ((p = 0; p < last; p++)); do
        grep -a "^member $p: after" "$work/guest-$p.log" | sed "s/^/vm: guest $p: /" | cut -c1-400
        check "guest $p's timeout names port $last" grep -aq "^member $p: after .*members \[$last\] never arrived" "$work/guest-$p.log"
    done
    "$gba" sim fault dead --port "$last" --path "$fabric" >/dev/null
    reclaim=$("$gba" sim fault reclaim --path "$fabric")
    echo "vm: reclaim: $reclaim"
    check "the killed guest's group is reclaimed" grep -q "reset group $group on port $last" <<<"$reclaim"
    enabled=$("$gba" dump --device "sim:$fabric#$last" | grep -a 'GROUP_ENABLED' | head -1)
    echo "vm: port $last after reclaim: $enabled"
    check "port $last has no group enabled" grep -Eq 'GROUP_ENABLED +0x0+( |$)' <<<"$enabled"
fi
host_median after

if [ "$failed" != 0 ]; then
    for ((p = 0; p < guests; p++)); do echo "vm: guest $p's log:"; tail -25 "$work/guest-$p.log"; done
    "$gba" sim status --path "$fabric"
fi
echo "vm: $passed passed, $failed failed"
[ "$failed" = 0 ]
