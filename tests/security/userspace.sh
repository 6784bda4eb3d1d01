#!/usr/bin/env bash
# Issue 25 on the user-space paths: the attacks of a second, unprivileged user of the node
# against root's jobs over the simulator, UIO (a fake sysfs over a VM fabric's files, as
# gba-barrier/tests/uio_host.rs) and VFIO's descriptor socket, replayed by a user this script
# creates (and removes at the end, also on failure).
#
# Each check passes only if the attack is refused by name (the victim's error names the file
# or socket, its owner or mode), or cannot touch the victim at all (the kernel refuses the
# attacker), and the victim's job is unaffected: no early release (every rank records the
# episode it entered in a file of the job, checked after each release:
# gba-barrier/examples/security_victim.rs), no crash (no SIGBUS, no panic).
#
#   bash tests/security/userspace.sh [TARGET_DIR]     (root; prints `security: N passed, M failed`)
#
# Exit 77: not root (it cannot create a user).
set -uo pipefail
cd "$(dirname "$0")/../.."
target=${1:-target/debug}
if [ "$(id -u)" != 0 ]; then
    echo "security: needs root: it creates a second user to attack root's jobs"
    exit 77
fi
for tool in useradd userdel setpriv; do
    command -v "$tool" >/dev/null || { echo "security: $tool is missing (package passwd / util-linux)"; exit 1; }
done
if [ -z "${1:-}" ]; then
    cargo build -q -p gba -p gba-barrier --bin gba --example security_victim || exit 1
fi

EVE=gbasec$$
EPISODES=100
bin=$(mktemp -d /tmp/gba-security-bin.XXXXXX)
work=$(mktemp -d /dev/shm/gba-security.XXXXXX 2>/dev/null || mktemp -d /tmp/gba-security.XXXXXX)
plants=()
pids=()
cleanup() {
    local p
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null; wait "$p" 2>/dev/null; done
    # System V segments made under Eve's group outlive their processes (until reboot): a
    # failed run must not leave them (the passing run has removed them already).
    local eve_gid
    if eve_gid=$(id -g "$EVE" 2>/dev/null); then
        awk -v g="$eve_gid" 'NR > 1 && $9 == g { print $2 }' /proc/sysvipc/shm |
            while read -r id; do ipcrm -m "$id" 2>/dev/null; done
    fi
    userdel "$EVE" || echo "security: could not remove the user $EVE: remove it with userdel"
    rm -rf "$work" "$bin" "${plants[@]}"
}
trap cleanup EXIT
cp "$target/gba" "$target/examples/security_victim" "$bin/" || exit 1
chmod 0755 "$bin" "$bin"/*
useradd --no-create-home --home-dir / --shell /bin/sh "$EVE" || exit 1
eve_uid=$(id -u "$EVE")
# setpriv execs (no child process), so a backgrounded "${EVE_RUN[@]}" command's $! is the
# attacker's process itself (a backgrounded function would be a subshell around it).
EVE_RUN=(setpriv --reuid="$EVE" --regid="$EVE" --clear-groups --)
as_eve() { "${EVE_RUN[@]}" "$@"; }
echo "security: attacker uid $eve_uid ($EVE), victim root; work in $work"

passed=0 failed=0
ok() { echo "security: ok: $1 [${SECONDS}s]"; passed=$((passed + 1)); }
bad() { echo "security: FAILED: $1 [${SECONDS}s]"; failed=$((failed + 1)); }
# check NAME CONDITION...: the condition (a command) decides.
check() { local name=$1; shift; if "$@"; then ok "$name"; else bad "$name"; fi; }
has() { grep -q -- "$2" "$1"; }
show() { sed 's/^/    | /' "$1"; }

# A victim job: RANKS processes (their ports in PORTS), each `security_victim team`; writes
# $work/job-TAG.R. Returns 0 when every rank completed, 3 on an early release, 1 otherwise.
# With JOB_AS set (a command prefix, EVE_RUN), the ranks run as that user.
job() {
    local tag=$1 address_of=$2 ranks=$3 r rc=0 worst=0
    local oob=$work/oob-$tag entered=$work/entered-$tag
    mkdir -p "$oob" && head -c $((8 * ranks)) /dev/zero >"$entered"
    local ps=()
    for ((r = 0; r < ranks; r++)); do
        ${JOB_AS[@]+"${JOB_AS[@]}"} "$bin/security_victim" team "$($address_of "$r")" "$r" "$ranks" "$oob" "$entered" "$EPISODES" \
            >"$work/job-$tag.$r" 2>&1 &
        ps+=($!)
    done
    for r in "${!ps[@]}"; do
        rc=0; wait "${ps[$r]}" || rc=$?
        if ((rc > worst)); then worst=$rc; fi
        if has "$work/job-$tag.$r" "EARLY RELEASE" || ((rc > 3)); then
            echo "    rank $r of job $tag: exit $rc"; show "$work/job-$tag.$r"; worst=99
        fi
    done
    return "$worst"
}
completed() { local tag=$1 ranks=$2 r; for ((r = 0; r < ranks; r++)); do has "$work/job-$tag.$r" "completed $EPISODES" || return 1; done; }
# The job refused to start, naming WHAT (grep patterns, all of them) in rank 0's error.
refused() {
    local tag=$1 r; shift
    for r in "$work/job-$tag".*; do
        has "$r" "EARLY RELEASE" && return 1
    done
    local w
    for w in "$@"; do has "$work/job-$tag.0" "$w" || { show "$work/job-$tag.0"; return 1; }; done
}

# ---------------------------------------------------------------------------------------------
# The simulator
# ---------------------------------------------------------------------------------------------
fab=$work/fabric
"$bin/gba" sim create --ports 2 --path "$fab" >/dev/null
sim_addr() { echo "sim:$fab#$1"; }

# 1. A fabric another user made first, where the victim looks (the old /dev/shm/gba-fabric):
#    no longer "already exists: use it".
planted=/dev/shm/gba-fabric-$EVE
plants+=("$planted")
as_eve "$bin/gba" sim create --ports 2 --path "$planted" >/dev/null
as_eve chmod -R a+rwX "$planted"
"$bin/gba" sim create --ports 2 --path "$planted" >"$work/out" 2>&1
check "sim: gba sim create refuses a fabric planted by uid $eve_uid (0777) by name" \
    has "$work/out" "refusing $planted.*0777"
as_eve chmod 0700 "$planted"
as_eve chmod 0600 "$planted"/*
planted_addr() { echo "sim:$planted#$1"; }
job planted planted_addr 2
check "sim: a job refuses a fabric owned by uid $eve_uid (0700) by name" \
    refused planted "refusing $planted" "another user" "uid $eve_uid"

# 2. The default fabric is no longer in a directory every user can write.
if [ ! -e /run/gba/fabric ]; then
    def=$(env -u GBA_SIM_FABRIC "$bin/gba" sim create --ports 1 2>&1)
    check "sim: the default fabric is $def, in root's runtime directory (0700)" \
        test "$def" = /run/gba/fabric -a "$(stat -c %a /run/gba/fabric)" = 700
    "$bin/gba" sim destroy --path /run/gba/fabric >/dev/null 2>&1
fi

# 3. Edit the victim's counters and release flags while its job runs: the fabric's files are
#    0600 (its directory, here made readable on purpose, is the second wall).
chmod 0755 "$work" "$fab"
(
    for _ in $(seq 200); do
        for f in switch arenas hosts windows; do
            as_eve dd if=/dev/urandom of="$fab/$f" bs=8 count=64 seek=1 conv=notrunc status=none 2>/dev/null &&
                echo "WROTE $f"
        done
    done
) >"$work/eve-writes" 2>&1 &
eve_writer=$!
job edit sim_addr 2; rc=$?
wait "$eve_writer"
check "sim: uid $eve_uid cannot write the fabric's files (0600), the job completes unaffected" \
    eval '[ "$rc" = 0 ] && completed edit 2 && ! has "$work/eve-writes" WROTE'
chmod 0700 "$work" "$fab"

# 4. A fabric file writable by everyone (as an old version under umask 0 made them).
chmod 0666 "$fab/hosts"
job mode sim_addr 2
check "sim: a 0666 fabric file is refused by name" refused mode "refusing $fab/hosts" "0666"
chmod 0600 "$fab/hosts"

# 5. A symbolic link in place of a fabric file.
cp "$fab/arenas" "$work/arenas.real" && mv "$fab/arenas" "$work/arenas.keep"
ln -s "$work/arenas.real" "$fab/arenas"
job link sim_addr 2
check "sim: a symbolic link in a fabric is refused by name" refused link "refusing $fab/arenas" "symbolic link"
rm "$fab/arenas" && mv "$work/arenas.keep" "$fab/arenas"

# 6. A truncated fabric file: refused by size, never SIGBUS.
cp "$fab/hosts" "$work/hosts.keep"
truncate -s 4096 "$fab/hosts"
job trunc sim_addr 2; rc=$?
check "sim: a truncated fabric file is refused by its size (exit $rc, no SIGBUS)" \
    eval '[ "$rc" = 1 ] && refused trunc "$fab/hosts" "4096 bytes"'
cp "$work/hosts.keep" "$fab/hosts"

# 7. A directory named `switch`.
odd=$work/odd && mkdir -p "$odd/switch"
"$bin/gba" sim status --path "$odd" >"$work/out" 2>&1
check "sim: a directory named switch is refused as not a regular file" has "$work/out" "switch.*not a regular file"

job sane sim_addr 2; rc=$?
check "sim: after the attacks the victim's fabric runs $EPISODES episodes" eval '[ "$rc" = 0 ] && completed sane 2'

# ---------------------------------------------------------------------------------------------
# UIO (a fake sysfs over a VM fabric's files; ranks 0 and 1 share port 0: host combining)
# ---------------------------------------------------------------------------------------------
ufab=$work/ufab
"$bin/gba" sim create --ports 2 --per-port-windows --guest-ram 64K --path "$ufab" >/dev/null
"$bin/gba" sim run --path "$ufab" >/dev/null 2>&1 &
pids+=($!)
sysfs=$work/sysfs
for p in 0 1; do
    for m in "0 0x100 0xfe000000" "1 0x2000 0x1000"; do
        set -- $m
        mkdir -p "$sysfs/uio$p/maps/map$1"
        echo "$2" >"$sysfs/uio$p/maps/map$1/size"
        echo "$3" >"$sysfs/uio$p/maps/map$1/addr"
    done
    mkdir -p "$sysfs/uio$p/device" "$work/dev"
    ln -s "$ufab/window-$p" "$sysfs/uio$p/device/resource2"
    ln -s "$ufab/guest-$p.ram" "$work/dev/uio$p"
done
export GBA_UIO_SYSFS=$sysfs
seg=$work/segments && mkdir -m 0700 "$seg"
export GBA_HOST_SEGMENT_DIR=$seg
uio_ports=(0 0 1)
uio_addr() { echo "$work/dev/uio${uio_ports[$1]}"; }
# The two processes of port 0 alone: where port 0's segment is refused, a rank on port 1 would
# wait out its out-of-band timeout for them.
port0_addr() { echo "$work/dev/uio0"; }

job uio uio_addr 3; rc=$?
check "uio: a team of 3 (2 processes on port 0) completes over the fake sysfs" eval '[ "$rc" = 0 ] && completed uio 3'
segment=$(ls "$seg" | grep -m1 port0)
segment=${segment:-no-segment-was-made}
check "uio: the host segment is 0600, one link" \
    test "$(stat -c %a:%h "$seg/$segment" 2>/dev/null)" = 600:1

# 1. Host segments in a directory every user can write (the old /dev/shm): refused.
GBA_HOST_SEGMENT_DIR=/dev/shm job shm port0_addr 2
check "uio: /dev/shm as the segment directory is refused by name" refused shm "refusing /dev/shm" "writable by every user"

# 2. Edit the counters of the victim's segment while its job runs.
chmod 0755 "$work" "$seg"
(
    for _ in $(seq 300); do
        as_eve dd if=/dev/urandom of="$seg/$segment" bs=8 count=512 seek=520 conv=notrunc status=none 2>/dev/null &&
            echo WROTE
    done
) >"$work/eve-writes" 2>&1 &
eve_writer=$!
job uedit uio_addr 3; rc=$?
wait "$eve_writer"
check "uio: uid $eve_uid cannot write the host segment (0600), the team completes unaffected" \
    eval '[ "$rc" = 0 ] && completed uedit 3 && ! has "$work/eve-writes" WROTE'
chmod 0700 "$work" "$seg"

# 3. A segment planted by uid $EVE under the segment's name (a valid header: a copy of the
#    real one, made theirs, mode 0644).
mv "$seg/$segment" "$work/segment.keep"
cp "$work/segment.keep" "$seg/$segment" && chown "$EVE" "$seg/$segment" && chmod 0644 "$seg/$segment"
job uplant port0_addr 2
check "uio: a segment owned by uid $eve_uid is refused by name" \
    refused uplant "refusing $seg/$segment" "another user" "uid $eve_uid"
rm -f "$seg/$segment"

# 4. A 0666 segment.
cp "$work/segment.keep" "$seg/$segment" && chmod 0666 "$seg/$segment"
job umode port0_addr 2
check "uio: a 0666 segment is refused by name" refused umode "refusing $seg/$segment" "0666"
rm -f "$seg/$segment"

# 5. A symbolic link under the segment's name.
cp "$work/segment.keep" "$work/segment.other" && chmod 0600 "$work/segment.other"
ln -s "$work/segment.other" "$seg/$segment"
job ulink port0_addr 2
check "uio: a symbolic link under the segment's name is refused by name" refused ulink "refusing $seg/$segment" "symbolic link"
rm -f "$seg/$segment"

# 6. A truncated segment: refused by size, never SIGBUS.
cp "$work/segment.keep" "$seg/$segment" && chmod 0600 "$seg/$segment" && truncate -s 8192 "$seg/$segment"
job utrunc port0_addr 2; rc=$?
check "uio: a truncated segment is refused by its size (exit $rc, no SIGBUS)" \
    eval '[ "$rc" = 1 ] && refused utrunc "$seg/$segment" "8192 bytes"'
rm -f "$seg/$segment"

# 7. A second link to the segment (another name for it may be someone else's).
cp "$work/segment.keep" "$seg/$segment" && chmod 0600 "$seg/$segment" && ln "$seg/$segment" "$seg/.other"
job unlink port0_addr 2
check "uio: a segment with two links is refused by name" refused unlink "refusing $seg/$segment" "2 links"
rm -f "$seg/.other"

job usane uio_addr 3; rc=$?
check "uio: after the attacks the victim's team runs $EPISODES episodes" eval '[ "$rc" = 0 ] && completed usane 3'

# 8. Under a configured group (GBA_SHARED_GROUP: here uid $EVE's own group, so the attacker is
#    a member and may write the segment's words, as claims need), a member tries to shrink the
#    shared memory of the victim's running team. The memory is a System V segment (no resize
#    operation exists) named by a 0640 pointer file in the sticky 01770 directory. Rank 0
#    maps it and waits for rank 1, which starts only after the attacks.
gseg=$work/gsegments && mkdir -m 01770 "$gseg" && chgrp "$EVE" "$gseg"
chmod 0755 "$work"
export GBA_SHARED_GROUP=$EVE GBA_HOST_SEGMENT_DIR=$gseg
goob=$work/oob-group gentered=$work/entered-group
mkdir -p "$goob" && head -c 16 /dev/zero >"$gentered"
"$bin/security_victim" team "$work/dev/uio0" 0 2 "$goob" "$gentered" "$EPISODES" >"$work/job-group.0" 2>&1 &
grank0=$!
pids+=("$grank0")
for _ in $(seq 300); do ls "$gseg" | grep -q port0 && break; sleep 0.1; done
gsegment=$(ls "$gseg" | grep -m1 port0)
gsegment=${gsegment:-no-segment-was-made}
gid_seg=$(od -An -t d8 -j 8 -N 8 "$gseg/$gsegment" 2>/dev/null | tr -d ' ')
check "group: the victim's segment is a pointer (0640, group $EVE) to System V segment ${gid_seg:-none} (0660)" \
    eval 'test "$(stat -c %a:%G "$gseg/$gsegment")" = "640:$EVE" && ipcs -m -i "$gid_seg" | grep -q "mode=0660"'
as_eve truncate -s 0 "$gseg/$gsegment" >"$work/eve-trunc" 2>&1; trc=$?
as_eve ipcrm -m "$gid_seg" >"$work/eve-rm" 2>&1; rrc=$?
as_eve rm -f "$gseg/$gsegment" >"$work/eve-unlink" 2>&1; urc=$?
as_eve truncate -s 0 "/proc/$grank0/map_files/$(grep -m1 SYSV "/proc/$grank0/maps" | cut -d' ' -f1)" >"$work/eve-mapfile" 2>&1; mrc=$?
check "group: member uid $eve_uid cannot truncate the pointer (refused: $(tail -c 60 "$work/eve-trunc"))" \
    eval '[ "$trc" != 0 ] && has "$work/eve-trunc" "Permission denied"'
check "group: member uid $eve_uid cannot remove the segment (refused: $(tail -c 60 "$work/eve-rm"))" \
    eval '[ "$rrc" != 0 ] && has "$work/eve-rm" "ermission denied\|not permitted"'
check "group: member uid $eve_uid cannot unlink the pointer in the sticky directory" \
    eval '[ "$urc" != 0 ] && has "$work/eve-unlink" "not permitted" && [ -e "$gseg/$gsegment" ]'
check "group: member uid $eve_uid cannot open the victim's mapping through /proc to truncate it" \
    eval '[ "$mrc" != 0 ] && has "$work/eve-mapfile" "denied\|not permitted"'
"$bin/security_victim" team "$work/dev/uio0" 1 2 "$goob" "$gentered" "$EPISODES" >"$work/job-group.1" 2>&1; grc1=$?
grc0=0; wait "$grank0" || grc0=$?
check "group: the victim's team completes $EPISODES episodes, no early release, no SIGBUS (exits $grc0 $grc1)" \
    eval '[ "$grc0" = 0 ] && [ "$grc1" = 0 ] && completed group 2'
if [ "$grc0$grc1" != 00 ]; then show "$work/job-group.0"; show "$work/job-group.1"; fi

# 9. Under the group, a plain 0660 file in place of a segment (what a member could truncate) is
#    refused by name.
rm -f "$gseg/$gsegment"
cp "$work/segment.keep" "$gseg/$gsegment" && chgrp "$EVE" "$gseg/$gsegment" && chmod 0660 "$gseg/$gsegment"
job gplain port0_addr 2
check "group: a 0660 segment file (truncatable by members) is refused by name" \
    refused gplain "refusing $gseg/$gsegment" "may truncate"
rm -f "$gseg/$gsegment"
ipcrm -m "$gid_seg" 2>/dev/null

# 10. A simulator fabric under the group: its switch, arenas, hosts and windows are segments; the
#     member's truncations are refused while a job runs; `gba sim destroy` frees them.
gfab=$work/gfabric
"$bin/gba" sim create --ports 2 --path "$gfab" >/dev/null
gids=$(for f in switch arenas hosts windows; do od -An -t d8 -j 8 -N 8 "$gfab/$f" | tr -d ' '; done)
gsim_addr() { echo "sim:$gfab#$1"; }
(
    for _ in $(seq 50); do
        for f in switch arenas hosts windows; do as_eve truncate -s 0 "$gfab/$f" 2>/dev/null && echo "TRUNCATED $f"; done
    done
) >"$work/eve-gtrunc" 2>&1 &
eve_truncer=$!
job gsim gsim_addr 2; rc=$?
wait "$eve_truncer"
check "group: a fabric's memory is 4 segments; member uid $eve_uid cannot truncate them; the job completes (exit $rc)" \
    eval '[ "$(echo $gids | wc -w)" = 4 ] && [ "$rc" = 0 ] && completed gsim 2 && ! has "$work/eve-gtrunc" TRUNCATED'
# 11. The group's purpose: a member runs jobs on a fabric root made under the group (its
#     pointer files are 0640: a member may read, never rewrite them), and root on one the
#     member made (in the member's sticky directory). Each job's out-of-band directory and
#     entered file are the member's.
eve_own() { chown -R "$EVE" "$work/oob-$1" "$work/entered-$1"; }
mkdir -p "$work/oob-geve" && head -c 16 /dev/zero >"$work/entered-geve" && eve_own geve
JOB_AS=("${EVE_RUN[@]}")
job geve gsim_addr 2; rc=$?
unset JOB_AS
check "group: member uid $eve_uid runs a job on root's group fabric (exit $rc)" \
    eval '[ "$rc" = 0 ] && completed geve 2'
[ "$rc" = 0 ] || show "$work/job-geve.0"
eshare=$work/eshare && mkdir -m 01770 "$eshare" && chgrp "$EVE" "$eshare"
efab=$eshare/efabric
as_eve "$bin/gba" sim create --ports 2 --path "$efab" >"$work/out" 2>&1
efab_addr() { echo "sim:$efab#$1"; }
job gmember efab_addr 2; rc=$?
check "group: root runs a job on a fabric member uid $eve_uid made under the group (exit $rc)" \
    eval '[ "$rc" = 0 ] && completed gmember 2'
[ "$rc" = 0 ] || show "$work/job-gmember.0"
as_eve "$bin/gba" sim destroy --path "$efab" >/dev/null 2>&1
"$bin/gba" sim destroy --path "$gfab" >/dev/null
check "group: gba sim destroy frees the fabric's segments" \
    eval '! ipcs -m | grep -qw "$(echo $gids | sed "s/ /\\|/g")"'
chmod 0700 "$work"
unset GBA_SHARED_GROUP
unset GBA_UIO_SYSFS GBA_HOST_SEGMENT_DIR

# ---------------------------------------------------------------------------------------------
# VFIO's descriptor socket (abstract, predictable name)
# ---------------------------------------------------------------------------------------------
bdf=0000:ee:00.$((RANDOM % 8))
"${EVE_RUN[@]}" "$bin/security_victim" vfio-serve "$bdf" 20 >"$work/eve-serve" 2>&1 &
squatter=$!
pids+=("$squatter")
for _ in $(seq 100); do has "$work/eve-serve" serving && break; sleep 0.1; done
"$bin/security_victim" vfio-receive "$bdf" >"$work/out" 2>&1; rc=$?
check "vfio: a second opener refuses the socket served by uid $eve_uid, by name" \
    eval '[ "$rc" = 1 ] && has "$work/out" "refused: .*uid $eve_uid"'
"$bin/security_victim" vfio-serve "$bdf" 0 >"$work/out" 2>&1; rc=$?
check "vfio: the first opener reports the squatted name and who holds it" \
    eval '[ "$rc" = 1 ] && has "$work/out" "held by process [0-9]* of uid $eve_uid"'
kill "$squatter" 2>/dev/null; wait "$squatter" 2>/dev/null

bdf2=0000:ef:00.$((RANDOM % 8))
"$bin/security_victim" vfio-serve "$bdf2" 20 >"$work/root-serve" 2>&1 &
server=$!
pids+=("$server")
for _ in $(seq 100); do has "$work/root-serve" serving && break; sleep 0.1; done
as_eve "$bin/security_victim" vfio-receive "$bdf2" >"$work/out" 2>&1; rc=$?
check "vfio: root's first opener serves nothing to uid $eve_uid" \
    eval '[ "$rc" = 1 ] && ! has "$work/out" received'
kill "$server" 2>/dev/null; wait "$server" 2>/dev/null

echo "security: $passed passed, $failed failed"
[ "$failed" = 0 ]
